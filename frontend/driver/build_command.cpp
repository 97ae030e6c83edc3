// `cairn build`, `cairn run` and `cairn check`.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "driver/cli.h"
#include "driver/compile.h"

namespace cairn::driver {
namespace {

namespace fs = std::filesystem;

constexpr char kBuildUsage[] =
    "usage: cairn build PROGRAM.cairn [-o OUTPUT] [options]\n"
    "\n"
    "Compiles a program and the modules it imports into a native executable (default: the\n"
    "program's name without .cairn, in the current folder).\n"
    "\n"
    "options:\n"
    "  -o FILE           the executable to write\n"
    "  -O0, -O2 (or -O)  optimization level (default -O2)\n"
    "  -g0               no debug line tables\n"
    "  --path DIR        also look for imported modules under DIR (repeatable)\n"
    "  --emit-llvm FILE  also write the optimized LLVM IR to FILE\n"
    "  --runtime-dir DIR link the runtime libraries from DIR (e.g. the GC stress build's)\n"
    "  -j N              generate code in up to N threads (default: one per core; a small\n"
    "                    program is always one)\n"
    "  --linker lld|system  link with LLVM's lld (the default when installed) or the C++\n"
    "                    compiler's default linker\n"
    "  --color           diagnostics in colour (default: when standard error is a terminal)\n"
    "  --time            print the wall-clock time of each phase of the build\n"
    "  --verify-ir       check the generated IR with LLVM's verifier at -O0 too (-O2 always\n"
    "                    does; also $CAIRN_VERIFY_IR=1)\n";

constexpr char kRunUsage[] =
    "usage: cairn run [options] PROGRAM.cairn [ARGUMENTS...]\n"
    "\n"
    "Builds a program (into a cache keyed by its sources, the compiler and the options:\n"
    "$CAIRN_CACHE, else $XDG_CACHE_HOME/cairn, else ~/.cache/cairn) and runs it with the\n"
    "arguments. --store DIR is handed to the program as $CAIRN_STORE. The program's exit\n"
    "status is cairn's.\n"
    "\n"
    "options (before the program; everything after it is the program's):\n"
    "  --store DIR, -O0, -O2, -g0, -j N, --path DIR, --runtime-dir DIR, --linker lld|system,\n"
    "  --color, --verify-ir\n";

constexpr char kCheckUsage[] =
    "usage: cairn check PROGRAM.cairn [--path DIR] [--lib]\n"
    "\n"
    "Reports the program's errors without building it. Exit status 0 when there are none, 1\n"
    "when there are. --lib: the file is a library module (no main needed).\n";

// Parses the compile options of build/run/check. Stops at the first word that is not an
// option after the program (run: the program's arguments). Returns false on a usage error.
bool parseOptions(const std::vector<std::string> &args, CompileOptions &o, std::string *output,
                  std::vector<std::string> *rest, std::string *error, bool is_run,
                  std::string *store = nullptr) {
  o.color = isatty(STDERR_FILENO);
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    auto value = [&](const char *what) -> const std::string * {
      if (i + 1 >= args.size()) {
        *error = a + " needs " + what;
        return nullptr;
      }
      return &args[++i];
    };
    if (is_run && !o.main_file.empty()) {
      // Everything after the program belongs to it, a `--` too (as `./prog -- x` gets it).
      rest->assign(args.begin() + static_cast<long>(i), args.end());
      return true;
    }
    if (a == "-o" && output) {
      const std::string *v = value("a file");
      if (!v) return false;
      *output = *v;
    } else if (a == "-O0") {
      o.opt_level = 0;
    } else if (a == "-O2" || a == "-O") {
      o.opt_level = 2;
    } else if (a == "-g0") {
      o.debug_info = false;
    } else if (a == "-g") {
      o.debug_info = true;
    } else if (a == "--path") {
      const std::string *v = value("a folder");
      if (!v) return false;
      std::error_code ec;
      if (!std::filesystem::is_directory(*v, ec)) {
        *error = "--path " + *v + ": " +
                 (std::filesystem::exists(*v, ec) ? "not a folder" : "no such folder") +
                 "; name the folder that holds the program's modules";
        return false;
      }
      o.search_paths.push_back(*v);
    } else if (a == "--runtime-dir") {
      const std::string *v = value("a folder");
      if (!v) return false;
      o.runtime_dir = *v;
    } else if (a == "-j") {
      const std::string *v = value("a number of threads");
      if (!v) return false;
      char *end = nullptr;
      unsigned long n = std::strtoul(v->c_str(), &end, 10);
      if (v->empty() || *end != '\0' || n < 1 || n > 64) {
        *error = "-j takes a number of threads from 1 to 64, not '" + *v + "'";
        return false;
      }
      o.threads = static_cast<unsigned>(n);
    } else if (a == "--linker") {
      const std::string *v = value("lld or system");
      if (!v) return false;
      if (*v != "lld" && *v != "system") {
        *error = "--linker takes lld or system, not '" + *v + "'";
        return false;
      }
      o.linker = *v;
    } else if (a == "--emit-llvm") {
      const std::string *v = value("a file");
      if (!v) return false;
      o.emit_llvm = *v;
    } else if (a == "--store" && is_run && store) {
      const std::string *v = value("a directory");
      if (!v) return false;
      *store = *v;
    } else if (a == "--color") {
      o.color = true;
    } else if (a == "--no-color") {
      o.color = false;
    } else if (a == "--time" && output) {
      o.time_phases = true;
    } else if (a == "--verify-ir") {
      o.verify_ir = true;
    } else if (a == "--lib") {
      o.require_main = false;
    } else if (!a.empty() && a[0] == '-') {
      *error = "unknown option '" + a + "'";
      return false;
    } else if (o.main_file.empty()) {
      o.main_file = a;
    } else {
      *error = "unexpected argument '" + a + "' (one program at a time)";
      return false;
    }
  }
  if (o.main_file.empty()) {
    *error = "no program given";
    return false;
  }
  return true;
}

bool wantsHelp(const std::vector<std::string> &args) {
  for (const std::string &a : args) {
    if (a == "--") return false;
    if (a == "--help" || a == "-h") return true;
  }
  return false;
}

std::string cacheDir() {
  if (const char *x = std::getenv("CAIRN_CACHE"); x && *x) return x;
  if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/cairn";
  if (const char *h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/cairn";
  return "/tmp/cairn-cache-" + std::to_string(getuid());
}

}  // namespace

// Why the executable cannot be written to `output`, or "" when it can be tried: found before
// the build, not by the linker after it.
std::string outputProblem(const std::string &output) {
  std::error_code ec;
  if (fs::is_directory(output, ec)) {
    return "it is a folder; give -o the path of the file to write (e.g. -o " +
           (fs::path(output) / "prog").string() + ")";
  }
  fs::path folder = fs::path(output).parent_path();
  if (folder.empty()) folder = ".";
  if (!fs::exists(folder, ec)) {
    return "folder '" + folder.string() + "' does not exist (create it, or give -o another path)";
  }
  if (!fs::is_directory(folder, ec)) return "'" + folder.string() + "' is not a folder";
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    return "folder '" + folder.string() +
           "' is not writable by you (give -o a path in a folder you may write)";
  }
  return "";
}

