// Programs in a process of their own (program.h) and the test binary's main.
#include "program.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

namespace cairn_langtest {
namespace {

std::map<std::string, ProgramFn> &Programs() {
  static std::map<std::string, ProgramFn> programs;
  return programs;
}

}  // namespace

bool RegisterProgram(const char *name, ProgramFn fn) {
  Programs()[name] = fn;
  return true;
}

int ProgramMain(int argc, char **argv) {
  const std::string name = argv[1] + std::strlen("--child=");
  auto it = Programs().find(name);
  if (it == Programs().end()) {
    std::fprintf(stderr, "no program named %s\n", name.c_str());
    return 2;
  }
  if (argv[2][0] != '\0') setenv("CAIRN_STORE", argv[2], 1);
  // argv of the program: this executable, then what follows the store directory.
  std::vector<char *> program_argv = {argv[0]};
  for (int i = 3; i < argc; i++) program_argv.push_back(argv[i]);
  program_argv.push_back(nullptr);
  cairn_lang_start(static_cast<int>(program_argv.size() - 1), program_argv.data());
  it->second();
  cairn_lang_finish();
}

ChildResult RunProgram(const std::string &name, const std::vector<std::string> &args,
                       const std::string &store, const std::vector<std::string> &env) {
  ChildResult r = cairn_ptest::RunChild(name, store, args, env, 120);
  std::printf("[program] %-32s status %d in %.2f s\n", name.c_str(), r.exit_code, r.seconds);
  return r;
}

}  // namespace cairn_langtest

int main(int argc, char **argv) {
  if (argc >= 3 && std::strncmp(argv[1], "--child=", 8) == 0)
    return cairn_langtest::ProgramMain(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
