// Printing: what print/println write on standard output, its buffering (fully buffered into a
// pipe, line by line on a terminal) and its flushing before a runtime error. Each case is a
// program in a process of its own (program.h).
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "program.h"

extern char **environ;

namespace cairn_langtest {
namespace {

const std::string kLong(10000, 'x');  // longer than print's copy buffer

LANG_PROGRAM(PrintEveryKind) {
  cairn_print_int(42);
  cairn_print_space();
  cairn_print_int(INT64_MIN);
  cairn_print_space();
  cairn_print_float(-1.5);
  cairn_print_space();
  cairn_print_float(3.0);
  cairn_print_space();
  cairn_print_float(NAN);
  cairn_print_space();
  cairn_print_bool(1);
  cairn_print_space();
  cairn_print_bool(0);
  cairn_print_space();
  cairn_print_ref(nullptr);
  cairn_print_newline();
  cairn_print_ref(Text("héllo"));
  cairn_print_space();
  cairn_print_ref(IntArray({1, 2, 3}));
  cairn_print_space();
  void *names = RefArray(2);
  SetRef(names, 0, Text("ada"));
  cairn_print_ref(names);
  cairn_print_newline();
  cairn_print_ref(Text(std::string("a\0b", 3)));
  cairn_print_newline();
  cairn_print_ref(Text(kLong));
  cairn_print_newline();
}

TEST(PrintTest, EveryKind) {
  ChildResult r = RunProgram("PrintEveryKind");
  ASSERT_TRUE(r.ok()) << r.Describe();
  EXPECT_EQ(r.out,
            "42 -9223372036854775808 -1.5 3.0 nan true false nil\n"
            "héllo [1, 2, 3] [\"ada\", nil]\n" +
                std::string("a\0b\n", 4) + kLong + "\n");
  EXPECT_EQ(r.err, "");
}

// Into a pipe, output waits in the buffer: a process that ends without flushing loses it.
LANG_PROGRAM(PrintThenVanish) {
  cairn_print_ref(Text("buffered"));
  cairn_print_newline();
  _exit(9);
}

TEST(PrintTest, FullyBufferedIntoAPipe) {
  ChildResult r = RunProgram("PrintThenVanish");
  EXPECT_EQ(r.exit_code, 9) << r.Describe();
  EXPECT_EQ(r.out, "");
}

LANG_PROGRAM(PrintThenFail) {
  cairn_print_ref(Text("before"));
  cairn_print_newline();
  cairn_print_int(1);
  cairn_rt_div_zero(&kLoc);
}

TEST(PrintTest, FlushedBeforeARuntimeError) {
  ChildResult r = RunProgram("PrintThenFail");
  EXPECT_EQ(r.exit_code, CAIRN_EXIT_RUNTIME_ERROR) << r.Describe();
  EXPECT_EQ(r.out, "before\n1");
  EXPECT_EQ(r.err, "t.cairn:3:7: division by zero\n");
}

// Runs a program with its standard output on a new terminal (a pseudo-terminal); returns what
// it wrote there, or sets *skip if this system has no pseudo-terminals.
std::string RunOnTerminal(const std::string &name, int *status, bool *skip) {
  *skip = false;
  int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) {
    *skip = true;
    return "";
  }
  const std::string terminal = ptsname(master);
  std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  std::string child = "--child=" + name, store;
  char *argv[] = {self.data(), child.data(), store.data(), nullptr};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, terminal.c_str(), O_RDWR | O_NOCTTY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, self.c_str(), &fa, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  std::string out;
  if (rc == 0) {
    char buf[4096];
    for (;;) {
      pollfd p{master, POLLIN, 0};
      if (poll(&p, 1, 60000) <= 0) break;
      ssize_t n = read(master, buf, sizeof buf);
      if (n > 0)
        out.append(buf, static_cast<size_t>(n));
      else if (n == 0 || errno != EINTR)
        break;  // EIO: the program has closed the terminal
    }
    waitpid(pid, status, 0);
  }
  close(master);
  return out;
}

LANG_PROGRAM(PrintLinesThenVanish) {
  cairn_print_ref(Text("a line"));
  cairn_print_newline();
  cairn_print_ref(Text("no newline yet"));
  _exit(9);
}

TEST(PrintTest, LineBufferedOnATerminal) {
  int status = 0;
  bool skip = false;
  const std::string out = RunOnTerminal("PrintLinesThenVanish", &status, &skip);
  if (skip) GTEST_SKIP() << "no pseudo-terminals here";
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 9) << status;
  EXPECT_EQ(out, "a line\r\n");  // the terminal turns "\n" into "\r\n"
}

}  // namespace
}  // namespace cairn_langtest
