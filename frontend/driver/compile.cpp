// The compiler's pipeline (compile.h).
#include "driver/compile.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "check/checker.h"
#include "check/module_loader.h"
#include "driver/inprocess_link.h"
#include "driver/link_stubs.h"
#include "lower/emit.h"
#include "lower/lower.h"
#include "source/diagnostics.h"

#ifndef CAIRN_BUILD_RUNTIME_DIR
#define CAIRN_BUILD_RUNTIME_DIR ""
#endif
#ifndef CAIRN_SOURCE_STDLIB_DIR
#define CAIRN_SOURCE_STDLIB_DIR ""
#endif
#ifndef CAIRN_LINKER
#define CAIRN_LINKER "c++"
#endif
#ifndef CAIRN_LLD_DIR
#define CAIRN_LLD_DIR ""
#endif
#ifndef CAIRN_LINK_LIBS
#define CAIRN_LINK_LIBS ""
#endif

namespace cairn::driver {
namespace {

namespace fs = std::filesystem;

// The runtime's static libraries, in link order.
const char *const kRuntimeLibs[] = {"libcairn_lang.a", "libcairn_persist.a", "libcairn_store.a",
                                    "libcairn_gc.a", "libcairn_base.a"};

std::string selfDir() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : p.parent_path().string();
}

bool hasRuntime(const std::string &dir) {
  std::error_code ec;
  return !dir.empty() && fs::exists(fs::path(dir) / "libcairn_gc.a", ec);
}

std::vector<std::string> splitList(const std::string &s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ';'))
    if (!item.empty()) out.push_back(item);
  return out;
}

