// Finding, reading and parsing the modules of a program: the main file and, transitively,
// everything it imports, in initialization order.
//
// Source roots, searched in order for `import a.b` (file a/b.cairn): the main file's folder,
// then each --path folder. `import std.x` is <stdlib>/x.cairn (the standard library's folder).
// Import cycles are an error (modules are initialized in import order).
#ifndef CAIRN_FRONTEND_CHECK_MODULE_LOADER_H
#define CAIRN_FRONTEND_CHECK_MODULE_LOADER_H

#include <map>
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
  // Modules loaded before (by the REPL's session), by canonical path: an import of one of them
  // uses it, and it is not loaded again. nullptr: none.
  const std::map<std::string, ModuleInfo *> *loaded = nullptr;
};

// Loads and parses the program rooted at main_path. Returns false if the main file cannot be
// read (an error is reported); parse and import errors are reported and loading goes on.
bool loadProgram(const std::string &main_path, const LoadOptions &options, SourceManager &sources,
                 Diagnostics &diags, LoadedProgram &out);

// Loads what the import declarations of `importer` (a module already parsed, such as one input
// of the REPL) name, and transitively what those import, searching `root` and then the
// --path folders (std.x in the standard library). Fills importer->imports; out.order gets the
// modules loaded now, in initialization order (options.loaded are reused, not loaded again).
// Errors are reported.
void loadImports(ModuleInfo *importer, const std::string &root, const LoadOptions &options,
                 SourceManager &sources, Diagnostics &diags, LoadedProgram &out);

// The canonical form of a module's path (the key of LoadOptions::loaded).
std::string canonicalModulePath(const std::string &path);

}  // namespace cairn::front

#endif  // CAIRN_FRONTEND_CHECK_MODULE_LOADER_H
