// The `cairn` executable: global options, then a subcommand.
#include <llvm/Config/llvm-config.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "driver/cli.h"
#include "source/diagnostics.h"

namespace cairn::driver {
namespace {

constexpr char kUsage[] =
    "usage: cairn [--store DIR] <command> [arguments]\n"
    "\n"
    "commands:\n"
    "  build    compile a program into a native executable (cairn build --help)\n"
    "  run      build a program into a cache and run it (cairn run --help)\n"
    "  check    report a program's errors without building it\n"
    "  repl     an interactive session: compile and run declarations, statements and\n"
    "           expressions as they are typed; browse and change databases\n"
    "  db       list, create, inspect, check and drop the databases of a store\n"
    "           (cairn db --help)\n"
    "\n"
    "options:\n"
    "  --store DIR   the store directory; default $CAIRN_STORE, else ./cairn.store\n"
    "  --help        this message\n"
    "  --version     the version of Cairn\n";

}  // namespace

int ReportError(const Status &s) {
  std::fprintf(stderr, "cairn: %s\n", s.message().c_str());
  return kExitError;
}

int ReportUsage(const std::string &what, const std::string &help_command) {
  std::fprintf(stderr, "cairn: %s\ncairn: run '%s --help' for usage\n", what.c_str(),
               help_command.c_str());
  return kExitUsage;
}

int Main(int argc, char **argv) {
  GlobalOptions options;
  std::vector<std::string> words;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "run" && words.empty()) {
      // `cairn run`: everything after the program file belongs to the program, so the run
      // command parses its own words (--store included, before the program file).
      std::vector<std::string> rest(argv + i + 1, argv + argc);
      return RunRunCommand(options, rest);
    }
    // A usage error names the help of the command it is in (`cairn repl --help`).
    const std::string help = words.empty() ? "cairn" : "cairn " + words[0];
    if (a == "--store") {
      if (i + 1 >= argc) return ReportUsage("--store needs a directory", help);
      options.store_flag = argv[++i];
      if (options.store_flag.empty()) return ReportUsage("--store needs a directory", help);
    } else if (a.rfind("--store=", 0) == 0) {
      options.store_flag = a.substr(8);
      if (options.store_flag.empty()) return ReportUsage("--store needs a directory", help);
    } else {
      words.push_back(a);
    }
  }
  if (words.empty()) {
    std::fputs(kUsage, stderr);
    return kExitUsage;
  }
  const std::string command = words[0];
  std::vector<std::string> rest(words.begin() + 1, words.end());
  if (command == "--help" || command == "-h" || command == "help") {
    std::fputs(kUsage, stdout);
    return kExitOk;
  }
  if (command == "--version") {
    std::printf("cairn 0.1.0 (LLVM %s, allocator: %s)\n", LLVM_VERSION_STRING,
                AllocatorName().c_str());
    return kExitOk;
  }
  if (command == "db") return RunDbCommand(options, rest);
  if (command == "build") return RunBuildCommand(options, rest);
  if (command == "run") return RunRunCommand(options, rest);
  if (command == "check") return RunCheckCommand(options, rest);
  if (command == "repl") return RunReplCommand(options, rest);
  if (command.starts_with("-")) return ReportUsage("unknown option '" + command + "'", "cairn");
  const std::string near =
      front::nearestName(command, {"build", "run", "check", "repl", "db", "help"});
  return ReportUsage(
      "unknown command '" + command + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)"),
      "cairn");
}

}  // namespace cairn::driver

int main(int argc, char **argv) { return cairn::driver::Main(argc, argv); }