int runCommand(const std::vector<std::string> &argv) {
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    std::vector<char *> args;
    for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    std::fprintf(stderr, "cairn: cannot run %s\n", args[0]);
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

constexpr size_t kErrorLimit = 100;

struct Frontend {
  front::SourceManager sources;
  front::Diagnostics diags{sources};
  front::TypeContext types;
  front::LoadedProgram loaded;
  std::unique_ptr<front::sem::Program> program;

  // Loads, parses and checks; prints diagnostics. Returns false on errors.
  bool run(const CompileOptions &options, bool check) {
    // The first 100 errors are shown, the rest counted ("N more errors not shown"): a file
    // that is not Cairn at all (a binary) gave thousands of screens.
    diags.setErrorLimit(kErrorLimit);
    front::LoadOptions lo;
    lo.search_paths = options.search_paths;
    lo.stdlib_dir = stdlibDir();
    bool ok = front::loadProgram(options.main_file, lo, sources, diags, loaded);
    if (ok && !diags.hasErrors() && check)
      program = front::checkProgram(loaded.order, loaded.main, diags, types, options.require_main,
                                    lo.stdlib_dir);
    diags.print(stderr, options.color);
    if (diags.hasErrors()) {
      std::fprintf(stderr, "%zu error%s\n", diags.errorCount(), diags.errorCount() == 1 ? "" : "s");
      return false;
    }
    return ok;
  }
};

uint64_t fnv(uint64_t h, const void *data, size_t n) {
  const auto *p = static_cast<const unsigned char *>(data);
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

uint64_t fnvString(uint64_t h, const std::string &s) {
  uint64_t n = s.size();
  h = fnv(h, &n, sizeof n);
  return fnv(h, s.data(), s.size());
}

uint64_t fnvFileStamp(uint64_t h, const std::string &path) {
  struct stat st{};
  if (stat(path.c_str(), &st) == 0) {
    h = fnv(h, &st.st_size, sizeof st.st_size);
    h = fnv(h, &st.st_mtim, sizeof st.st_mtim);
    h = fnv(h, &st.st_ino, sizeof st.st_ino);
  }
  return fnvString(h, path);
}

}  // namespace

std::string runtimeDir(const std::string &flag) {
  if (!flag.empty()) return flag;
  if (const char *env = std::getenv("CAIRN_RUNTIME_DIR"); env && *env) return env;
  std::string self = selfDir();
  if (!self.empty()) {
    std::string beside = (fs::path(self).parent_path() / "lib").string();
    if (hasRuntime(beside)) return beside;
  }
  return CAIRN_BUILD_RUNTIME_DIR;
}

std::string linkLibraryDir(const std::string &dir) {
  fs::path link = fs::path(dir) / "link";
  for (const char *lib : kRuntimeLibs) {
    std::error_code ec;
    fs::file_time_type copy = fs::last_write_time(link / lib, ec);
    if (ec) return dir;
    fs::file_time_type original = fs::last_write_time(fs::path(dir) / lib, ec);
    if (!ec && copy < original) return dir;
  }
  return link.string();
}

std::string lldFor(const std::string &choice, std::string *error) {
  if (choice == "system") return "";
  std::error_code ec;
  std::string dir = CAIRN_LLD_DIR;
  if (!dir.empty() && fs::exists(fs::path(dir) / "ld.lld", ec)) return dir;
  if (choice == "lld")
    *error =
        "--linker lld: ld.lld is not installed (apt-get install lld-19, or use --linker system)";
  return "";
}

std::string stdlibDir() {
  if (const char *env = std::getenv("CAIRN_STDLIB"); env && *env) return env;
  std::string self = selfDir();
  if (!self.empty()) {
    std::error_code ec;
    fs::path installed = fs::path(self).parent_path() / "share" / "cairn" / "stdlib";
    if (fs::is_directory(installed, ec)) return installed.string();
  }
  return CAIRN_SOURCE_STDLIB_DIR;
}

int checkOnly(const CompileOptions &options) {
  Frontend fe;
  fe.run(options, true);
  return static_cast<int>(fe.diags.errorCount());
}

std::string buildKey(const CompileOptions &options) {
  Frontend fe;
  if (!fe.run(options, false)) return "";
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < fe.sources.size(); ++i) {
    const front::SourceFile &f = fe.sources.file(static_cast<uint32_t>(i));
    h = fnvString(h, f.path());
    h = fnvString(h, std::string(f.text()));
  }
  h = fnvString(h, std::to_string(options.opt_level) + (options.debug_info ? "g" : ""));
  h = fnvFileStamp(h, "/proc/self/exe");
  std::error_code ec;
  h = fnvString(h, fs::read_symlink("/proc/self/exe", ec).string());
  h = fnvFileStamp(h, fs::read_symlink("/proc/self/exe", ec).string());
  std::string rt = linkLibraryDir(runtimeDir(options.runtime_dir));
  for (const char *lib : kRuntimeLibs) h = fnvFileStamp(h, (fs::path(rt) / lib).string());
  std::string ignored;
  h = fnvString(h, "linker " + lldFor(options.linker, &ignored));
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

namespace {

// The phases of a build and their wall-clock times, printed by `cairn build --time`.
struct PhaseClock {
  std::vector<std::pair<std::string, double>> times;
  // The other thread's phases in a build as twins (E1), printed after this thread's.
  std::vector<std::pair<std::string, double>> other;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point first = start;
  void lap(const char *phase) {
    auto now = std::chrono::steady_clock::now();
    times.emplace_back(phase, std::chrono::duration<double>(now - start).count());
    start = now;
  }
  void restart() { start = std::chrono::steady_clock::now(); }
  void print() const {
    double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - first).count();
    for (const auto &[phase, seconds] : times)
      std::fprintf(stderr, "cairn: %-22s %8.3f s %5.1f%%\n", phase.c_str(), seconds,
                   total > 0 ? 100 * seconds / total : 0.0);
    for (const auto &[phase, seconds] : other)
      std::fprintf(stderr, "cairn: %-22s %8.3f s (in the other thread)\n", ("  " + phase).c_str(),
                   seconds);
    std::fprintf(stderr, "cairn: %-22s %8.3f s (from main; process start and exit not counted)\n",
                 "total", total);
  }
};

}  // namespace

// Whether a build lowers and generates half of the program's functions in each of two threads
// (E1 of lower/emit.h): at -O0 only (-O2 optimizes the whole module before it is split, so
// that functions inline across the halves), with two threads or more, and for a program with
// enough functions that the second thread pays for what both lower alike.
constexpr size_t kTwinFunctions = 150;

bool buildsAsTwins(const CompileOptions &options, const front::EmitOptions &eo,
                   const front::sem::Program &program) {
  if (options.opt_level != 0 || !options.emit_llvm.empty()) return false;
  const unsigned threads = eo.threads ? eo.threads : std::thread::hardware_concurrency();
  if (threads < 2) return false;
  size_t bodies = 0;
  for (const auto &fn : program.functions) bodies += fn->body ? 1 : 0;
  return bodies >= kTwinFunctions ||
         eo.split_instructions < front::EmitOptions{}.split_instructions;
}

