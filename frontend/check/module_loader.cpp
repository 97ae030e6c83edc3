// Loading the modules of a program (module_loader.h).
#include "check/module_loader.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "syntax/parser.h"

namespace cairn::front {
namespace {

namespace fs = std::filesystem;

class Loader {
 public:
  Loader(const LoadOptions &options, SourceManager &sources, Diagnostics &diags, LoadedProgram &out)
      : options_(options), sources_(sources), diags_(diags), out_(out) {
    if (options.loaded != nullptr)
      for (const auto &[path, m] : *options.loaded) {
        by_path_[path] = m;
        state_[m] = 2;  // done: never visited again, never in out_.order
      }
  }

  // `imported`: `name` is an import's dotted path (else the main file's stem: S2).
  ModuleInfo *load(const std::string &name, const std::string &path, bool imported,
                   std::string *error) {
    SourceFile *file = sources_.load(path, error);
    if (file == nullptr) return nullptr;
    auto m = std::make_unique<ModuleInfo>();
    m->name = name;
    m->symbol = symbolQualifier(name, imported);
    m->path = path;
    m->is_std = inStdlib(path);
    m->syntax = parseModule(*file, diags_);
    ModuleInfo *raw = m.get();
    out_.owned.push_back(std::move(m));
    by_path_[canonical(path)] = raw;
    return raw;
  }

  // Depth-first: imports first, then the module (post-order gives initialization order).
  void visit(ModuleInfo *m) {
    state_[m] = 1;
    stack_.push_back(m);
    visitImports(m);
    stack_.pop_back();
    state_[m] = 2;
    out_.order.push_back(m);
  }

  // Loads and visits what m imports (m itself is not put in the order).
  void visitImports(ModuleInfo *m) {
    for (const ast::DeclPtr &d : m->syntax->decls) {
      if (d->kind != ast::DeclKind::Import) continue;
      const auto *imp = d->as<ast::ImportDecl>();
      std::string dotted;
      for (const ast::Ident &part : imp->path) dotted += (dotted.empty() ? "" : ".") + part.name;
      if (dotted.empty()) continue;
      std::string looked;
      std::string path = find(*imp, &looked);
      if (path.empty()) {
        Diagnostic &d = diags_.report(DiagId::ModuleNotFound, imp->span, {dotted, looked});
        if (imp->path.size() > 1 && imp->path.back().name == "cairn") {
          // `import a.cairn`: the file's name, not the module's.
          const std::string name = dotted.substr(0, dotted.size() - 6);
          d.withHint("a module is named without the file's extension: `import " + name + "`");
        } else if (!isStdImport(*imp)) {
          d.withHint("put it under the program's folder, or name its root with --path DIR");
        } else {
          std::vector<std::string> modules = stdlibModules();
          const std::string near = nearestName(imp->path.back().name, modules);
          std::sort(modules.begin(), modules.end());
          std::string list;
          for (const std::string &name : modules) list += (list.empty() ? "std." : ", std.") + name;
          d.withHint(!near.empty() ? "did you mean 'std." + near + "'?"
                     : list.empty()
                         ? "the standard library has no such module"
                         : "the standard library has no such module; its modules are " + list);
        }
        continue;
      }
      ModuleInfo *target = nullptr;
      auto it = by_path_.find(canonical(path));
      if (it != by_path_.end()) {
        target = it->second;
      } else {
        std::string error;
        target = load(dotted, path, true, &error);
        if (target == nullptr) {
          diags_.report(DiagId::CannotReadFile, imp->span, {path, error});
          continue;
        }
      }
      if (state_[target] == 1) {
        std::string cycle;
        bool on = false;
        for (ModuleInfo *s : stack_) {
          if (s == target) on = true;
          if (on) cycle += s->name + " -> ";
        }
        cycle += target->name;
        diags_.report(DiagId::ImportCycle, imp->span, {cycle})
            .withHint("move what both modules need into a third module that both import");
        continue;
      }
      bool dup = false;
      for (ModuleInfo *already : m->imports) dup |= already == target;
      if (dup) continue;
      m->imports.push_back(target);
      m->import_spans.push_back(imp->span);
      if (state_[target] == 0) visit(target);
    }
  }

