// The REPL's session over the checker (session.h).
#include "check/session.h"

#include <cctype>
#include <set>

#include "check/checker_impl.h"
#include "check/init_order.h"
#include "check/module_loader.h"

namespace cairn::front {

// What check() may change, as it was before (E2).
struct SessionChecker::Snapshot {
  std::map<std::string, Symbol> symbols;
  std::map<std::string, GlobalInfo *> session_globals;
  std::map<std::string, const ast::ClassDecl *> class_decl_by_name;
  std::set<std::string> own_names;
  size_t globals = 0;
  size_t literal_funcs = 0;
  size_t array_types = 0;
  size_t modules = 0;
  size_t session_imports = 0;
  std::map<std::string, ModuleInfo *> loaded;
};

SessionChecker::SessionChecker(SourceManager &sources, Diagnostics &diags, TypeContext &types,
                               SessionOptions options)
    : sources_(sources), diags_(diags), options_(std::move(options)) {
  session_owned_ = std::make_unique<ModuleInfo>();
  session_ = session_owned_.get();
  session_->name = "repl";
  // The session's symbols (and the REPL's own, below) hold a '/', which no module's symbol
  // has (types.h, S2): a module named repl, or a declaration named input, is apart from them.
  session_->symbol = "repl/session";
  session_->path = "<repl>";
  session_->syntax = std::make_unique<ast::Module>();
  checker_ = std::make_unique<Checker>(std::vector<ModuleInfo *>{}, session_, diags, types);
  checker_->setStdlibDir(options_.stdlib_dir);
  checker_->symbols_[session_];
}

SessionChecker::~SessionChecker() = default;

TypeContext &SessionChecker::types() { return checker_->types(); }

std::vector<std::string> SessionChecker::names() const { return checker_->moduleNames(session_); }

const GlobalInfo *SessionChecker::findGlobal(const std::string &name) const {
  auto &table = checker_->symbols_[session_];
  auto it = table.find(name);
  return it != table.end() && it->second.kind == Symbol::Kind::Global ? it->second.global : nullptr;
}

ClassInfo *SessionChecker::findClass(const std::string &name) const {
  auto &table = checker_->symbols_[session_];
  auto it = table.find(name);
  if (it == table.end() || it->second.kind != Symbol::Kind::Class ||
      !it->second.cls->type_params.empty())
    return nullptr;
  auto c = checker_->class_instances_.find({it->second.cls, {}});
  return c == checker_->class_instances_.end() ? nullptr : c->second.get();
}

const FuncInfo *SessionChecker::findFunction(const std::string &name) const {
  auto &table = checker_->symbols_[session_];
  auto it = table.find(name);
  if (it == table.end() || it->second.kind != Symbol::Kind::Func ||
      !it->second.fn->type_params.empty())
    return nullptr;
  auto f = checker_->fn_instances_.find({it->second.fn, {}});
  return f == checker_->fn_instances_.end() ? nullptr : f->second.get();
}

namespace {

// A generic function's signature as written (its type parameters, parameter and result types,
// without blanks): two declarations with the same one make the same instances' signatures.
std::string signatureText(const SourceManager &sources, const ast::FnDecl *f) {
  auto text = [&](const ast::TypeExpr *t) {
    std::string out;
    if (t == nullptr || !t->span.valid()) return out;
    std::string_view all = sources.file(t->span.file).text();
    for (char c : all.substr(t->span.begin, t->span.end - t->span.begin))
      if (!std::isspace(static_cast<unsigned char>(c))) out += c;
    return out;
  };
  std::string sig = "[";
  for (const ast::Ident &p : f->type_params) sig += p.name + ",";
  sig += "](";
  for (const ast::Param &p : f->params) sig += text(p.type.get()) + ",";
  return sig + ")->" + text(f->ret.get());
}

// The note of an instance made again of a generic declared again.
std::string remadeNote(const std::string &instance) {
  return instance + " was made of this definition, which the new one replaces: each instance " +
         "the session has is made again of the new one, which must hold for it";
}

}  // namespace

bool SessionChecker::hasGenericClass(const std::string &name) const {
  auto &table = checker_->symbols_[session_];
  auto it = table.find(name);
  return it != table.end() && it->second.kind == Symbol::Kind::Class &&
         !it->second.cls->type_params.empty();
}

std::string SessionChecker::genericClassModule(const std::string &name) const {
  for (const auto &[module, table] : checker_->symbols_) {
    auto it = table.find(name);
    if (it != table.end() && it->second.kind == Symbol::Kind::Class && it->second.cls &&
        !it->second.cls->type_params.empty() && it->second.module != nullptr)
      return it->second.module->name;
  }
  return "";
}

bool SessionChecker::hasFunction(const std::string &name) const {
  auto &table = checker_->symbols_[session_];
  auto it = table.find(name);
  return it != table.end() && it->second.kind == Symbol::Kind::Func;
}

std::vector<ClassInfo *> SessionChecker::classesNamed(const std::string &heap_name) const {
  std::vector<ClassInfo *> out;
  for (const auto &[key, c] : checker_->class_instances_)
    if (c->name == heap_name && c->resolved) out.push_back(c.get());
  return out;
}

std::unique_ptr<InputUnit> SessionChecker::check(std::unique_ptr<ast::Input> input,
                                                 const std::string &import_root) {
  Checker &ck = *checker_;
  auto unit = std::make_unique<InputUnit>();
  unit->number = ++inputs_;
  // Kept even if it has errors: maps of the checker may hold its nodes' addresses (E3).
  ast::Input *raw_input = input.get();
  inputs_kept_.push_back(std::move(input));
  ast::Input &in = *raw_input;

  auto snap = std::make_unique<Snapshot>();
  snap->symbols = ck.symbols_[session_];
  snap->session_globals = session_->globals;
  snap->class_decl_by_name = ck.class_decl_by_name_;
  snap->own_names = own_names_;
  snap->globals = ck.globals_.size();
  snap->literal_funcs = ck.literal_funcs_.size();
  snap->array_types = ck.array_types_seen_.size();
  snap->modules = ck.modules_.size();
  snap->session_imports = session_->imports.size();
  snap->loaded = loaded_;

  ck.symbol_suffix_ = "@" + std::to_string(unit->number);
  ck.log_instances_ = true;
  ck.made_classes_.clear();
  ck.made_functions_.clear();
  ck.program_ = std::make_unique<sem::Program>();
  const size_t errors_before = diags_.errorCount();

  // 1. Imports: library modules, checked as in a program, their names brought in.
  auto importer = std::make_unique<ModuleInfo>();
  importer->name = "repl";
  importer->symbol = "repl/session";
  importer->syntax = std::make_unique<ast::Module>();
  for (ast::InputItem &item : in.items)
    if (item.decl && item.decl->kind == ast::DeclKind::Import)
      importer->syntax->decls.push_back(std::move(item.decl));
  if (!importer->syntax->decls.empty()) {
    LoadOptions lo;
    lo.search_paths = options_.search_paths;
    lo.stdlib_dir = options_.stdlib_dir;
    lo.loaded = &loaded_;
    LoadedProgram loaded;
    loadImports(importer.get(), import_root, lo, sources_, diags_, loaded);
    for (auto &m : loaded.owned) {
      loaded_[canonicalModulePath(m->path)] = m.get();
      modules_kept_.push_back(std::move(m));
    }
    for (ModuleInfo *m : loaded.order) {
      ck.modules_.push_back(m);
      unit->modules.push_back(m);
    }
    ck.collectDeclarations(loaded.order);
    // The imported modules' own names join the session's scope; its own names win.
    auto &table = ck.symbols_[session_];
    std::map<std::string, std::pair<std::vector<const ModuleInfo *>, Span>> clashes;
    for (size_t i = 0; i < importer->imports.size(); ++i) {
      ModuleInfo *im = importer->imports[i];
      bool already = false;
      for (ModuleInfo *m : session_->imports) already |= m == im;
      if (!already) session_->imports.push_back(im);
      for (const auto &[name, sym] : ck.symbols_[im]) {
        if (sym.module != im || own_names_.count(name)) continue;
        auto clash = session_->underscore_clashes.find(name);
        if (clash != session_->underscore_clashes.end()) {
          bool listed = false;
          for (const ModuleInfo *c : clash->second) listed |= c == im;
          if (!listed) clash->second.push_back(im);
          continue;
        }
        auto it = table.find(name);
        if (it != table.end() && it->second.module != im && !name.empty() && name[0] == '_') {
          // As in a program (ModuleInfo): two imports' `_name` clash where it is used.
          session_->underscore_clashes[name] = {it->second.module, im};
          table.erase(it);
          continue;
        }
        if (it != table.end() && it->second.module != im) {
          // One error per name, naming every module of this input's imports that declares it.
          auto [c, added] = clashes.try_emplace(name);
          if (added) c->second = {{it->second.module}, importer->import_spans[i]};
          c->second.first.push_back(im);
          continue;
        }
        table[name] = sym;
      }
    }
    for (const auto &[name, clash] : clashes) ck.reportImportClash(name, clash.first, clash.second);
    ck.instantiateDeclared(loaded.order);
  }
  modules_kept_.push_back(std::move(importer));

  // 2. The input's declarations, in the session's scope; a name declared before is replaced.
  auto &table = ck.symbols_[session_];
  std::set<std::string> declared_now;
  std::vector<std::pair<std::string, Symbol>> previous;  // for `replaced`
  for (ast::InputItem &item : in.items) {
    if (!item.decl || item.decl->kind == ast::DeclKind::Import) continue;
    const ast::Decl *d = item.decl.get();
    ck.decl_module_[d] = session_;
    Symbol s;
    s.module = session_;
    std::string name;
    Span name_span;
    std::string what;
    if (d->kind == ast::DeclKind::Class) {
      const auto *c = d->as<ast::ClassDecl>();
      for (const auto &meth : c->methods) {
        ck.decl_module_[meth.get()] = session_;
        // At the declaration, as a program's (the input is refused, so no instance is made).
        if (!meth->type_params.empty()) ck.reportGenericMethod(*meth);
      }
      s.kind = Symbol::Kind::Class;
      s.cls = c;
      name = c->name.name;
      name_span = c->name.span;
      what = "class ";
    } else if (d->kind == ast::DeclKind::Fn) {
      const auto *f = d->as<ast::FnDecl>();
      s.kind = Symbol::Kind::Func;
      s.fn = f;
      name = f->name.name;
      name_span = f->name.span;
      what = f->is_extern ? "extern fn " : "fn ";
    } else {
      const auto *g = d->as<ast::GlobalDecl>();
      name = g->name.name;
      name_span = g->name.span;
      what = g->is_var ? "var " : "let ";
    }
    if (name.empty()) continue;
    if (s.kind == Symbol::Kind::Class) {
      // A class with an imported module's class's name (a standard library class's too; K4):
      // that one is named with its module from now on, unless the session has made an
      // instance of it already (two heap types of one name in one process).
      auto lib = ck.class_decl_by_name_.find(Checker::classKey(s.cls));
      if (lib != ck.class_decl_by_name_.end() && lib->second != s.cls) {
        ModuleInfo *lm = ck.decl_module_[lib->second];
        if (lm != nullptr && lm != session_) {
          if (ck.hasInstances(lib->second)) {
            ck.error(DiagId::ClassNameClash, name_span, {name, lm->name, session_->name})
                .withHint("this session uses " + lm->name + "'s '" + name +
                          "' already (an import made it): give the class another name, or "
                          "declare it before the import");
            continue;
          }
          ck.qualified_classes_.insert(lib->second);
        }
      }
    }
    if (!declared_now.insert(name).second) {
      ck.error(DiagId::DuplicateInInput, name_span, {name});
      continue;
    }
    if (d->kind == ast::DeclKind::Global) {
      const auto *g = d->as<ast::GlobalDecl>();
      auto info = std::make_unique<GlobalInfo>();
      info->name = name;
      info->symbol = session_->symbol + "." + name + ck.symbol_suffix_;
      info->module = session_;
      info->decl = g;
      info->is_var = g->is_var;
      info->span = name_span;
      s.kind = Symbol::Kind::Global;
      s.global = info.get();
      session_->globals[name] = info.get();
      ck.globals_.push_back(std::move(info));
    }
    auto old = table.find(name);
    if (old != table.end()) previous.push_back(*old);
    if (d->kind == ast::DeclKind::Class) ck.class_decl_by_name_[Checker::classKey(s.cls)] = s.cls;
    table[name] = s;
    own_names_.insert(name);
    unit->declared.push_back(what + name);
  }
  // Every non-generic class and function declared now is checked, used or not.
  for (ast::InputItem &item : in.items) {
    if (!item.decl) continue;
    if (item.decl->kind == ast::DeclKind::Class) {
      const auto *c = item.decl->as<ast::ClassDecl>();
      if (c->type_params.empty() && table[c->name.name].cls == c)
        ck.instantiateClass(c, session_, {}, c->name.span);
    } else if (item.decl->kind == ast::DeclKind::Fn) {
      const auto *f = item.decl->as<ast::FnDecl>();
      if (f->type_params.empty() && table[f->name.name].fn == f)
        ck.instantiateFunction(f, session_, {}, f->name.span);
    }
  }
  // A generic class or function declared again: each instance the session made of the one it
  // replaces is made again of the new one, with the same type arguments, so that code compiled
  // before reaches the new bodies (through the stubs of its methods, or of the instance: the
  // REPL's call symbols); one that no longer checks refuses the input, as its first use would.
  auto remake = [&](const auto &instances, const auto *old_decl, auto &sites, auto make) {
    std::vector<std::vector<const Type *>> made;
    for (const auto &[key, info] : instances)
      if (key.first == old_decl) made.push_back(key.second);
    for (const auto &args : made) {
      auto site = sites.find(make(args));
      if (site != sites.end())
        site->second.via.emplace_back(old_decl->name.span, remadeNote(site->second.name));
    }
  };
  for (const auto &[name, old] : previous) {
    const Symbol &now = table[name];
    if (old.kind == Symbol::Kind::Class && now.kind == Symbol::Kind::Class &&
        !old.cls->type_params.empty() &&
        old.cls->type_params.size() == now.cls->type_params.size()) {
      remake(ck.class_instances_, old.cls, ck.class_site_, [&](const auto &args) {
        return ck.instantiateClass(now.cls, session_, args, now.cls->name.span);
      });
    } else if (old.kind == Symbol::Kind::Func && now.kind == Symbol::Kind::Func &&
               !old.fn->type_params.empty() &&
               signatureText(sources_, old.fn) == signatureText(sources_, now.fn)) {
      // (With another signature it is another function: code compiled before keeps the old.)
      remake(ck.fn_instances_, old.fn, ck.inst_site_, [&](const auto &args) {
        return ck.instantiateFunction(now.fn, session_, args, now.fn->name.span);
      });
    }
  }
  for (const ast::TypeExprPtr &t : in.types_used) ck.resolveType(t.get(), session_, nullptr);
  while (!ck.class_work_.empty()) {
    ClassInfo *c = ck.class_work_.front();
    ck.class_work_.pop_front();
    ck.resolveClass(c);
  }
  ck.checkGlobals(unit->modules);

  // 3. The run function: library initializers, then the input's variables and statements in
  //    the order typed.
  auto run_info = std::make_unique<FuncInfo>();
  run_info->name = "input " + std::to_string(unit->number);
  run_info->symbol = "repl/input" + ck.symbol_suffix_;
  run_info->module = session_;
  run_info->ret = ck.types().voidType();
  run_info->fnType = ck.types().fnType({}, run_info->ret);
  run_info->checked = true;
  run_info->prompt = true;
  auto run = std::make_unique<sem::Function>();
  run->info = run_info.get();
  run->body = std::make_unique<sem::Block>();
  FnCtx cx;
  cx.fn = run.get();
  cx.info = run_info.get();
  cx.module = session_;
  cx.scopes.emplace_back();
  FnCtx *saved = ck.current_;
  ck.current_ = &cx;
  auto assignGlobal = [&](GlobalInfo *g, sem::ExprPtr value, Span span) {
    auto target = std::make_unique<sem::Global>();
    target->global = g;
    target->type = g->type;
    target->span = span;
    auto a = std::make_unique<sem::Assign>();
    a->span = span;
    a->target = std::move(target);
    a->value = std::move(value);
    run->body->stmts.push_back(std::move(a));
  };
  std::set<const GlobalInfo *> fresh;  // the variables this input sets first (checkInputOrder)
  std::set<const GlobalInfo *> same_storage;  // redeclared with the type they had: not defined
  for (sem::GlobalInit &gi : ck.program_->global_inits) {
    fresh.insert(gi.global);
    if (gi.init) assignGlobal(gi.global, std::move(gi.init), gi.global->span);
  }
  ck.program_->global_inits.clear();
  const bool one_expression =
      in.items.size() == 1 && in.items[0].stmt && in.items[0].stmt->kind == ast::StmtKind::Expr;
  for (ast::InputItem &item : in.items) {
    if (item.decl && item.decl->kind == ast::DeclKind::Global) {
      const auto *g = item.decl->as<ast::GlobalDecl>();
      Symbol s = table[g->name.name];
      if (s.kind != Symbol::Kind::Global || s.global->decl != g) continue;
      GlobalInfo *info = s.global;
      const Type *declared = g->type ? ck.resolveType(g->type.get(), session_, nullptr) : nullptr;
      sem::ExprPtr init;
      if (g->init) {
        // Its function literals' bodies are checked once the input's variables have their
        // types (below), as a program's are (checkGlobals).
        cx.initializing = info;
        ck.defer_literals_ = true;
        init = ck.checkValue(cx, *g->init, declared);
        ck.defer_literals_ = false;
        cx.initializing = nullptr;
        if (declared) init = ck.coerce(cx, std::move(init), declared, g->init->span);
      }
      const Type *t = declared ? declared : (init ? init->type : ck.types().error());
      if (!declared && t->kind == TypeKind::Nil) {
        ck.error(DiagId::CannotInferNil, g->name.span)
            .withHint("give the variable a type, as in 'var x: Node = nil'");
        t = ck.types().error();
      }
      if (!g->init) ck.requireValue(g->name.name, g->name.span, t);
      info->type = t;
      // Declared again with the same type: the same storage, so that functions compiled
      // before read and write the new one (docs/repl.md); with another type it is new, as is
      // a `let` for a `var` (functions that assign the var would change the let).
      for (const auto &[pname, psym] : previous)
        if (pname == info->name && psym.kind == Symbol::Kind::Global && psym.global->type == t &&
            !t->isError() && !(psym.global->is_var && !info->is_var)) {
          info->symbol = psym.global->symbol;
          same_storage.insert(info);
        }
      fresh.insert(info);
      if (init) assignGlobal(info, std::move(init), g->name.span);
      continue;
    }
    if (!item.stmt) continue;
    if (one_expression) {
      const ast::Expr &e = *item.stmt->as<ast::ExprStmt>()->expr;
      sem::ExprPtr v = ck.checkExpr(cx, e);
      if (v->type->kind == TypeKind::Void || v->type->isError()) {
        auto st = std::make_unique<sem::ExprStmt>();
        st->span = item.stmt->span;
        st->expr = std::move(v);
        run->body->stmts.push_back(std::move(st));
        continue;
      }
      auto info = std::make_unique<GlobalInfo>();
      info->name = "value";
      info->symbol = "repl/value" + ck.symbol_suffix_;
      info->module = session_;
      info->type = v->type->kind == TypeKind::Nil ? ck.types().anyType() : v->type;
      info->span = e.span;
      info->is_var = true;
      unit->value = info.get();
      if (v->type->kind == TypeKind::Nil) v->type = info->type;
      assignGlobal(info.get(), std::move(v), e.span);
      ck.globals_.push_back(std::move(info));
      continue;
    }
    if (sem::StmtPtr st = ck.checkStmt(cx, *item.stmt)) run->body->stmts.push_back(std::move(st));
  }
  ck.checkDeferredLiterals();
  ck.current_ = saved;

  // 4. Every body queued by the above; then the order of what runs (init_order.h).
  ck.drainWork();
  if (diags_.errorCount() == errors_before)
    checkInputOrder(*ck.program_, *run->body, fresh, diags_);

  if (diags_.errorCount() != errors_before) {
    pending_ = std::move(snap);
    reject();
    return nullptr;
  }

  // 5. What the input made.
  for (auto &[name, old] : previous) {
    Symbol now = table[name];
    Replaced r;
    r.name = name;
    if (old.kind == Symbol::Kind::Class && now.kind == Symbol::Kind::Class &&
        old.cls->type_params.empty() && now.cls->type_params.empty()) {
      auto o = ck.class_instances_.find({old.cls, {}});
      auto n = ck.class_instances_.find({now.cls, {}});
      if (o != ck.class_instances_.end() && n != ck.class_instances_.end()) {
        r.old_class = o->second.get();
        r.new_class = n->second.get();
      }
    } else if (old.kind == Symbol::Kind::Func && now.kind == Symbol::Kind::Func &&
               old.fn->type_params.empty() && now.fn->type_params.empty()) {
      auto o = ck.fn_instances_.find({old.fn, {}});
      auto n = ck.fn_instances_.find({now.fn, {}});
      if (o != ck.fn_instances_.end() && n != ck.fn_instances_.end()) {
        r.old_fn = o->second.get();
        r.new_fn = n->second.get();
      }
    }
    unit->replaced.push_back(r);
  }
  unit->classes = ck.program_->classes;
  unit->array_types.assign(ck.array_types_seen_.begin() + static_cast<long>(snap->array_types),
                           ck.array_types_seen_.end());
  for (size_t i = snap->globals; i < ck.globals_.size(); ++i)
    if (!same_storage.count(ck.globals_[i].get())) unit->globals.push_back(ck.globals_[i].get());
  for (auto &fn : ck.program_->functions) {
    CheckedFunction cf;
    const FuncInfo *f = fn->info;
    if (f->owner != nullptr)
      cf.role = FunctionRole::Method;
    else if (f->decl != nullptr && f->module == session_ && f->literal == nullptr && !f->is_extern)
      cf.role = FunctionRole::Function;  // generic instances too (A1 of docs/repl.md's limits)
    else
      cf.role = FunctionRole::Fixed;
    cf.fn = std::move(fn);
    unit->functions.push_back(std::move(cf));
  }
  if (!run->body->stmts.empty()) {
    unit->run = run.get();
    CheckedFunction cf;
    cf.fn = std::move(run);
    cf.role = FunctionRole::Run;
    unit->functions.push_back(std::move(cf));
    run_infos_.push_back(std::move(run_info));
  }
  ck.program_ = std::make_unique<sem::Program>();
  pending_ = std::move(snap);
  return unit;
}

void SessionChecker::accept() {
  pending_.reset();
  checker_->log_instances_ = false;
}

void SessionChecker::reject() {
  if (pending_) restore(*pending_);
  pending_.reset();
  checker_->log_instances_ = false;
}

void SessionChecker::restore(Snapshot &snap) {
  Checker &ck = *checker_;
  for (const auto &key : ck.made_classes_) {
    auto it = ck.class_instances_.find(key);
    if (it == ck.class_instances_.end()) continue;
    graveyard_classes_.push_back(std::move(it->second));
    ck.class_instances_.erase(it);
  }
  for (const auto &key : ck.made_functions_) {
    auto it = ck.fn_instances_.find(key);
    if (it == ck.fn_instances_.end()) continue;
    graveyard_functions_.push_back(std::move(it->second));
    ck.fn_instances_.erase(it);
  }
  ck.made_classes_.clear();
  ck.made_functions_.clear();
  while (ck.literal_funcs_.size() > snap.literal_funcs) {
    graveyard_functions_.push_back(std::move(ck.literal_funcs_.back()));
    ck.literal_funcs_.pop_back();
  }
  while (ck.globals_.size() > snap.globals) {
    graveyard_globals_.push_back(std::move(ck.globals_.back()));
    ck.globals_.pop_back();
  }
  ck.array_types_seen_.resize(snap.array_types);
  for (size_t i = snap.modules; i < ck.modules_.size(); ++i) ck.symbols_.erase(ck.modules_[i]);
  ck.modules_.resize(snap.modules);
  ck.symbols_[session_] = snap.symbols;
  session_->globals = snap.session_globals;
  session_->imports.resize(snap.session_imports);
  ck.class_decl_by_name_ = snap.class_decl_by_name;
  own_names_ = snap.own_names;
  loaded_ = snap.loaded;
  ck.class_work_.clear();
  ck.fn_work_.clear();
  ck.program_ = std::make_unique<sem::Program>();
  ck.current_ = nullptr;
}

}  // namespace cairn::front
