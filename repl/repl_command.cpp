// `cairn repl`: the command line, then the loop of inputs (line_input.h, session.h).
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "driver/cli.h"
#include "driver/compile.h"
#include "line_input.h"
#include "output.h"
#include "session.h"

namespace cairn::driver {
namespace {

constexpr char kReplUsage[] =
    "usage: cairn repl [--store DIR] [--path DIR] [-O0] [FILE.cairn ...]\n"
    "\n"
    "An interactive session: type declarations, statements and expressions; each is compiled\n"
    "and run at once, and an expression's value is printed. The files' declarations are loaded\n"
    "first (as with :load). :help lists the commands. Input from a pipe or a file works the\n"
    "same, without prompts; the exit status is then 1 if an input failed.\n"
    "\n"
    "options:\n"
    "  --store DIR   the store of the databases (default $CAIRN_STORE, else ./cairn.store)\n"
    "  --path DIR    also look for imported modules under DIR (repeatable)\n"
    "  -O0, -O2      optimization of the compiled inputs (default -O2)\n"
    "  --color       diagnostics in colour (default: when standard error is a terminal)\n";

}  // namespace

int RunReplCommand(const GlobalOptions &options, const std::vector<std::string> &args) {
  repl::SessionOptions so;
  so.store_dir = options.store_flag;
  so.stdlib_dir = stdlibDir();
  so.color = isatty(STDERR_FILENO);
  std::vector<std::string> files;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    if (a == "--help" || a == "-h") {
      std::fputs(kReplUsage, stdout);
      return kExitOk;
    } else if (a == "--path") {
      if (i + 1 >= args.size()) return ReportUsage("--path needs a folder", "cairn repl");
      const std::string &dir = args[++i];
      std::error_code ec;
      if (!std::filesystem::is_directory(dir, ec))
        return ReportUsage(
            "--path " + dir + ": " +
                (std::filesystem::exists(dir, ec) ? "not a folder" : "no such folder") +
                "; name the folder that holds the program's modules",
            "cairn repl");
      so.search_paths.push_back(dir);
    } else if (a == "-O0") {
      so.opt_level = 0;
    } else if (a == "-O2" || a == "-O") {
      so.opt_level = 2;
    } else if (a == "--color") {
      so.color = true;
    } else if (a == "--no-color") {
      so.color = false;
    } else if (!a.empty() && a[0] == '-') {
      return ReportUsage("unknown option '" + a + "'", "cairn repl");
    } else {
      files.push_back(a);
    }
  }
  repl::Session session(so);
  if (!session.start()) return kExitError;
  repl::LineInput input([&](const std::string &line, size_t cursor,
                            size_t *start) { return session.complete(line, cursor, start); },
                        "");
  // After the line editor took the stream it writes prompts to (output.h).
  repl::trackStdout();
  for (const std::string &f : files) session.handle(":load " + f);
  if (input.interactive())
    std::printf("Cairn 0.1.0 -- :help for the commands, :quit or Ctrl-D to end\n");
  while (true) {
    std::optional<std::string> text = input.read(repl::Session::isComplete);
    if (!text) break;
    if (!session.handle(*text)) break;
  }
  session.finish();
  std::fflush(stdout);
  return !input.interactive() && session.failures() > 0 ? kExitError : kExitOk;
}

}  // namespace cairn::driver
