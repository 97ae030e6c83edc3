// Program start and end: the heap, the arguments, standard output's buffering, exit and finish
// (cairn/lang.h, Program start and end).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "cairn/lang.h"
#include "lang/errors.h"
#include "lang/transaction.h"

namespace {

int program_argc = 0;
char **program_argv = nullptr;

// A page that could not be faulted in: a runtime error. The hook runs inside the SIGSEGV
// handler (or cairn_make_resident); standard output is flushed only if no one holds its lock
// (the fault may have happened inside a stdio call, which would deadlock on it).
void FaultIsARuntimeError(const cairn_fault_error *error, void *) {
  const bool stdout_free = ftrylockfile(stdout) == 0;
  if (stdout_free) {
    std::fflush(stdout);
    funlockfile(stdout);
  }
  std::string message = std::string("database error: ") + error->message;
  std::fwrite(message.data(), 1, message.size(), stderr);
  std::fputc('\n', stderr);
  std::fflush(stderr);
  cairn::lang::AbortOpenTransaction();
  // exit() would flush standard output again, and wait for its lock if the fault was inside it.
  if (!stdout_free) std::_Exit(CAIRN_EXIT_RUNTIME_ERROR);
  std::exit(CAIRN_EXIT_RUNTIME_ERROR);
}

}  // namespace

using namespace cairn::lang;

extern "C" {

void cairn_lang_start(int argc, char **argv) {
  // Standard output: line by line on a terminal, in large blocks into a pipe or a file. This
  // must precede any output.
  if (isatty(STDOUT_FILENO))
    std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
  else
    std::setvbuf(stdout, nullptr, _IOFBF, 64 * 1024);
  if (cairn_init(nullptr) != CAIRN_OK) {
    std::fprintf(stderr, "cairn: fatal: the heap could not be set up: %s\n", cairn_last_error());
    std::exit(CAIRN_EXIT_RUNTIME_ERROR);
  }
  cairn_set_fault_error_hook(FaultIsARuntimeError, nullptr);
  program_argc = argc;
  program_argv = argv;
}

int64_t cairn_lang_argc(void) { return program_argc > 1 ? program_argc - 1 : 0; }

const char *cairn_lang_argv(int64_t i) {
  if (i < 0 || i >= cairn_lang_argc())
    InternalError("cairn_lang_argv(%lld) with %lld arguments", (long long)i,
                  (long long)cairn_lang_argc());
  return program_argv[i + 1];
}

void cairn_lang_exit(int64_t code) {
  std::fflush(stdout);
  AbortOpenTransaction();
  std::exit(static_cast<int>(code));
}

void cairn_lang_finish(void) {
  AbortOpenTransaction();
  std::fflush(stdout);
  std::exit(0);
}

}  // extern "C"