// The extern functions the linker found no definition of (its "undefined symbol: NAME" lines),
// reported at their declarations with the count of errors, then the linker's own text for
// anything else. Returns how that went: the linker named none of them (the caller prints its
// text as it is), only them, or them and more.
enum class ExternReport { kNone, kAll, kSome };
ExternReport ReportUndefinedExterns(Frontend &fe, const std::string &messages, bool color) {
  std::map<std::string, const front::ast::FnDecl *> externs;
  for (front::ModuleInfo *m : fe.loaded.order)
    for (const auto &d : m->syntax->decls)
      if (d->kind == front::ast::DeclKind::Fn && d->as<front::ast::FnDecl>()->is_extern)
        externs.emplace(d->as<front::ast::FnDecl>()->name.name, d->as<front::ast::FnDecl>());
  const std::string marker = "undefined symbol: ";
  std::vector<const front::ast::FnDecl *> found;
  std::string others;
  std::istringstream in(messages);
  bool explained = false;  // the last error line was one of those (its ">>>" lines go with it)
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(">>>", 0) == 0) {
      if (!explained) others += line + "\n";
      continue;
    }
    explained = false;
    const size_t at = line.find(marker);
    if (at != std::string::npos) {
      std::string name = line.substr(at + marker.size());
      while (!name.empty() && (name.back() == '\r' || name.back() == ' ')) name.pop_back();
      auto it = externs.find(name);
      if (it != externs.end()) {
        if (std::find(found.begin(), found.end(), it->second) == found.end())
          found.push_back(it->second);
        explained = true;
        continue;
      }
    }
    others += line + "\n";
  }
  if (found.empty()) return ExternReport::kNone;
  fe.diags.clear();
  for (const front::ast::FnDecl *f : found)
    fe.diags.report(front::DiagId::ExternUndefined, f->name.span, {f->name.name})
        .withHint(
            "check its name and parameters against the C function's; the program is "
            "linked with Cairn's runtime and the C and math libraries (the runtime's "
            "clock is clock_gettime_ns)");
  fe.diags.print(stderr, color);
  std::fprintf(stderr, "%zu error%s\n", found.size(), found.size() == 1 ? "" : "s");
  std::fputs(others.c_str(), stderr);
  return others.empty() ? ExternReport::kAll : ExternReport::kSome;
}

// Why the executable cannot be written at `output` (and its object files beside it), or "":
// something there that is not a file (a device: the objects went to /dev/full.o, and a failed
// link removed what was there), or a disk with no room for the objects (the linker, writing
// through a mapping, died by SIGBUS on a full disk, with no message and its files left behind).
// The room asked for is a guess from below: a link can still run out, and then says so.
std::string unwritableOutput(const std::string &output) {
  std::error_code ec;
  const fs::file_status st = fs::status(output, ec);
  if (!ec && fs::exists(st) && !fs::is_regular_file(st))
    return "cannot write the executable '" + output + "': it is not a file (" +
           (fs::is_directory(st) ? "a directory" : "a device, a pipe or a socket") +
           "); give -o a file's path";
  fs::path dir = fs::path(output).parent_path();
  if (dir.empty()) dir = ".";
  struct statvfs vfs;
  if (statvfs(dir.c_str(), &vfs) != 0) return "";  // the writes will say what is wrong
  const uint64_t free_bytes = uint64_t(vfs.f_bavail) * vfs.f_frsize;
  constexpr uint64_t kLeastRoom = uint64_t(1) << 20;  // a small program's objects and executable
  if (free_bytes >= kLeastRoom) return "";
  return "cannot write the executable '" + output + "': the disk holding " + dir.string() +
         " is full (" + std::to_string(free_bytes >> 10) + " KiB free); free some space, or " +
         "give -o (or CAIRN_CACHE, for cairn run) a place on another disk";
}

