// Programs: the language runtime as a compiled Cairn program uses it, in a process of its own.
// A program is a function registered by name with LANG_PROGRAM; the test binary runs it when
// started as `--child=NAME STORE_DIR ARGS...` (tests/persist/spawn.h starts it and collects its
// status and output): cairn_lang_start with the program name and ARGS as argv, with
// $CAIRN_STORE set to STORE_DIR, then the function, then cairn_lang_finish, as the generated
// `main` does.
#pragma once

#include <string>
#include <vector>

#include "../persist/spawn.h"
#include "lang_test.h"

namespace cairn_langtest {

using cairn_ptest::ChildResult;
using cairn_ptest::TempDir;

using ProgramFn = void (*)();
bool RegisterProgram(const char *name, ProgramFn fn);
// main's side: runs the program named by --child=NAME; the program ends the process
// (cairn_lang_finish, exit or a runtime error).
int ProgramMain(int argc, char **argv);

#define LANG_PROGRAM(Name)                                      \
  static void Name##_Program();                                 \
  [[maybe_unused]] static const bool Name##_registered =        \
      ::cairn_langtest::RegisterProgram(#Name, Name##_Program); \
  static void Name##_Program()

// In a program: its argument i (cairn_lang_argv), and printing through the runtime.
inline std::string Arg(int64_t i) { return cairn_lang_argv(i); }
inline void Say(const std::string &s) { cairn_print_ref(Text(s)); }
inline void SayLine(const std::string &s) {
  Say(s);
  cairn_print_newline();
}

// Runs program `name` with `args` on the store `store` ("" for none given), with `env`
// ("NAME=VALUE") added to the environment, and waits for it.
ChildResult RunProgram(const std::string &name, const std::vector<std::string> &args = {},
                       const std::string &store = "", const std::vector<std::string> &env = {});

// Tests whose programs share a fresh store (a temporary directory removed after the test).
class StoreTest : public ::testing::Test {
 protected:
  ChildResult Run(const std::string &name, const std::vector<std::string> &args = {}) {
    return RunProgram(name, args, dir_.Sub("store"));
  }

 private:
  TempDir dir_;
};

// The line a runtime error prints at kLoc.
inline std::string ErrorAt(const cairn_loc &loc, const std::string &message) {
  return std::string(loc.file) + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col) +
         ": " + message + "\n";
}

}  // namespace cairn_langtest
