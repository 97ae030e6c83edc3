// The compiler's pipeline as the subcommands use it: load and parse the modules, check, lower,
// optimize and emit an object, link it with the runtime.
#ifndef CAIRN_FRONTEND_DRIVER_COMPILE_H
#define CAIRN_FRONTEND_DRIVER_COMPILE_H

#include <string>
#include <vector>

namespace cairn::driver {

struct CompileOptions {
  std::string main_file;
  std::vector<std::string> search_paths;  // --path DIR (repeatable)
  int opt_level = 2;                      // -O0 / -O2
  bool debug_info = true;
  std::string runtime_dir;  // --runtime-dir: the runtime libraries to link
  std::string linker;       // --linker: "lld", "system" or "" (lld when installed)
  unsigned threads = 0;     // -j N: code generation threads (0: the cores)
  std::string emit_llvm;    // --emit-llvm FILE
  bool color = false;       // diagnostics in colour
  bool require_main = true;
  bool time_phases = false;  // --time: print each phase's wall-clock time on stderr
  // --verify-ir (or $CAIRN_VERIFY_IR=1): run LLVM's verifier on the generated IR at -O0 too.
  // -O2 builds always verify (1% of their time); -O0 builds do not by default (a tenth of their
  // time), as clang's and rustc's release compilers do not. The test suites set it, so every
  // program they build is verified (tests/CMakeLists.txt, CAIRN_TEST_ENV).
  bool verify_ir = false;
};

// The folder holding the runtime's static libraries: --runtime-dir, else $CAIRN_RUNTIME_DIR,
// else the lib/ folder beside this executable's bin/, else the build tree's.
std::string runtimeDir(const std::string &flag);
// The folder whose archives a link reads: `dir`/link, the libraries' copies without debug
// sections (lib/link, made by the build), when all five are there and none is older than its
// library in `dir`; else `dir` itself.
std::string linkLibraryDir(const std::string &dir);
// The ld.lld a link uses for `--linker` value `choice` ("lld", "system" or "": lld when it is
// installed), or "" for the C++ compiler's default linker. Sets *error and returns "" when lld
// was asked for and is not installed.
std::string lldFor(const std::string &choice, std::string *error);
// The standard library's folder: $CAIRN_STDLIB, else share/cairn/stdlib beside this
// executable's bin/ (the installed layout, `cmake --install`), else the source tree's stdlib/
// (a cairn in the build tree, run from any directory).
std::string stdlibDir();

// Checks the program; prints diagnostics. Returns the number of errors (0: fine).
int checkOnly(const CompileOptions &options);

// Compiles and links an executable at `output`. Prints diagnostics and errors; returns 0 on
// success, 1 on a compile error, 2 on an internal or link failure.
int buildExecutable(const CompileOptions &options, const std::string &output);

// A hash of everything a build depends on (every source file loaded, the options, the
// compiler and runtime libraries): the key of `cairn run`'s cache. "" if the program cannot
// be loaded (diagnostics are printed then).
std::string buildKey(const CompileOptions &options);

}  // namespace cairn::driver

#endif  // CAIRN_FRONTEND_DRIVER_COMPILE_H
