// The checker's top level: module symbols, type expressions, classes and their instances,
// function signatures and instances, globals, and the work lists that check every body once.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "check/checker_impl.h"
#include "check/init_order.h"
#include "lexer/lookalikes.h"

namespace cairn::front {

std::string plural(size_t n, const char *word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

const char *cairnWordFor(const std::string &name, bool as_type) {
  struct Word {
    const char *other;
    const char *cairn;
  };
  static const Word kNames[] = {{"null", "nil"},    {"NULL", "nil"},  {"None", "nil"},
                                {"nullptr", "nil"}, {"this", "self"}, {"True", "true"},
                                {"False", "false"}, {"TRUE", "true"}, {"FALSE", "false"}};
  static const Word kTypes[] = {
      {"string", "text"},  {"String", "text"},   {"str", "text"},      {"double", "float"},
      {"Double", "float"}, {"float64", "float"}, {"f64", "float"},     {"real", "float"},
      {"boolean", "bool"}, {"Boolean", "bool"},  {"long", "int"},      {"Long", "int"},
      {"integer", "int"},  {"Integer", "int"},   {"int64", "int"},     {"i64", "int"},
      {"Object", "any"},   {"object", "any"},    {"i32", "int"},       {"int32", "int"},
      {"i16", "int"},      {"short", "int"},     {"u64", "int"},       {"u32", "int"},
      {"uint", "int"},     {"usize", "int"},     {"isize", "int"},     {"size_t", "int"},
      {"byte", "int"},     {"f32", "float"},     {"float32", "float"}, {"char", "text"},
      {"Char", "text"}};
  const Word *begin = as_type ? std::begin(kTypes) : std::begin(kNames);
  const Word *end = as_type ? std::end(kTypes) : std::end(kNames);
  for (const Word *w = begin; w != end; ++w)
    if (name == w->other) return w->cairn;
  return nullptr;
}

namespace {

// What to add to "Cairn's name for it is 'int'" for another language's type name.
std::string typeWordNote(const std::string &name) {
  static const char *const kNarrow[] = {"i32",  "int32", "i16",   "short",  "u64", "u32",
                                        "uint", "usize", "isize", "size_t", "byte"};
  for (const char *n : kNarrow)
    if (name == n) return " (64-bit and signed: Cairn has no smaller or unsigned ints)";
  if (name == "char" || name == "Char")
    return " (a character is a text of one character, or its code as an int)";
  return "";
}

const char *const kBuiltinFunctions[] = {"print", "println", "str",   "len",  "panic",  "args",
                                         "exit",  "int",     "float", "hash", "compare"};
const char *const kBuiltinTypes[] = {"int", "float", "bool", "text", "any"};

// A top-level name starting with '_' (a helper, by convention) is imported like any other, but
// two imports' helpers of one name clash only where the name is used (ModuleInfo).
bool isUnderscoreName(const std::string &name) { return !name.empty() && name[0] == '_'; }

std::string joinTypes(const std::vector<const Type *> &ts) {
  std::string s;
  for (size_t i = 0; i < ts.size(); ++i) {
    if (i) s += ", ";
    s += typeName(ts[i]);
  }
  return s;
}

// The most type nodes (`int`, `[...]`, `C[...]`, `fn(...)`, each counted where it appears) the
// type arguments of one generic instance may have. Real programs stay far below; a declaration
// that instantiates itself with growing arguments (`g[T]` calling `g[[T]]`) crosses it soon,
// where it would otherwise make instances without end.
constexpr size_t kMaxTypeArgNodes = 100;

// The number of type nodes of t, or any number above budget once it is above.
size_t countTypeNodes(const Type *t, size_t budget) {
  size_t n = 1;
  auto add = [&](const Type *u) {
    if (u != nullptr && n <= budget) n += countTypeNodes(u, budget - n);
  };
  switch (t->kind) {
    case TypeKind::Array:
      add(t->elem);
      break;
    case TypeKind::Class:
      for (const Type *a : t->cls->type_args) add(a);
      break;
    case TypeKind::Fn:
      for (const Type *p : t->params) add(p);
      add(t->ret);
      break;
    default:
      break;
  }
  return n;
}

}  // namespace

Diagnostic &Checker::error(DiagId id, Span span, std::vector<std::string> args) {
  // A message about a type that an earlier error left unknown ("expected fn(<error>) -> int")
  // says nothing new: that error was reported.
  if (diags_.hasErrors()) {
    for (const std::string &a : args) {
      if (a.find("<error>") != std::string::npos) {
        muted_ = Diagnostic{};
        return muted_;
      }
    }
  }
  if (current_ != nullptr && !current_->inst_name.empty() && current_->inst_site.valid()) {
    Span site = current_->inst_site;
    if (!failed_inst_sites_.insert({site.file, site.begin}).second) {
      muted_ = Diagnostic{};
      return muted_;
    }
    for (std::string &a : args) a = abbreviated(a);
    std::string message = formatMessage(diagKindInfo(id).format, args);
    // Instances without end are said first (the instance's name, a hundred levels deep, would
    // bury it); the notes say which instances.
    Diagnostic &d = id == DiagId::InstanceNeverEnds
                        ? diags_.report(id, current_->inst_site, std::move(args))
                        : diags_.report(DiagId::InstanceError, current_->inst_site,
                                        {current_->inst_name, message});
    // Instances that make instances without end made a hundred notes, each longer than the
    // last: the first few and the last one say it.
    const auto &via = current_->inst_via;
    constexpr size_t kShown = 4;
    for (size_t i = 0; i < via.size(); ++i) {
      if (via.size() > kShown + 1 && i == kShown) {
        d.withNote(Span{}, "... " + std::to_string(via.size() - kShown - 1) +
                               " more instances, each made by the one before ...");
        i = via.size() - 1;
      }
      d.withNote(via[i].first, via[i].second);
    }
    d.withNote(span, "the error is here, in the generic declaration");
    return d;
  }
  return diags_.report(id, span, std::move(args));
}

InstSite Checker::siteFor(Span site, const std::string &own) const {
  if (current_ == nullptr || current_->inst_name.empty())
    return InstSite{site, abbreviated(own), {}};
  // Made while checking another instance: reported where the outermost one was made, with a
  // note for each instance in between. Each names the instance that made it, not that one's
  // makers too (the notes say those).
  // Names too long to read are cut in their middle (a type a hundred instances deep).
  const std::string maker =
      abbreviated(current_->inst_name.substr(0, current_->inst_name.find(" (made by ")));
  const std::string made = abbreviated(own);
  InstSite s{current_->inst_site, made + " (made by " + maker + ")", current_->inst_via};
  s.via.emplace_back(site, made + " is made here, in " + maker);
  return s;
}

std::string Checker::abbreviated(const std::string &text) {
  // A type 100 instances deep (g[[[...[int]...]]]) is a line of its own: the ends say it.
  constexpr size_t kMax = 160;
  if (text.size() <= kMax) return text;
  return text.substr(0, kMax / 2) + " ... " + text.substr(text.size() - kMax / 2 + 10);
}

std::string Checker::stdModuleDeclaring(const std::string &name, bool type) const {
  if (stdlib_dir_.empty() || name.empty() || name[0] == '_') return "";
  std::error_code ec;
  std::vector<std::filesystem::path> files;
  for (const auto &entry : std::filesystem::directory_iterator(stdlib_dir_, ec))
    if (entry.path().extension() == ".cairn") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  const std::vector<std::string> starts =
      type ? std::vector<std::string>{"class "} : std::vector<std::string>{"fn ", "let ", "var "};
  for (const auto &file : files) {
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
      for (const std::string &s : starts) {
        if (line.compare(0, s.size(), s) != 0 || line.compare(s.size(), name.size(), name) != 0)
          continue;
        const size_t after = s.size() + name.size();
        const char next = after < line.size() ? line[after] : ' ';
        if (next == ' ' || next == '[' || next == '(' || next == '{' || next == ':' || next == '=')
          return "std." + file.stem().string();
      }
    }
  }
  return "";
}

void Checker::requireValue(const std::string &name, Span span, const Type *t) {
  if (t->kind != TypeKind::Fn) return;
  error(DiagId::FnVarNeedsValue, span, {name, typeName(t)})
      .withHint("give it a function to start with: 'var " + name + ": " + typeName(t) +
                " = someFunction'");
}

std::string Checker::iterationHint(ClassInfo *cls, const std::string &object) {
  std::string hint = whyNotIterable(cls);
  // What the class offers instead (HashMap's keys(), Set's items()): methods without parameters
  // that give an array or a class `for` takes.
  std::vector<std::string> offers;
  for (const FuncInfo *m : cls->vtable) {
    if (!m->params.empty() || m->ret == nullptr) continue;
    const Type *r = m->ret;
    bool takes = r->kind == TypeKind::Array;
    if (r->kind == TypeKind::Class && r->cls != cls && !r->cls->resolving) {
      resolveClass(r->cls);  // (an error is being reported: making the instance changes nothing)
      takes = whyNotIterable(r->cls).empty();
    }
    if (takes) offers.push_back(m->name);
  }
  if (offers.empty()) return hint;
  // What to write instead says enough (the error names what `for` takes).
  hint = "iterate over what one of its methods gives: ";
  for (size_t i = 0; i < offers.size(); ++i) hint += (i ? ", " : "") + offers[i] + "()";
  hint += " (for x in " + (object.empty() ? std::string("it") : object) + "." + offers[0] + "())";
  return hint;
}

std::string Checker::whyNotIterable(ClassInfo *cls) {
  auto signature = [&](const FuncInfo *f) {
    std::string sig = "fn(";
    for (size_t i = 0; i < f->params.size(); ++i) sig += (i ? ", " : "") + typeName(f->params[i]);
    sig += ")";
    if (f->ret->kind != TypeKind::Void) sig += " -> " + typeName(f->ret);
    return sig;
  };
  const FuncInfo *len = cls->findMethod("len");
  const FuncInfo *get = cls->findMethod("get");
  std::string name = cls->name;
  if (!len) return "class '" + name + "' has no method len() -> int";
  if (!len->params.empty() || len->ret != types_.intType())
    return "'" + name + ".len' is " + signature(len) + ", not fn() -> int";
  if (!get) return "class '" + name + "' has len() but no method get(i: int) -> T";
  if (get->params.size() != 1 || get->params[0] != types_.intType() ||
      get->ret->kind == TypeKind::Void)
    return "'" + name + ".get' is " + signature(get) +
           ", not a method of one int that gives the element";
  if (!indexParameter(get))
    return "'" + name + ".get' takes a key (its parameter is declared '" +
           get->decl->params[0].type->as<ast::NamedType>()->name.name +
           "', a type parameter), not an index: `for` would look up the keys 0, 1, 2, ...; " +
           "iterate with what the class offers for its entries (see its documentation)";
  return "";
}

// Whether get's parameter is declared `int` (an index), not a type parameter that this instance
// binds to int (a key: BTree[int, V].get looks a key up, and `for` over it would look up 0, 1,
// 2, ...).
bool Checker::indexParameter(const FuncInfo *get) {
  if (get->decl == nullptr || get->decl->params.size() != 1) return true;
  const ast::TypeExpr *te = get->decl->params[0].type.get();
  if (te == nullptr || te->kind != ast::TypeKind::Named) return true;
  const auto *named = te->as<ast::NamedType>();
  return !(named->args.empty() && get->bindings.count(named->name.name) != 0);
}

void Checker::cannotStore(Span span, const Type *t, const char *where) {
  error(DiagId::CannotStoreHandle, span,
        {"a value of type " + typeName(t), where,
         t->kind == TypeKind::Fn ? "a code address means nothing in a database"
                                 : "a handle means nothing in a database"});
}

// --- Module symbols ---------------------------------------------------------------------------

// A class's or function's type parameters: distinct, and none named like a built-in type (which
// the name would hide inside the declaration).
void Checker::checkTypeParams(const std::vector<ast::Ident> &params) {
  std::set<std::string> seen;
  for (const ast::Ident &p : params) {
    if (std::find(std::begin(kBuiltinTypes), std::end(kBuiltinTypes), p.name) !=
        std::end(kBuiltinTypes)) {
      error(DiagId::TypeParamNamedLikeType, p.span, {p.name})
          .withHint("choose another name, such as 'T': '" + p.name +
                    "' always means the built-in type");
    } else if (!seen.insert(p.name).second) {
      error(DiagId::TypeParamTwice, p.span, {p.name})
          .withHint("give each type parameter its own name");
    }
  }
}

void Checker::reportGenericMethod(const ast::FnDecl &method) {
  if (!generic_methods_.insert(&method).second) return;  // once, however many instances
  diags_.report(DiagId::GenericMethod, method.name.span)
      .withHint("make it a module-level generic function that takes the object as a parameter");
}

void Checker::collectDeclarations(const std::vector<ModuleInfo *> &modules) {
  for (ModuleInfo *m : modules) {
    auto &table = symbols_[m];
    std::map<std::string, Span> declared_at;  // where each name of the module was declared first
    for (const ast::DeclPtr &d : m->syntax->decls) {
      decl_module_[d.get()] = m;
      Symbol s;
      s.module = m;
      Span name_span;
      std::string name;
      switch (d->kind) {
        case ast::DeclKind::Import:
          continue;
        case ast::DeclKind::Class: {
          const auto *c = d->as<ast::ClassDecl>();
          s.kind = Symbol::Kind::Class;
          s.cls = c;
          name = c->name.name;
          name_span = c->name.span;
          for (const auto &meth : c->methods) {
            decl_module_[meth.get()] = m;
            // At the declaration, whether or not the class (a generic one) is ever made.
            if (!meth->type_params.empty()) reportGenericMethod(*meth);
          }
          checkTypeParams(c->type_params);
          if (std::find(std::begin(kBuiltinTypes), std::end(kBuiltinTypes), name) !=
              std::end(kBuiltinTypes)) {
            error(DiagId::ClassNamedLikeType, name_span, {name})
                .withHint("choose another name: '" + name + "' always means the built-in type");
          }
          auto prev = class_decl_by_name_.find(classKey(c));
          if (prev != class_decl_by_name_.end() && prev->second != c) {
            // Twice in one module is DuplicateDecl's, below: one error, not two. Classes of one
            // name in two modules are named apart (K4): a program's own class may shadow a
            // standard library class, which is then named with its module; of two modules'
            // classes, the main module's keeps its name and the other's is named with its
            // module (both, when neither is the main module).
            ModuleInfo *other = decl_module_[prev->second];
            const bool other_std = other->is_std, this_std = m->is_std;
            // (Not once a REPL session made an instance of one under the plain name: two heap
            // types of one name in one process.)
            std::vector<const ast::ClassDecl *> renamed;  // those named with their module
            if (other_std != this_std) {
              renamed.push_back(other_std ? prev->second : c);
            } else if (!other_std) {
              if (m != main_) renamed.push_back(c);
              if (other != main_) renamed.push_back(prev->second);
            }
            bool made = false;
            for (const ast::ClassDecl *r : renamed) made = made || hasInstances(r);
            if (other != m && !renamed.empty() && !made) {
              qualified_classes_.insert(renamed.begin(), renamed.end());
              if (other_std || m == main_) prev->second = c;
            } else if (other != m) {
              // Only in a REPL session, whose heap types live on: renaming one now would make
              // two heap types of one name in one process.
              error(DiagId::ClassNameClash, name_span, {name, other->name, m->name})
                  .withHint(
                      "a class keeps its name once the session has made objects of it: "
                      "give one of them another name");
            }
          } else {
            class_decl_by_name_[classKey(c)] = c;
          }
          break;
        }
        case ast::DeclKind::Fn: {
          const auto *f = d->as<ast::FnDecl>();
          s.kind = Symbol::Kind::Func;
          s.fn = f;
          name = f->name.name;
          name_span = f->name.span;
          checkTypeParams(f->type_params);
          break;
        }
        case ast::DeclKind::Global: {
          const auto *g = d->as<ast::GlobalDecl>();
          auto info = std::make_unique<GlobalInfo>();
          info->name = g->name.name;
          info->symbol = m->symbol + "." + g->name.name + symbol_suffix_;
          info->module = m;
          info->decl = g;
          info->is_var = g->is_var;
          info->span = g->name.span;
          s.kind = Symbol::Kind::Global;
          s.global = info.get();
          name = g->name.name;
          name_span = g->name.span;
          m->globals[name] = info.get();
          globals_.push_back(std::move(info));
          break;
        }
      }
      if (name.empty()) continue;
      if (table.count(name)) {
        Diagnostic &dup = error(DiagId::DuplicateDecl, name_span, {name, m->name});
        auto first = declared_at.find(name);
        if (first != declared_at.end()) dup.withNote(first->second, "first declared here");
        if (s.kind == Symbol::Kind::Func && table[name].kind == Symbol::Kind::Func)
          dup.withHint("give one of them another name: functions are not overloaded");
        else
          dup.withHint("give one of them another name");
        continue;
      }
      table[name] = s;
      declared_at[name] = name_span;
    }
  }
  // Imports: a module's own names win; a name two imports bring in is a clash (for a `_name`,
  // where it is used).
  for (ModuleInfo *m : modules) {
    // name -> what each import that declares it brings, in import order (one entry per module).
    std::map<std::string, std::vector<std::pair<Symbol, size_t>>> offered;
    for (size_t i = 0; i < m->imports.size(); ++i) {
      ModuleInfo *im = m->imports[i];
      for (const auto &[name, sym] : symbols_[im]) {
        if (sym.module != im) continue;  // only what it declares itself
        if (symbols_[m].count(name) && symbols_[m][name].module == m) continue;
        auto &from = offered[name];
        bool seen = false;
        for (const auto &[prev, _] : from) seen |= prev.module == im;
        if (!seen) from.push_back({sym, i});
      }
    }
    for (auto &[name, from] : offered) {
      if (from.size() == 1) {
        if (!symbols_[m].count(name)) symbols_[m][name] = from[0].first;
        continue;
      }
      std::vector<const ModuleInfo *> modules_of;
      for (const auto &[sym, _] : from) modules_of.push_back(sym.module);
      if (isUnderscoreName(name))
        m->underscore_clashes[name] = modules_of;
      else {
        reportImportClash(name, modules_of, m->import_spans[from[1].second]);
        symbols_[m][name] = from[0].first;  // uses resolve to the first: one error, not many
      }
    }
  }
}

void Checker::reportImportClash(const std::string &name,
                                const std::vector<const ModuleInfo *> &modules, Span span,
                                const std::string &hint) {
  Diagnostic *d;
  if (modules.size() == 2) {
    d = &error(DiagId::ImportClash, span, {name, modules[0]->name, modules[1]->name});
  } else {
    std::string list;
    for (size_t i = 0; i < modules.size(); ++i) {
      if (i > 0) list += i + 1 == modules.size() ? " and " : ", ";
      list += "'" + modules[i]->name + "'";
    }
    d = &error(DiagId::ImportClashMany, span, {name, list});
  }
  if (!hint.empty()) d->withHint(hint);
}

bool Checker::reportUnderscoreClash(const ModuleInfo *m, const std::string &name, Span span) {
  auto clash = m->underscore_clashes.find(name);
  if (clash == m->underscore_clashes.end()) return false;
  reportImportClash(name, clash->second, span,
                    "declare the '" + name + "' this module means in it, or rename one of them");
  return true;
}

Symbol Checker::lookupModule(ModuleInfo *m, const std::string &name) {
  auto &table = symbols_[m];
  auto it = table.find(name);
  if (it != table.end()) return it->second;
  Symbol s;
  for (const char *b : kBuiltinFunctions)
    if (name == b) {
      s.kind = Symbol::Kind::Builtin;
      s.builtin = name;
      return s;
    }
  if (name == "Database" || name == "Transaction") {
    s.kind = Symbol::Kind::BuiltinClass;
    s.builtin = name;
  }
  if (m->is_std && findIntrinsic(name) != nullptr) {  // I3 in intrinsics.h
    s.kind = Symbol::Kind::Builtin;
    s.builtin = name;
  }
  return s;
}

bool isBuiltinName(const std::string &name) {
  for (const char *b : kBuiltinFunctions)
    if (name == b) return true;
  for (const char *b : kBuiltinTypes)
    if (name == b) return true;
  return name == "Database" || name == "Transaction";
}

std::vector<std::string> Checker::moduleNames(ModuleInfo *m) {
  std::vector<std::string> names;
  for (const auto &[name, sym] : symbols_[m]) names.push_back(name);
  for (const char *b : kBuiltinFunctions) names.push_back(b);
  return names;
}

// --- Types ------------------------------------------------------------------------------------

const Type *Checker::arrayType(const Type *elem) {
  const Type *t = types_.arrayOf(elem);
  bool seen = false;
  for (const Type *s : array_types_seen_) seen |= s == t;
  if (!seen) array_types_seen_.push_back(t);
  return t;
}

const Type *Checker::resolveType(const ast::TypeExpr *t, ModuleInfo *m, const Bindings *b) {
  switch (t->kind) {
    case ast::TypeKind::Array: {
      const Type *elem = resolveType(t->as<ast::ArrayType>()->elem.get(), m, b);
      if (elem->isError()) return elem;
      if (elem->isHandle() || elem->kind == TypeKind::Void) {
        cannotStore(t->span, elem, "an array");
        return types_.error();
      }
      return arrayType(elem);
    }
    case ast::TypeKind::Fn: {
      const auto *f = t->as<ast::FnType>();
      std::vector<const Type *> params;
      for (const auto &p : f->params) params.push_back(resolveType(p.get(), m, b));
      const Type *ret = f->ret ? resolveType(f->ret.get(), m, b) : types_.voidType();
      return types_.fnType(std::move(params), ret);
    }
    case ast::TypeKind::Named:
      break;
  }
  const auto *n = t->as<ast::NamedType>();
  const std::string &name = n->name.name;
  if (b != nullptr) {
    auto it = b->find(name);
    if (it != b->end()) {
      if (!n->args.empty()) error(DiagId::NotGeneric, n->name.span, {name});
      return it->second;
    }
  }
  auto simple = [&](const Type *ty) {
    if (!n->args.empty()) error(DiagId::NotGeneric, n->name.span, {name});
    return ty;
  };
  if (name == "int") return simple(types_.intType());
  if (name == "float") return simple(types_.floatType());
  if (name == "bool") return simple(types_.boolType());
  if (name == "text") return simple(types_.textType());
  if (name == "any") return simple(types_.anyType());
  // Database and Transaction are in scope unless a module declares (or imports) a class of
  // that name, which wins, as declarations win over the built-in functions.
  Symbol s = lookupModule(m, name);
  if (s.kind == Symbol::Kind::BuiltinClass)
    return simple(name == "Database" ? types_.databaseType() : types_.transactionType());
  if (s.kind == Symbol::Kind::Class) {
    std::vector<const Type *> args;
    bool bad = false;
    for (const auto &a : n->args) {
      const Type *at = resolveType(a.get(), m, b);
      bad |= at->isError();
      args.push_back(at);
    }
    if (bad) return types_.error();
    if (args.size() != s.cls->type_params.size()) {
      if (s.cls->type_params.empty())
        error(DiagId::NotGeneric, n->name.span, {name});
      else {
        Diagnostic &d = error(DiagId::TypeArgCount, t->span,
                              {name, plural(s.cls->type_params.size(), "type argument"),
                               std::to_string(args.size())});
        // `new Pair { ... }`: type arguments are not inferred from the fields.
        std::string params;
        for (const ast::Ident &p : s.cls->type_params)
          params += (params.empty() ? "" : ", ") + p.name;
        if (args.empty())
          d.withHint("give them, as in " + name + "[" + params +
                     "] with a type for each (they are not inferred from the fields)");
      }
      return types_.error();
    }
    ClassInfo *ci = instantiateClass(s.cls, s.module, std::move(args), t->span);
    return ci->type;
  }
  if (s.kind != Symbol::Kind::None) {
    error(DiagId::NotAType, n->name.span, {name});
    return types_.error();
  }
  bool instance_named = false;  // some class is declared under a name `name[...]`
  if (!n->args.empty()) {
    auto &table = symbols_[m];
    for (auto it = table.lower_bound(name + "["); it != table.end(); ++it) {
      if (it->first.compare(0, name.size() + 1, name + "[") != 0) break;
      instance_named |= it->second.kind == Symbol::Kind::Class;
    }
  }
  if (instance_named) {
    // A class declared under a generic instance's full name (the REPL defines the types of a
    // database it has no source for so: `Box[Part]`, docs/repl.md) is named the same way.
    std::vector<const Type *> args;
    bool bad = false;
    for (const auto &a : n->args) {
      args.push_back(resolveType(a.get(), m, b));
      bad |= args.back()->isError();
    }
    if (bad) return types_.error();
    Symbol whole = lookupModule(m, name + "[" + joinTypes(args) + "]");
    if (whole.kind == Symbol::Kind::Class && whole.cls->type_params.empty())
      return instantiateClass(whole.cls, whole.module, {}, t->span)->type;
  }
  std::vector<std::string> candidates(std::begin(kBuiltinTypes), std::end(kBuiltinTypes));
  for (const auto &[cname, sym] : symbols_[m])
    if (sym.kind == Symbol::Kind::Class && cname != base_of_) candidates.push_back(cname);
  if (b)
    for (const auto &[pname, pt] : *b) candidates.push_back(pname);
  if (reportUnderscoreClash(m, name, n->name.span)) return types_.error();
  Diagnostic &d = error(DiagId::UnknownType, n->name.span, {name});
  std::string std_module;
  static const char *const kCollections[][3] = {
      {"Map", "HashMap", "std.map"},       {"Dict", "HashMap", "std.map"},
      {"dict", "HashMap", "std.map"},      {"Dictionary", "HashMap", "std.map"},
      {"HashTable", "HashMap", "std.map"}, {"TreeMap", "BTree", "std.btree"},
      {"SortedMap", "BTree", "std.btree"}, {"ArrayList", "List", "std.list"},
      {"Vec", "List", "std.list"},         {"Vector", "List", "std.list"},
      {"vector", "List", "std.list"},      {"list", "List", "std.list"},
      {"HashSet", "Set", "std.set"},       {"set", "Set", "std.set"}};
  const char *const *collection = nullptr;
  for (const auto &c : kCollections)
    if (name == c[0]) collection = c;
  const ModuleInfo *owner = moduleDeclaringClass(name);
  if (owner != nullptr && owner != m)
    d.withHint("'" + name + "' is declared in module '" + owner->name +
               "', which this module does not import (imports are not passed on): add 'import " +
               owner->name + "'");
  else if (collection != nullptr && lookupModule(m, collection[1]).kind != Symbol::Kind::Class)
    d.withHint("Cairn's standard library calls it '" + std::string(collection[1]) +
               "': add 'import " + collection[2] + "'");
  else if (collection != nullptr)
    d.withHint("did you mean '" + std::string(collection[1]) + "'?");
  else if (name == "void" || name == "Void" || name == "Unit" || name == "unit" || name == "None")
    d.withHint("a function that returns nothing has no '->' and no result type: `fn f() { ... }`");
  else if (const char *word = cairnWordFor(name, true))
    d.withHint("Cairn's name for it is '" + std::string(word) + "'" + typeWordNote(name));
  else if (!(std_module = stdModuleDeclaring(name, true)).empty())
    d.withHint("'" + name + "' is in the standard library: add 'import " + std_module + "'");
  else if (const std::string hint = didYouMean(name, candidates); !hint.empty())
    d.withHint(hint);
  return types_.error();
}

const ModuleInfo *Checker::moduleDeclaringClass(const std::string &name) const {
  return moduleDeclaring(name, true);
}

const ModuleInfo *Checker::moduleDeclaring(const std::string &name, bool is_class) const {
  const ModuleInfo *found = nullptr;
  for (const auto &[mod, table] : symbols_) {
    auto it = table.find(name);
    // The main module (or the REPL's session) is never imported: not a hint to give.
    if (it == table.end() || mod == main_ || it->second.module != mod) continue;
    const Symbol::Kind k = it->second.kind;
    const bool wanted =
        is_class ? k == Symbol::Kind::Class : k == Symbol::Kind::Func || k == Symbol::Kind::Global;
    if (wanted && (found == nullptr || mod->name < found->name)) found = mod;
  }
  return found;
}

// --- Classes ----------------------------------------------------------------------------------

std::vector<const Type *> Checker::boundedTypeArgs(const std::string &generic,
                                                   std::vector<const Type *> args, Span site) {
  size_t nodes = 0;
  for (const Type *a : args)
    if (nodes <= kMaxTypeArgNodes) nodes += countTypeNodes(a, kMaxTypeArgNodes - nodes);
  if (nodes <= kMaxTypeArgNodes) return args;
  // Written so outside any instance (campaign R: a flat instance of 101 types was said to make
  // instances without end).
  if (current_ == nullptr || current_->inst_name.empty()) {
    error(DiagId::TypeArgsTooLarge, site, {generic, std::to_string(kMaxTypeArgNodes)});
    return std::vector<const Type *>(args.size(), types_.error());
  }
  if (endless_generics_.insert(generic).second) {
    error(DiagId::InstanceNeverEnds, site, {generic, std::to_string(kMaxTypeArgNodes)})
        .withHint(
            "a generic function or class may use itself only with type arguments that do "
            "not grow");
  }
  // Error types: the instance is checked once more, silently, and its uses of itself stop.
  return std::vector<const Type *>(args.size(), types_.error());
}

ClassInfo *Checker::instantiateClass(const ast::ClassDecl *decl, ModuleInfo *m,
                                     std::vector<const Type *> args, Span site) {
  if (!args.empty()) args = boundedTypeArgs(decl->name.name, std::move(args), site);
  auto key = std::make_pair(decl, args);
  auto it = class_instances_.find(key);
  if (it != class_instances_.end()) return it->second.get();
  auto ci = std::make_unique<ClassInfo>();
  ci->source_name = decl->name.name;
  ci->name = args.empty() ? decl->name.name : decl->name.name + "[" + joinTypes(args) + "]";
  ci->symbol =
      symbolQualifier(decl->name.name, false) + (args.empty() ? "" : "[" + joinTypes(args) + "]");
  if (qualified_classes_.count(decl) != 0) {
    ci->name = decl_module_[decl]->name + "." + ci->name;
    ci->symbol = decl_module_[decl]->symbol + "." + ci->symbol;
  }
  // As for functions (instantiateFunction): two instances of one name are told apart.
  for (int n = 2; !class_symbols_.insert(ci->symbol).second; ++n)
    ci->symbol = ci->symbol.substr(0, ci->symbol.rfind('\'')) + "'" + std::to_string(n);
  ci->module = m;
  ci->decl = decl;
  ci->type_args = args;
  for (size_t i = 0; i < decl->type_params.size() && i < args.size(); ++i)
    ci->bindings[decl->type_params[i].name] = args[i];
  ci->type = types_.classType(ci.get());
  ClassInfo *raw = ci.get();
  class_instances_[key] = std::move(ci);
  if (log_instances_) made_classes_.push_back(key);
  if (!args.empty()) class_site_[raw] = siteFor(site, raw->name);
  class_work_.push_back(raw);
  return raw;
}

void Checker::resolveClass(ClassInfo *cls) {
  if (cls->resolved) return;
  if (cls->resolving) {
    error(DiagId::InheritanceCycle, cls->decl->name.span, {cls->name, ""});
    return;
  }
  cls->resolving = true;
  resolving_.push_back(cls);
  FnCtx *saved = current_;
  FnCtx site_cx;
  auto site = class_site_.find(cls);
  if (site != class_site_.end()) {
    site_cx.inst_site = site->second.site;
    site_cx.inst_name = site->second.name;
    site_cx.inst_via = site->second.via;
    current_ = &site_cx;
  } else {
    current_ = nullptr;
  }
  const ast::ClassDecl *d = cls->decl;
  const Bindings *b = &cls->bindings;
  if (d->super) {
    // A base that is not found is not suggested to be the class itself (`class A : B`).
    const std::string saved_base_of = base_of_;
    base_of_ = cls->name;
    const Type *st = resolveType(d->super.get(), cls->module, b);
    base_of_ = saved_base_of;
    if (st->kind == TypeKind::Class) {
      if (st->cls->resolving) {
        // `class D : E` and `class E : D`: the cycle is named through the other classes, in
        // the order the bases lead from this one (resolving_ ends with cls; st->cls is in it).
        std::string through;
        const auto first = std::find(resolving_.begin(), resolving_.end(), st->cls);
        std::vector<std::string> names;
        for (auto it = first; it != resolving_.end() && *it != cls; ++it)
          names.push_back("'" + (*it)->name + "'");
        for (size_t i = 0; i < names.size(); ++i) {
          through += i == 0 ? ", through " : (i + 1 == names.size() ? " and " : ", ");
          through += names[i];
        }
        error(DiagId::InheritanceCycle, d->name.span, {cls->name, through});
      } else if (resolving_.size() > kMaxBaseClasses) {
        // Each base is resolved inside its subclass: a chain declared base-last would recurse
        // once per base, past the stack, before the bound below could be checked. Said once:
        // the rest of such a chain would say it again every thousand classes.
        if (!inheritance_too_deep_reported_)
          error(DiagId::InheritanceTooDeep, d->name.span,
                {cls->name, "more than " + std::to_string(kMaxBaseClasses),
                 std::to_string(kMaxBaseClasses)})
              .withHint("make the chain shorter: keep a part of it in a field instead of a base");
        inheritance_too_deep_reported_ = true;
        cls->too_deep = true;
      } else {
        resolveClass(st->cls);
        if (!st->cls->resolving) cls->super = st->cls;
        // Each base is a nested struct of the descriptor, which the runtime bounds
        // (kMaxBaseClasses).
        size_t bases = 0;
        for (const ClassInfo *b = cls->super; b != nullptr; b = b->super) ++bases;
        if (bases > kMaxBaseClasses && (cls->super == nullptr || !cls->super->too_deep)) {
          error(DiagId::InheritanceTooDeep, d->name.span,
                {cls->name, std::to_string(bases), std::to_string(kMaxBaseClasses)})
              .withHint("make the chain shorter: keep a part of it in a field instead of a base");
          cls->too_deep = true;
        } else if (cls->super != nullptr && cls->super->too_deep) {
          cls->too_deep = true;
        }
      }
    } else if (!st->isError()) {
      error(DiagId::SuperNotClass, d->super->span, {typeName(st)});
    }
  }
  if (cls->super) {
    cls->fields = cls->super->fields;
    cls->vtable = cls->super->vtable;
  }
  std::set<std::string> own_names;
  for (const ast::FieldDecl &f : d->fields) {
    const Type *ft = resolveType(f.type.get(), cls->module, b);
    if (ft->isHandle()) {
      cannotStore(f.type->span, ft, "a field");
      ft = types_.error();
    }
    if (!own_names.insert(f.name.name).second) {
      error(DiagId::DuplicateMember, f.name.span, {f.name.name, cls->name});
      continue;
    }
    if (cls->super && cls->super->findField(f.name.name)) {
      const FieldInfo *bf = cls->super->findField(f.name.name);
      error(DiagId::FieldRedeclared, f.name.span, {f.name.name, bf->owner->name});
      continue;
    }
    if (cls->super && cls->super->findMethod(f.name.name)) {
      // `b.f` would read the field where `b.f()` calls the method: one name, one member.
      // (Declared all the same, so that its uses report nothing more.)
      error(DiagId::FieldNamesBaseMethod, f.name.span,
            {f.name.name, cls->super->findMethod(f.name.name)->owner->name});
    }
    auto fi = std::make_unique<FieldInfo>();
    fi->name = f.name.name;
    fi->type = ft;
    fi->owner = cls;
    fi->index = static_cast<unsigned>(cls->own_fields.size()) + (cls->super ? 1 : 0);
    fi->span = f.name.span;
    cls->fields.push_back(fi.get());
    cls->own_fields.push_back(std::move(fi));
  }
  for (const auto &md : d->methods) {
    if (!md->type_params.empty()) reportGenericMethod(*md);
    const std::string &name = md->name.name;
    if (!own_names.insert(name).second) {
      error(DiagId::DuplicateMember, md->name.span, {name, cls->name});
      continue;
    }
    if (cls->super && cls->super->findField(name)) {
      error(DiagId::MethodNamesBaseField, md->name.span,
            {name, cls->super->findField(name)->owner->name});
      continue;
    }
    auto fi = std::make_unique<FuncInfo>();
    fi->name = name;
    fi->symbol = cls->symbol + ":" + name + symbol_suffix_;
    fi->module = cls->module;
    fi->decl = md.get();
    fi->bindings = cls->bindings;
    // Type parameters of a method (an error, above) stand for the error type in it, so that
    // their uses report nothing more.
    for (const ast::Ident &tp : md->type_params) fi->bindings[tp.name] = types_.error();
    fi->owner = cls;
    fi->is_override = md->is_override;
    fi->span = md->name.span;
    resolveSignature(fi.get(), md.get(), cls->module, &fi->bindings);
    if (md->is_extern) error(DiagId::ExternBody, md->name.span, {name});
    if (!md->body && !md->is_extern) error(DiagId::MissingBody, md->name.span, {name});
    FuncInfo *base = cls->super ? cls->super->findMethod(name) : nullptr;
    if (base) {
      if (!md->is_override) {
        Diagnostic &d = error(DiagId::MissingOverride, md->name.span, {name, base->owner->name});
        if (base->fnType == fi->fnType || fi->fnType->mentionsError())
          d.withHint("write 'override fn " + name + "(...)'");
        else
          // Marking it would be the next error: an override keeps the signature.
          d.withHint("'" + base->owner->name + "." + name + "' is " + typeName(base->fnType) +
                     " and this one " + typeName(fi->fnType) +
                     ": to override it, write 'override fn " + name +
                     "' with its signature; for another method, choose another name");
      } else if (base->fnType != fi->fnType) {
        error(DiagId::OverrideSignature, md->name.span,
              {name, typeName(base->fnType), typeName(fi->fnType)});
      }
      fi->slot = base->slot;
      cls->vtable[static_cast<size_t>(base->slot)] = fi.get();
    } else {
      if (md->is_override)
        error(DiagId::NothingToOverride, md->name.span,
              {name, cls->super ? "'" + cls->super->name + "' has no method '" + name + "'"
                                : "class '" + cls->name + "' has no base class"});
      fi->slot = static_cast<int>(cls->vtable.size());
      cls->vtable.push_back(fi.get());
    }
    if (site != class_site_.end()) inst_site_[fi.get()] = site->second;
    fn_work_.push_back(fi.get());
    cls->own_methods.push_back(std::move(fi));
  }
  current_ = saved;
  resolving_.pop_back();
  cls->resolving = false;
  cls->resolved = true;
  program_->classes.push_back(cls);
}

// --- Functions --------------------------------------------------------------------------------

void Checker::resolveSignature(FuncInfo *f, const ast::FnDecl *decl, ModuleInfo *m,
                               const Bindings *b) {
  for (const ast::Param &p : decl->params) {
    f->params.push_back(resolveType(p.type.get(), m, b));
    f->param_names.push_back(p.name.name);
  }
  f->ret = decl->ret ? resolveType(decl->ret.get(), m, b) : types_.voidType();
  f->fnType = types_.fnType(f->params, f->ret);
  if (decl->is_extern) {
    for (size_t i = 0; i < f->params.size(); ++i)
      if (!f->params[i]->isValue() && !f->params[i]->isError())
        error(DiagId::ExternType, decl->params[i].type->span, {typeName(f->params[i])});
    if (!f->ret->isValue() && f->ret->kind != TypeKind::Void && !f->ret->isError())
      error(DiagId::ExternType, decl->ret->span, {typeName(f->ret)});
  }
}

FuncInfo *Checker::instantiateFunction(const ast::FnDecl *decl, ModuleInfo *m,
                                       std::vector<const Type *> args, Span site) {
  if (!args.empty()) args = boundedTypeArgs(decl->name.name, std::move(args), site);
  auto key = std::make_pair(decl, args);
  auto it = fn_instances_.find(key);
  if (it != fn_instances_.end()) return it->second.get();
  auto fi = std::make_unique<FuncInfo>();
  fi->name = decl->name.name;
  fi->module = m;
  fi->decl = decl;
  fi->type_args = args;
  fi->is_extern = decl->is_extern;
  fi->span = decl->name.span;
  for (size_t i = 0; i < decl->type_params.size() && i < args.size(); ++i)
    fi->bindings[decl->type_params[i].name] = args[i];
  if (decl->is_extern)
    fi->symbol = decl->name.name;
  else if (args.empty())
    fi->symbol = m->symbol + "." + decl->name.name + symbol_suffix_;
  else
    fi->symbol = m->symbol + "." + decl->name.name + "[" + joinTypes(args) + "]" + symbol_suffix_;
  // Two classes of one name (a session's, redefined with other fields) make two instances of
  // one name: the later one's symbol is told apart. An extern's is the C function's name, also
  // when a session declares it again with another signature (each input is a module of its own).
  for (int n = 2; !decl->is_extern && !instance_symbols_.insert(fi->symbol).second; ++n)
    fi->symbol = fi->symbol.substr(0, fi->symbol.rfind('\'')) + "'" + std::to_string(n);
  FuncInfo *raw = fi.get();
  fn_instances_[key] = std::move(fi);
  if (log_instances_) made_functions_.push_back(key);
  if (!args.empty()) inst_site_[raw] = siteFor(site, decl->name.name + "[" + joinTypes(args) + "]");
  FnCtx *saved = current_;
  FnCtx site_cx;
  if (!args.empty()) {
    site_cx.inst_site = inst_site_[raw].site;
    site_cx.inst_name = inst_site_[raw].name;
    site_cx.inst_via = inst_site_[raw].via;
    current_ = &site_cx;
  }
  resolveSignature(raw, decl, m, &raw->bindings);
  if (decl->is_extern) {
    // One C function, one signature: two modules declaring it otherwise would make one symbol
    // of two types (invalid IR). A session declaring it again in its own module replaces it.
    auto [at, fresh] = extern_by_name_.emplace(raw->symbol, raw);
    if (!fresh && at->second->module != m && at->second->fnType != raw->fnType &&
        !raw->fnType->isError() && !at->second->fnType->isError()) {
      error(DiagId::ExternTwoSignatures, decl->name.span,
            {raw->symbol, typeName(raw->fnType), typeName(at->second->fnType)})
          .withNote(at->second->span, "the other declaration");
    } else if (!fresh) {
      at->second = raw;
    }
  }
  current_ = saved;
  if (decl->is_extern && decl->body) error(DiagId::ExternBody, decl->name.span, {fi->name});
  if (!decl->is_extern && !decl->body) error(DiagId::MissingBody, decl->name.span, {raw->name});
  fn_work_.push_back(raw);
  return raw;
}

void Checker::checkFunctionBody(FuncInfo *f) {
  if (f->checked) return;
  f->checked = true;
  auto fn = std::make_unique<sem::Function>();
  fn->info = f;
  FnCtx cx;
  cx.fn = fn.get();
  cx.info = f;
  cx.module = f->module;
  cx.bindings = &f->bindings;
  auto site = inst_site_.find(f);
  if (site != inst_site_.end()) {
    cx.inst_site = site->second.site;
    cx.inst_name = site->second.name;
    cx.inst_via = site->second.via;
  }
  FnCtx *saved = current_;
  current_ = &cx;
  cx.scopes.emplace_back();
  if (f->owner) {
    cx.self_class = f->owner;
    cx.self_var = declareLocal(cx, "self", f->owner->type, false, f->span);
    fn->params.push_back(cx.self_var);
  }
  const ast::FnDecl *d = f->decl;
  // Parameters are variables of the call: they may be assigned (the caller's value stays).
  for (size_t i = 0; i < f->params.size(); ++i)
    fn->params.push_back(
        declareLocal(cx, f->param_names[i], f->params[i], true, d->params[i].name.span));
  if (d->body && !f->is_extern) {
    fn->body = checkBlock(cx, *d->body, false);
    if (f->ret->kind != TypeKind::Void && !f->ret->isError() && !alwaysReturns(fn->body.get()))
      error(DiagId::MissingReturn,
            d->body->span.valid()
                ? Span{d->body->span.file, d->body->span.end - 1, d->body->span.end}
                : d->name.span,
            {(f->owner ? "method '" : "function '") + f->name + "'", typeName(f->ret)});
  }
  current_ = saved;
  program_->functions.push_back(std::move(fn));
}

void Checker::checkGlobals(const std::vector<ModuleInfo *> &modules) {
  defer_literals_ = true;
  for (ModuleInfo *m : modules) {
    for (const ast::DeclPtr &d : m->syntax->decls) {
      if (d->kind != ast::DeclKind::Global) continue;
      const auto *g = d->as<ast::GlobalDecl>();
      GlobalInfo *info = m->globals[g->name.name];
      if (info == nullptr || info->decl != g) continue;
      FnCtx cx;
      cx.module = m;
      cx.initializing = info;
      cx.scopes.emplace_back();
      FnCtx *saved = current_;
      current_ = &cx;
      const Type *declared = g->type ? resolveType(g->type.get(), m, nullptr) : nullptr;
      sem::ExprPtr init;
      if (g->init) {
        init = checkValue(cx, *g->init, declared);
        if (declared) init = coerce(cx, std::move(init), declared, g->init->span);
      }
      const Type *t = declared ? declared : (init ? init->type : types_.error());
      if (!declared && t->kind == TypeKind::Nil) {
        error(DiagId::CannotInferNil, g->name.span);
        t = types_.error();
      }
      if (!g->init) requireValue(g->name.name, g->name.span, t);
      if (!g->is_var && !t->isValue() && t->kind != TypeKind::Text && !t->isError())
        error(DiagId::GlobalLetType, g->name.span, {typeName(t)})
            .withHint("declare it with 'var' (a root of the program)");
      info->type = t;
      current_ = saved;
      program_->globals.push_back(info);
      program_->global_inits.push_back(sem::GlobalInit{info, std::move(init)});
    }
  }
  defer_literals_ = false;
  checkDeferredLiterals();
}

void Checker::checkDeferredLiterals() {
  // Every module-level value has its type now: the initializers' literals are checked (a
  // literal inside one of them is checked with it).
  std::vector<DeferredLiteral> work;
  work.swap(deferred_literals_);
  for (const DeferredLiteral &d : work) {
    FnCtx cx;
    cx.module = d.module;
    cx.scopes.emplace_back();
    checkFnLitBody(cx, *d.lit, d.info, d.fn);
  }
}

void Checker::drainWork() {
  while (!class_work_.empty() || !fn_work_.empty()) {
    while (!class_work_.empty()) {
      ClassInfo *c = class_work_.front();
      class_work_.pop_front();
      resolveClass(c);
    }
    if (!fn_work_.empty()) {
      FuncInfo *f = fn_work_.front();
      fn_work_.pop_front();
      checkFunctionBody(f);
    }
  }
}

void Checker::instantiateDeclared(const std::vector<ModuleInfo *> &modules) {
  for (ModuleInfo *m : modules) {
    for (const ast::DeclPtr &d : m->syntax->decls) {
      if (d->kind == ast::DeclKind::Class) {
        const auto *c = d->as<ast::ClassDecl>();
        if (c->type_params.empty() &&
            (class_decl_by_name_[classKey(c)] == c || qualified_classes_.count(c) != 0))
          instantiateClass(c, m, {}, c->name.span);
      } else if (d->kind == ast::DeclKind::Fn) {
        const auto *f = d->as<ast::FnDecl>();
        if (f->type_params.empty()) instantiateFunction(f, m, {}, f->name.span);
      }
    }
  }
}

std::unique_ptr<sem::Program> Checker::run(bool require_main) {
  collectDeclarations(modules_);
  // Every non-generic class and function is checked, used or not.
  instantiateDeclared(modules_);
  while (!class_work_.empty()) {
    ClassInfo *c = class_work_.front();
    class_work_.pop_front();
    resolveClass(c);
  }
  checkGlobals(modules_);
  drainWork();

  Symbol mainSym = lookupModule(main_, "main");
  if (mainSym.kind == Symbol::Kind::Func && mainSym.module == main_ &&
      !mainSym.fn->type_params.empty()) {
    error(DiagId::MainSignature, mainSym.fn->name.span)
        .withHint("'main' cannot have type parameters: write 'fn main() { ... }'");
  } else if (mainSym.kind == Symbol::Kind::Func && mainSym.module == main_) {
    FuncInfo *f = instantiateFunction(mainSym.fn, main_, {}, mainSym.fn->name.span);
    if (!f->params.empty() || f->ret->kind != TypeKind::Void || f->is_extern) {
      Diagnostic &d = error(DiagId::MainSignature, mainSym.fn->name.span);
      if (!f->params.empty())
        d.withHint(
            "the program's arguments are args(), a [text]; it ends with a status by exit(n)");
      else if (f->ret->kind != TypeKind::Void)
        d.withHint("a status is given by exit(n)");
    }
    program_->main = f;
  } else if (require_main) {
    Span where{main_->syntax->file, 0, 0};
    error(DiagId::NoMain, where).withHint("add 'fn main() { ... }' to " + main_->path);
  }
  program_->array_types = array_types_seen_;
  program_->main_file = main_->path;
  if (!diags_.hasErrors()) checkInitOrder(*program_, diags_);
  for (auto &[key, c] : class_instances_) program_->owned_classes.push_back(std::move(c));
  for (auto &[key, f] : fn_instances_) program_->owned_functions.push_back(std::move(f));
  for (auto &f : literal_funcs_) program_->owned_functions.push_back(std::move(f));
  for (auto &g : globals_) program_->owned_globals.push_back(std::move(g));
  return std::move(program_);
}

std::unique_ptr<sem::Program> checkProgram(std::vector<ModuleInfo *> modules, ModuleInfo *main,
                                           Diagnostics &diags, TypeContext &types,
                                           bool require_main, const std::string &stdlib_dir) {
  Checker checker(std::move(modules), main, diags, types);
  checker.setStdlibDir(stdlib_dir);
  return checker.run(require_main);
}

}  // namespace cairn::front
