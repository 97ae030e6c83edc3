// Finding, reading and parsing the modules of a program: the main file and, transitively,
// everything it imports, in initialization order.
//
// Source roots, searched in order for `import a.b` (file a/b.cairn): the main file's folder,
// then each --path folder. `import std.x` is <stdlib>/x.cairn (the standard library's folder).
// Import cycles are an error (modules are initialized in import order).
#ifndef CAIRN_FRONTEND_CHECK_MODULE_LOADER_H
#define CAIRN_FRONTEND_CHECK_MODULE_LOADER_H

#include <memory>
#include <string>
#include <vector>

#include "check/types.h"
#include "source/diagnostics.h"

namespace cairn::front {

struct LoadedProgram {
  std::vector<std::unique_ptr<ModuleInfo>> owned;
  std::vector<ModuleInfo *> order;  // every module after those it imports; main last
  ModuleInfo *main = nullptr;
};

struct LoadOptions {
  std::vector<std::string> search_paths;  // --path folders
  std::string stdlib_dir;                 // where `std.x` modules are
};

// Loads and parses the program rooted at main_path. Returns false if the main file cannot be
// read (an error is reported); parse and import errors are reported and loading goes on.
bool loadProgram(const std::string &main_path, const LoadOptions &options,
                 SourceManager &sources, Diagnostics &diags, LoadedProgram &out);

}  // namespace cairn::front

#endif  // CAIRN_FRONTEND_CHECK_MODULE_LOADER_H