int buildExecutable(const CompileOptions &options, const std::string &output) {
  PhaseClock clock;
  Frontend fe;
  if (!fe.run(options, true)) return 1;
  clock.lap("load, parse, check");
  if (std::string why = unwritableOutput(output); !why.empty()) {
    std::fprintf(stderr, "cairn: error: %s\n", why.c_str());
    return 2;
  }
  // Never over one of the program's own source files (`-o prog.cairn`, or a main file without
  // the .cairn extension built in its folder, whose default output is its own name).
  // Nor --emit-llvm's file over a source, or over the executable (one would replace the other).
  for (uint32_t i = 0; i < fe.sources.size(); ++i) {
    std::error_code ec;
    if (fs::equivalent(output, fe.sources.file(i).path(), ec)) {
      std::fprintf(stderr,
                   "cairn: error: the executable '%s' would overwrite the source file '%s'; "
                   "give -o another path\n",
                   output.c_str(), fe.sources.file(i).path().c_str());
      return 1;
    }
    if (!options.emit_llvm.empty() &&
        fs::equivalent(options.emit_llvm, fe.sources.file(i).path(), ec)) {
      std::fprintf(stderr,
                   "cairn: error: the LLVM IR '%s' would overwrite the source file '%s'; give "
                   "--emit-llvm another path\n",
                   options.emit_llvm.c_str(), fe.sources.file(i).path().c_str());
      return 1;
    }
  }
  if (!options.emit_llvm.empty()) {
    std::error_code ec;
    const fs::path ir = fs::absolute(options.emit_llvm, ec).lexically_normal();
    const fs::path exe = fs::absolute(output, ec).lexically_normal();
    if (ir == exe || fs::equivalent(options.emit_llvm, output, ec)) {
      std::fprintf(stderr,
                   "cairn: error: --emit-llvm and -o name one file, '%s': the executable would "
                   "replace the LLVM IR; give them different paths\n",
                   output.c_str());
      return 1;
    }
  }

  std::string rt = runtimeDir(options.runtime_dir);
  if (!hasRuntime(rt)) {
    std::fprintf(stderr,
                 "cairn: the runtime libraries are not in '%s'; build them (make build) or "
                 "name their folder with --runtime-dir DIR\n",
                 rt.c_str());
    return 2;
  }
  std::string lld_error;
  std::string lld_dir = lldFor(options.linker, &lld_error);
  if (!lld_error.empty()) {
    std::fprintf(stderr, "cairn: %s\n", lld_error.c_str());
    return 2;
  }
  front::LowerOptions lo;
  lo.debug_info = options.debug_info;
  lo.optimized = options.opt_level > 0;
  front::EmitOptions eo;
  eo.opt_level = options.opt_level;
  const char *verify_env = std::getenv("CAIRN_VERIFY_IR");
  eo.verify = options.opt_level > 0 || options.verify_ir ||
              (verify_env != nullptr && std::string(verify_env) == "1");
  eo.ir_path = options.emit_llvm;
  eo.threads = options.threads;
  if (options.time_phases) eo.times = &clock.times;
  // A testing knob: split modules from this size on (0: every module), in at least two threads,
  // to run programs built in parts whatever their size (tests/lang: lang_split.*).
  if (const char *at = std::getenv("CAIRN_CODEGEN_SPLIT_AT"); at && *at) {
    eo.split_instructions = std::strtoull(at, nullptr, 10);
    if (eo.threads == 0) eo.threads = std::max(2u, std::thread::hardware_concurrency());
  }
  // The context and the module are never destroyed: tearing them down (every instruction,
  // constant and metadata node) took as long as a tenth of a -O0 build, and the process ends
  // (or, for `cairn run`, becomes the program) right after the link.
  auto lower = [&](bool names, unsigned twins, unsigned twin) {
    auto *ctx = new llvm::LLVMContext;
    // Names of instructions and arguments only make --emit-llvm's output readable; without
    // them lowering and code generation skip a symbol table entry per value.
    ctx->setDiscardValueNames(!names);
    front::LowerOptions twin_lo = lo;
    twin_lo.twins = twins;
    twin_lo.twin = twin;
    return front::lowerProgram(*fe.program, fe.sources, *ctx, twin_lo).release();
  };
  std::string error;
  std::vector<std::string> objects;
  bool generated;
  if (buildsAsTwins(options, eo, *fe.program)) {
    // E1: the other half of the functions, lowered and generated in a thread (and context) of
    // its own while this one lowers and generates the first; no module passes between them.
    struct Half {
      std::vector<std::string> objects;
      std::string error;
      bool ok = false;
      uint64_t shape = 0;
    } other;
    uint64_t shape = 0;
    eo.twins = 2;
    eo.shape = &shape;
    front::EmitOptions half = eo;
    half.twin = 1;
    half.times = options.time_phases ? &clock.other : nullptr;
    half.shape = &other.shape;
    std::thread worker([&lower, &half, &other, &output] {
      auto start = std::chrono::steady_clock::now();
      llvm::Module *module = lower(false, 2, 1);
      if (half.times)
        half.times->emplace_back(
            "lower to IR",
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      other.ok = front::emitObjects(*module, half, output + ".o", &other.objects, &other.error);
    });
    llvm::Module *module = lower(false, 2, 0);
    clock.lap("lower to IR");
    generated = front::emitObjects(*module, eo, output + ".o", &objects, &error);
    clock.restart();  // emitObjects recorded its phases
    worker.join();
    clock.lap("wait for the other half");
    // A testing knob: the digests disagree, as twins that differ would (tests/cli).
    if (const char *differ = std::getenv("CAIRN_TEST_TWINS_DIFFER"); differ && *differ == '1')
      other.shape ^= 1;
    objects.insert(objects.end(), other.objects.begin(), other.objects.end());
    if (generated && !other.ok) {
      generated = false;
      error = other.error;
    }
    if (generated && shape != other.shape) {
      // Never expected: the two lowerings of one program differed. Built again in one piece.
      std::fprintf(stderr,
                   "cairn: internal error: the two halves of a parallel build differ (please "
                   "report it); building in one thread instead\n");
      for (const std::string &object : objects) {
        std::error_code ec;
        fs::remove(object, ec);
      }
      front::EmitOptions whole = eo;
      whole.twins = 1;
      whole.threads = 1;
      whole.shape = nullptr;
      whole.times = nullptr;
      generated = front::emitObjects(*lower(false, 1, 0), whole, output + ".o", &objects, &error);
    }
  } else {
    llvm::Module *module = lower(!options.emit_llvm.empty(), 1, 0);
    clock.lap("lower to IR");
    generated = front::emitObjects(*module, eo, output + ".o", &objects, &error);
  }
  if (!generated) {
    for (const std::string &object : objects) {
      std::error_code ec;
      fs::remove(object, ec);
    }
    std::fprintf(stderr, "cairn: %s\n", error.c_str());
    return 2;
  }
  clock.restart();
  std::vector<std::string> inputs = objects;
  std::string libs = linkLibraryDir(rt);
  for (const char *lib : kRuntimeLibs) inputs.push_back((fs::path(libs) / lib).string());
  for (const std::string &l : splitList(CAIRN_LINK_LIBS)) inputs.push_back(l);
  inputs.insert(inputs.end(), {"-lpthread", "-ldl", "-lm"});
  int status = 0;
  const bool in_process = !lld_dir.empty() && CanLinkInProcess();
  bool used_stubs = false;
  ExternReport externs = ExternReport::kNone;
  if (in_process) {
    // lld in this process, with the arguments the compiler's driver would give ld.lld.
    std::string messages;
    const std::map<std::string, std::string> stubs = FindLinkStubs(libs);
    bool linked = !stubs.empty() && LinkInProcess(inputs, output, &messages, stubs);
    used_stubs = linked;
    if (!linked) {
      messages.clear();
      linked = LinkInProcess(inputs, output, &messages);  // S2 of link_stubs.h
    }
    if (!linked) {
      externs = ReportUndefinedExterns(fe, messages, options.color);
      if (externs == ExternReport::kNone) std::fputs(messages.c_str(), stderr);
      status = 1;
      // No stale executable from an earlier build where this one failed (lld leaves the old
      // file; the system linker removes it). Only a file: never what else could be there.
      std::error_code ec;
      if (fs::is_regular_file(output, ec)) fs::remove(output, ec);
    }
  } else {
    std::vector<std::string> link{CAIRN_LINKER};
    if (!lld_dir.empty()) {
      // The C++ compiler driver finds `ld.lld` through its program search path (-B).
      link.push_back("-B" + lld_dir + "/");
      link.push_back("-fuse-ld=lld");
    }
    link.insert(link.end(), {"-o", output});
    link.insert(link.end(), inputs.begin(), inputs.end());
    status = runCommand(link);
  }
  for (const std::string &object : objects) {
    std::error_code ec;
    fs::remove(object, ec);
  }
  clock.lap(!in_process ? "link" : used_stubs ? "link (in process, stubs)" : "link (in process)");
  if (options.time_phases) clock.print();
  if (status != 0) {
    // Named by the program, not the output: `cairn run` links into a temporary file in its cache.
    // Undefined extern functions alone are the program's errors, said as such above.
    if (externs != ExternReport::kAll)
      std::fprintf(stderr, "cairn: linking %s failed (the linker said why, above)\n",
                   options.main_file.c_str());
    return 2;
  }
  return 0;
}

}  // namespace cairn::driver