int RunBuildCommand(const GlobalOptions &, const std::vector<std::string> &args) {
  if (wantsHelp(args)) {
    std::fputs(kBuildUsage, stdout);
    return kExitOk;
  }
  CompileOptions o;
  std::string output, error;
  if (!parseOptions(args, o, &output, nullptr, &error, false))
    return ReportUsage(error, "cairn build");
  {
    // A folder named as the program is what is wrong, not the output named after it.
    std::error_code ec;
    if (fs::is_directory(o.main_file, ec)) {
      std::fprintf(
          stderr,
          "cairn: error: cannot read '%s': it is a folder (name the program's .cairn file)\n",
          o.main_file.c_str());
      return kExitError;
    }
  }
  if (output.empty()) output = fs::path(o.main_file).stem().string();
  if (std::string problem = outputProblem(output); !problem.empty()) {
    std::fprintf(stderr, "cairn: error: cannot write the executable '%s': %s\n", output.c_str(),
                 problem.c_str());
    return kExitError;
  }
  int r = buildExecutable(o, output);
  return r == 0 ? kExitOk : kExitError;
}

int RunCheckCommand(const GlobalOptions &, const std::vector<std::string> &args) {
  if (wantsHelp(args)) {
    std::fputs(kCheckUsage, stdout);
    return kExitOk;
  }
  CompileOptions o;
  std::string error;
  if (!parseOptions(args, o, nullptr, nullptr, &error, false))
    return ReportUsage(error, "cairn check");
  return checkOnly(o) == 0 ? kExitOk : kExitError;
}

int RunRunCommand(const GlobalOptions &global, const std::vector<std::string> &args) {
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::fputs(kRunUsage, stdout);
    return kExitOk;
  }
  CompileOptions o;
  std::string error;
  std::vector<std::string> program_args;
  std::string store = global.store_flag;
  if (!parseOptions(args, o, nullptr, &program_args, &error, true, &store))
    return ReportUsage(error, "cairn run");
  std::string key = buildKey(o);
  if (key.empty()) return kExitError;
  fs::path dir = fs::path(cacheDir());
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    std::fprintf(stderr, "cairn: cannot create the build cache %s: %s (set CAIRN_CACHE)\n",
                 dir.c_str(), ec.message().c_str());
    return kExitError;
  }
  fs::path exe = dir / (fs::path(o.main_file).stem().string() + "-" + key);
  // Build under a temporary name and rename, so a concurrent run never sees half a file.
  auto build = [&]() {
    // Only a build writes the cache: a cache that may only be read runs what it holds.
    if (::access(dir.c_str(), W_OK | X_OK) != 0) {
      std::fprintf(stderr,
                   "cairn: cannot write the build cache %s: %s (set CAIRN_CACHE to a folder you "
                   "may write)\n",
                   dir.c_str(), std::strerror(errno));
      return false;
    }
    fs::path tmp = exe;
    tmp += ".tmp" + std::to_string(getpid());
    if (buildExecutable(o, tmp.string()) != 0) return false;
    std::error_code rename_ec;
    fs::rename(tmp, exe, rename_ec);
    if (rename_ec) {
      std::fprintf(stderr, "cairn: cannot store %s: %s\n", exe.c_str(),
                   rename_ec.message().c_str());
      return false;
    }
    return true;
  };
  const bool cached = fs::exists(exe, ec);
  if (!cached && !build()) return kExitError;
  if (!store.empty()) setenv("CAIRN_STORE", store.c_str(), 1);
  std::vector<char *> argv;
  std::string name = o.main_file;
  argv.push_back(name.data());
  for (std::string &a : program_args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  execv(exe.c_str(), argv.data());
  int err = errno;
  if (cached && (err == ENOEXEC || err == EISDIR || err == ELIBBAD || err == ENOENT)) {
    // An entry of the cache that is no executable (cut short or damaged from outside: a build
    // stores only whole files), or went away, is built again, once.
    fs::remove(exe, ec);
    if (!build()) return kExitError;
    execv(exe.c_str(), argv.data());
    err = errno;
  }
  std::fprintf(stderr, "cairn: cannot run %s: %s (remove it, or the cache %s, and run again)\n",
               exe.c_str(), std::strerror(err), dir.c_str());
  return kExitError;
}

}  // namespace cairn::driver
