// The session's standard output (output.h).
#include "output.h"

#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>

namespace cairn::repl {
namespace {

// The last byte written to file descriptor 1 was not a line break, or the terminal echoed a
// Ctrl-C there since (noteTerminalEcho, from a signal handler).
volatile sig_atomic_t line_open = 0;

ssize_t writeOut(void *, const char *bytes, size_t n) {
  size_t done = 0;
  while (done < n) {
    const ssize_t w = ::write(STDOUT_FILENO, bytes + done, n - done);
    if (w < 0) {
      if (errno == EINTR) continue;
      break;
    }
    done += static_cast<size_t>(w);
  }
  if (done > 0) line_open = bytes[done - 1] != '\n';
  return done > 0 || n == 0 ? static_cast<ssize_t>(done) : -1;
}

}  // namespace

void trackStdout() {
  cookie_io_functions_t io{};
  io.write = writeOut;
  FILE *tracked = fopencookie(nullptr, "w", io);
  if (tracked == nullptr) return;  // lines stay as the program leaves them
  std::setvbuf(tracked, nullptr, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ);
  std::fflush(stdout);
  stdout = tracked;
}

void noteTerminalEcho() { line_open = 1; }

void endLine() {
  std::fflush(stdout);
  if (!line_open) return;
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

}  // namespace cairn::repl