  std::string find(const ast::ImportDecl &imp, std::string *looked) {
    std::vector<std::string> parts;
    for (const ast::Ident &p : imp.path) parts.push_back(p.name);
    std::vector<std::pair<std::string, std::vector<std::string>>> candidates;
    if (parts.size() >= 2 && parts[0] == "std") {
      candidates.push_back({options_.stdlib_dir, {parts.begin() + 1, parts.end()}});
    } else {
      for (const std::string &root : roots_) candidates.push_back({root, parts});
    }
    for (auto &[root, rel] : candidates) {
      // Under the current directory a path is written without "./", as the main file's is
      // when it was named so (errors say util/b.cairn:3:19, not ./util/b.cairn:3:19).
      fs::path p = root.empty() || root == "." ? fs::path() : fs::path(root);
      for (size_t i = 0; i < rel.size(); ++i)
        p /= (i + 1 == rel.size() ? rel[i] + ".cairn" : rel[i]);
      if (!looked->empty()) *looked += ", ";
      *looked += p.string();
      std::error_code ec;
      if (fs::is_regular_file(p, ec)) return p.string();
      if (fs::is_directory(p, ec)) *looked += " (a folder, not a file)";
    }
    return "";
  }

  // The names of the standard library's modules (its folder's .cairn files), for hints.
  std::vector<std::string> stdlibModules() const {
    std::vector<std::string> names;
    std::error_code ec;
    if (options_.stdlib_dir.empty()) return names;
    for (const auto &entry : fs::directory_iterator(options_.stdlib_dir, ec)) {
      if (entry.path().extension() == ".cairn") names.push_back(entry.path().stem().string());
    }
    return names;
  }

  // Whether the file at `path` is in the standard library's folder (or below it).
  bool inStdlib(const std::string &path) const {
    if (options_.stdlib_dir.empty()) return false;
    const fs::path dir = canonical(options_.stdlib_dir);
    const fs::path file = canonical(path);
    auto d = dir.begin();
    auto f = file.begin();
    for (; d != dir.end(); ++d, ++f) {
      if (f == file.end() || *d != *f) return false;
    }
    return true;
  }

  static bool isStdImport(const ast::ImportDecl &imp) {
    return imp.path.size() >= 2 && imp.path[0].name == "std";
  }

  static std::string canonical(const std::string &path) { return canonicalModulePath(path); }

  std::vector<std::string> roots_;

 private:
  const LoadOptions &options_;
  SourceManager &sources_;
  Diagnostics &diags_;
  LoadedProgram &out_;
  std::map<std::string, ModuleInfo *> by_path_;
  std::map<ModuleInfo *, int> state_;
  std::vector<ModuleInfo *> stack_;
};

}  // namespace

std::string canonicalModulePath(const std::string &path) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(fs::path(path), ec);
  return ec ? path : c.string();
}

void loadImports(ModuleInfo *importer, const std::string &root, const LoadOptions &options,
                 SourceManager &sources, Diagnostics &diags, LoadedProgram &out) {
  Loader loader(options, sources, diags, out);
  loader.roots_.push_back(root.empty() ? "." : root);
  for (const std::string &p : options.search_paths) loader.roots_.push_back(p);
  loader.visitImports(importer);
}

bool loadProgram(const std::string &main_path, const LoadOptions &options, SourceManager &sources,
                 Diagnostics &diags, LoadedProgram &out) {
  Loader loader(options, sources, diags, out);
  fs::path mp(main_path);
  loader.roots_.push_back(mp.has_parent_path() ? mp.parent_path().string() : ".");
  for (const std::string &p : options.search_paths) loader.roots_.push_back(p);
  // The main module's name is its file's stem (`prog` for prog.cairn).
  std::string error;
  ModuleInfo *main = loader.load(mp.stem().string(), main_path, false, &error);
  std::error_code ec;
  if (main == nullptr && fs::is_directory(mp, ec))
    error = "it is a folder (name the program's .cairn file)";  // as `cairn build` says
  if (main == nullptr) {
    diags.report(DiagId::CannotReadFile, Span{}, {main_path, error});
    return false;
  }
  out.main = main;
  loader.visit(main);
  return true;
}

}  // namespace cairn::front
