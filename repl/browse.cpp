// Databases browsed without their source (session.h): when :open opens a database that holds
// types the session does not define, the session defines them from the database's type table
// (cairn_db_stored_types): each becomes a class with the stored name, base and fields (their
// declared types when the table has them, else `any` for a reference), and no methods, so that
// :root, field access, `for` over arrays and printing work on a database made by any program.
// A stored type named as an instance of a generic class of the session (List[Connection] with
// std.list imported) is made from that class instead, with its methods, when its layout is the
// stored one; stored array types are made too (ast::Input::types_used), since a page holding an
// object of a type the session lacks cannot be faulted in.
//
// A stored type is defined only when Cairn can write it exactly, so that the class gets the
// stored fingerprint (checked before the classes are kept): fields of kinds int, float, bool and
// reference, one value each, and a base class as the first field whose own layout the table has
// (store format 2) or that the table or the session defines by name. Others are listed as not
// defined: the session can still print their objects if it gets their descriptors some other
// way (:load of the source), and touching one is otherwise a fault error that ends the input.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>

#include "cairn/persist.h"
#include "fingerprint.h"
#include "lexer/name_chars.h"
#include "session.h"
#include "syntax/parser.h"

namespace cairn::repl {
namespace {

namespace ast = front::ast;

// A stored layout, copied out of cairn_db_stored_types' callback.
struct StoredField {
  std::string name;
  uint16_t kind = 0;
  uint32_t count = 1;
  std::string type;     // declared type ("" : unknown)
  uint64_t nested = 0;  // a STRUCT field's layout, by fingerprint (0: unknown)
};
struct StoredType {
  uint64_t fingerprint = 0;
  std::string name;
  uint32_t flags = 0;
  uint32_t elem_kind = 0;
  bool in_table = false;  // an entry of its own (else only a nested layout)
  std::vector<StoredField> fields;
};

using StoredTypes = std::map<uint64_t, StoredType>;

uint64_t copyType(const cairn_type *t, bool in_table, StoredTypes *out) {
  const uint64_t fp = t->fingerprint ? t->fingerprint : cairn_type_fingerprint_compute(t);
  StoredType &st = (*out)[fp];
  st.in_table = st.in_table || in_table;
  if (!st.name.empty()) return fp;
  st.fingerprint = fp;
  st.name = t->name;
  st.flags = t->flags;
  st.elem_kind = t->elem_kind;
  for (uint32_t i = 0; i < t->nfields; i++) {
    const cairn_field &f = t->fields[i];
    StoredField sf;
    sf.name = f.name ? f.name : "";
    sf.kind = f.kind;
    sf.count = f.count;
    sf.type = f.type ? f.type : "";
    if (f.kind == CAIRN_KIND_STRUCT && f.nested != nullptr)
      sf.nested = copyType(f.nested, false, out);
    st.fields.push_back(sf);
  }
  return fp;
}

bool readTable(cairn_db *db, StoredTypes *out) {
  auto add = [](const cairn_type *t, void *ctx) {
    copyType(t, true, static_cast<StoredTypes *>(ctx));
  };
  return cairn_db_stored_types(db, add, out) == CAIRN_OK;
}

bool isPlain(const StoredType &t) { return (t.flags & (CAIRN_TYPE_ARRAY | CAIRN_TYPE_TEXT)) == 0; }

// The standard library's module that declares the generic class `name` ("std.btree" for
// BTree), found in the library's files (`class NAME[` at the start of a line), or "".
std::string stdModuleDeclaring(const std::string &stdlib_dir, const std::string &name) {
  std::error_code ec;
  const std::string declaration = "class " + name + "[";
  for (const auto &entry : std::filesystem::directory_iterator(stdlib_dir, ec)) {
    if (entry.path().extension() != ".cairn") continue;
    std::ifstream in(entry.path());
    std::string line;
    while (std::getline(in, line))
      if (line.rfind(declaration, 0) == 0) return "std." + entry.path().stem().string();
  }
  return "";
}

// The module of the standard library whose (non-generic) class `name` has exactly the fields
// `fields`, in order ("" if none): a stored `Random` or `Builder` with the library's fields is
// the library's, and :open imports its module (with its methods) instead of defining a class
// of that name with the fields only. A program's own class of such a name with other fields is
// not taken for it (its fingerprint would not match the library's either).
std::string stdModuleOfClass(const std::string &stdlib_dir, const std::string &name,
                             const std::vector<std::string> &fields) {
  std::error_code ec;
  const std::string declaration = "class " + name;
  for (const auto &entry : std::filesystem::directory_iterator(stdlib_dir, ec)) {
    if (entry.path().extension() != ".cairn") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    const std::string source = text.str();
    if (source.find(declaration) == std::string::npos) continue;  // most files: not parsed
    front::SourceManager sources;
    front::Diagnostics diags(sources);
    std::unique_ptr<ast::Module> m =
        front::parseModule(sources.add(entry.path().string(), source), diags);
    for (const ast::DeclPtr &d : m->decls) {
      if (d->kind != ast::DeclKind::Class) continue;
      const auto *c = d->as<ast::ClassDecl>();
      if (c->name.name != name || !c->type_params.empty() || c->super != nullptr ||
          c->fields.size() != fields.size())
        continue;
      bool same = true;
      for (size_t i = 0; i < fields.size(); ++i) same = same && c->fields[i].name.name == fields[i];
      if (same) return "std." + entry.path().stem().string();
    }
  }
  return "";
}

// The runtime's own pointer-free blocks (atomic[N]) and the places of dead objects (filler[N]):
// no program defines them, and they are not shown.
bool isRuntimeBlock(const StoredType &t) {
  return t.name.rfind("atomic[", 0) == 0 || t.name.rfind("filler[", 0) == 0;
}

const char *kindWord(uint16_t kind) {
  switch (kind) {
    case CAIRN_KIND_I64:
      return "int";
    case CAIRN_KIND_F64:
      return "float";
    case CAIRN_KIND_BOOL:
      return "bool";
    case CAIRN_KIND_REF:
      return "any";
    case CAIRN_KIND_I8:
      return "i8";
    case CAIRN_KIND_I16:
      return "i16";
    case CAIRN_KIND_I32:
      return "i32";
    case CAIRN_KIND_F32:
      return "f32";
    case CAIRN_KIND_RAW:
      return "address";
    case CAIRN_KIND_STRUCT:
      return "struct";
    default:
      return "?";
  }
}

// Splits "A, B[C, D]" at its top-level commas.
std::vector<std::string> splitArgs(const std::string &s) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    if (!(c == ' ' && cur.empty())) cur += c;
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

ast::TypeExprPtr named(const std::string &name) {
  auto t = std::make_unique<ast::NamedType>();
  t->name.name = name;
  return t;
}

}  // namespace

// The type a declared type of the table stands for in the session, as syntax; `defining` are the
// names being defined now. Unknown classes are `any` (still a reference: the same layout).
static ast::TypeExprPtr typeSyntax(const std::string &declared, uint16_t kind,
                                   const std::set<std::string> &defining,
                                   const front::SessionChecker &checker) {
  if (kind != CAIRN_KIND_REF) return named(kindWord(kind));
  const std::string &d = declared;
  if (d.empty() || d == "any") return named("any");
  if (d == "text") return named("text");
  if (d.size() >= 2 && d.front() == '[' && d.back() == ']') {
    auto a = std::make_unique<ast::ArrayType>();
    a->elem = typeSyntax(d.substr(1, d.size() - 2), CAIRN_KIND_REF, defining, checker);
    // An array of values: the element kind comes from the word itself.
    const std::string inner = d.substr(1, d.size() - 2);
    if (inner == "int" || inner == "float" || inner == "bool") a->elem = named(inner);
    return a;
  }
  if (defining.count(d) || checker.findClass(d) != nullptr) return named(d);
  // Name[args] of a generic class of the session: its instance.
  size_t open = d.find('[');
  if (open != std::string::npos && d.back() == ']' && checker.hasGenericClass(d.substr(0, open))) {
    auto t = std::make_unique<ast::NamedType>();
    t->name.name = d.substr(0, open);
    // A type argument may be a value type (List[int]), which a field's kind does not say.
    for (const std::string &arg : splitArgs(d.substr(open + 1, d.size() - open - 2)))
      t->args.push_back(arg == "int" || arg == "float" || arg == "bool"
                            ? named(arg)
                            : typeSyntax(arg, CAIRN_KIND_REF, defining, checker));
    return t;
  }
  return named("any");
}

// The syntax of a stored type's name when every name in it is a type of the session, a class
// defined now (`defining`) or an instance of a generic class of the session ("[[AtomicPart]]",
// "List[Connection]"); nullptr otherwise.
static ast::TypeExprPtr exactSyntax(const std::string &name, const std::set<std::string> &defining,
                                    const front::SessionChecker &checker) {
  if (name == "int" || name == "float" || name == "bool" || name == "text" || name == "any")
    return named(name);
  if (name.size() >= 2 && name.front() == '[' && name.back() == ']') {
    ast::TypeExprPtr elem = exactSyntax(name.substr(1, name.size() - 2), defining, checker);
    if (!elem) return nullptr;
    auto a = std::make_unique<ast::ArrayType>();
    a->elem = std::move(elem);
    return a;
  }
  if (defining.count(name) || checker.findClass(name) != nullptr) return named(name);
  size_t open = name.find('[');
  if (open == std::string::npos || open == 0 || name.back() != ']' ||
      !checker.hasGenericClass(name.substr(0, open)))
    return nullptr;
  auto t = std::make_unique<ast::NamedType>();
  t->name.name = name.substr(0, open);
  for (const std::string &arg : splitArgs(name.substr(open + 1, name.size() - open - 2))) {
    ast::TypeExprPtr a = exactSyntax(arg, defining, checker);
    if (!a) return nullptr;
    t->args.push_back(std::move(a));
  }
  return t;
}

// A generic instance's name ("List[GenType]") whose generic class the session has: the session
// makes it from that class (with its methods) rather than as a class of its own.
static bool isSessionInstance(const std::string &name, const front::SessionChecker &checker) {
  size_t open = name.find('[');
  return open != std::string::npos && open > 0 && name.back() == ']' &&
         checker.hasGenericClass(name.substr(0, open));
}

bool Session::defineStoredTypes(const std::string &db_name, cairn_db *db,
                                const std::string &bind_name, const std::string &binding,
                                bool *bound, std::string *report) {
  *bound = false;
  types_defined_.insert(db_name);  // what it could not define, it says (no hint at :open then)
  StoredTypes stored;
  if (!readTable(db, &stored)) {
    *report =
        std::string("the type table of '") + db_name + "' could not be read: " + cairn_last_error();
    return false;
  }
  // What the session lacks, and can write.
  std::map<uint64_t, std::string> why_not;  // fingerprint -> reason it is not defined
  std::vector<const StoredType *> wanted;   // classes
  std::vector<const StoredType *> arrays;   // array types
  for (const auto &[fp, t] : stored) {
    if (cairn_find_type(fp) != nullptr || (t.flags & CAIRN_TYPE_TEXT)) continue;
    if (isRuntimeBlock(t)) continue;
    if (t.name.ends_with(CAIRN_REPLACED_BY_UPGRADE)) continue;  // what an upgrade converted
    if (!isPlain(t)) {
      if (t.in_table) arrays.push_back(&t);
      continue;
    }
    wanted.push_back(&t);
  }
  auto expressible = [&](const StoredType &t) -> std::string {
    for (size_t i = 0; i < t.fields.size(); ++i) {
      const StoredField &f = t.fields[i];
      if (f.count != 1) return "field '" + f.name + "' is a fixed array";
      if (f.kind == CAIRN_KIND_STRUCT) {
        if (i != 0) return "field '" + f.name + "' is an inline struct";
        continue;
      }
      if (f.kind != CAIRN_KIND_I64 && f.kind != CAIRN_KIND_F64 && f.kind != CAIRN_KIND_BOOL &&
          f.kind != CAIRN_KIND_REF)
        return "field '" + f.name + "' is of kind " + kindWord(f.kind) +
               ", which Cairn cannot write";
    }
    return "";
  };
  // The base of a type: by the nested layout's fingerprint, else by name (format 1).
  auto baseOf = [&](const StoredType &t) -> const StoredType * {
    if (t.fields.empty() || t.fields[0].kind != CAIRN_KIND_STRUCT) return nullptr;
    if (t.fields[0].nested != 0) return &stored.at(t.fields[0].nested);
    for (const auto &[fp, o] : stored)
      if (o.name == t.fields[0].name && isPlain(o)) return &o;
    return nullptr;
  };
  // A stored type, or a field's declared type, naming an instance of a generic class that the
  // session does not import but a module it imports does (std.map's List[text]), or failing
  // that a module of the standard library (BTree[text, Item]: std.btree): the session imports
  // that class's module first, as if `import std.list` had been typed, so that the instance is
  // made from its class (with its methods) and not as a class of the same name without them,
  // which the module's own instance would then clash with (an `import std.btree` typed after
  // the :open could not be used).
  std::set<std::string> imports;
  auto needs = [&](const std::string &type_name) {
    for (size_t i = 0; i < type_name.size(); ++i) {
      if (type_name[i] != '[' || i == 0) continue;
      const size_t b = front::nameRunStart(type_name, i);
      const std::string generic = type_name.substr(b, i - b);
      if (generic.empty() || checker_->hasGenericClass(generic)) continue;
      std::string module = checker_->genericClassModule(generic);
      if (module.empty()) module = stdModuleDeclaring(options_.stdlib_dir, generic);
      if (!module.empty()) imports.insert(module);
    }
  };
  for (const StoredType *t : wanted) {
    needs(t->name);
    for (const StoredField &f : t->fields) needs(f.type);
    // A non-generic library class (Random, Builder), by its name and fields.
    if (t->name.find('[') == std::string::npos && checker_->findClass(t->name) == nullptr &&
        checker_->findGlobal(t->name) == nullptr && !checker_->hasFunction(t->name)) {
      std::vector<std::string> names;
      for (const StoredField &f : t->fields) names.push_back(f.name);
      std::string module = stdModuleOfClass(options_.stdlib_dir, t->name, names);
      if (!module.empty()) imports.insert(module);
    }
  }
  for (const StoredType *t : arrays) needs(t->name);
  std::string imported;
  for (const std::string &module : imports) {
    Code code;
    code.text = "import " + module;
    code.quiet = true;
    if (!runCode(code)) {
      *report = "could not import " + module + ", which the types of '" + db_name + "' need";
      return false;
    }
    imported += (imported.empty() ? "" : ", ") + module;
  }

  // Two stored types of one name (written by two definitions of a class, as a program may
  // when it has both): the session cannot declare both by that name, so it declares neither.
  std::map<std::string, int> named_times;
  for (const StoredType *t : wanted) ++named_times[t->name];
  for (const StoredType *t : wanted) {
    if (cairn_find_type(t->fingerprint) != nullptr) continue;  // an import just made it
    std::string reason = expressible(*t);
    if (reason.empty() && named_times[t->name] > 1)
      reason = "the database holds " + std::to_string(named_times[t->name]) +
               " types of that name (two definitions of the class); :load the one to read "
               "before :open";
    if (reason.empty() && !t->fields.empty() && t->fields[0].kind == CAIRN_KIND_STRUCT &&
        baseOf(*t) == nullptr)
      reason = "its base class '" + t->fields[0].name +
               "' is not recorded (a database written before store format 2)";
    if (reason.empty()) {
      const front::GlobalInfo *g = checker_->findGlobal(t->name);
      if (g != nullptr || checker_->hasFunction(t->name))
        reason = "its name is taken by a variable or function of the session";
      else if (checker_->findClass(t->name) != nullptr || checker_->hasGenericClass(t->name))
        reason = "the session defines a class '" + t->name + "' with other fields";
    }
    if (!reason.empty()) why_not[t->fingerprint] = reason;
  }
  // A type whose base is not defined is not either (to a fixed point).
  for (bool changed = true; changed;) {
    changed = false;
    for (const StoredType *t : wanted) {
      if (why_not.count(t->fingerprint)) continue;
      const StoredType *base = baseOf(*t);
      if (base != nullptr && cairn_find_type(base->fingerprint) == nullptr &&
          why_not.count(base->fingerprint)) {
        why_not[t->fingerprint] = "its base class '" + base->name + "' is not defined";
        changed = true;
      }
    }
  }

  // "\nnot defined from ...:" and a line per type, by name ("" if none).
  auto notesOn = [&](const std::map<uint64_t, std::string> &reasons) {
    std::vector<std::string> lines;
    for (const auto &[fp, reason] : reasons) lines.push_back(stored.at(fp).name + ": " + reason);
    std::sort(lines.begin(), lines.end());
    std::string notes;
    for (const std::string &l : lines) notes += "\n  " + l;
    if (!notes.empty()) notes = "\nnot defined from the type table of '" + db_name + "':" + notes;
    return notes;
  };

  // Until an attempt works: a generic instance the session's generic class makes with another
  // layout, or cannot make, is not defined, and the types are defined again without it.
  for (int attempt = 0;; ++attempt) {
    std::set<std::string> defining;  // the classes declared now (not generic instances)
    std::vector<const StoredType *> instances;
    for (const StoredType *t : wanted) {
      if (why_not.count(t->fingerprint)) continue;
      if (isSessionInstance(t->name, *checker_))
        instances.push_back(t);
      else
        defining.insert(t->name);
    }

    // Bases first.
    std::vector<const StoredType *> order;
    std::set<uint64_t> placed;
    std::function<void(const StoredType *)> place = [&](const StoredType *t) {
      if (placed.count(t->fingerprint) || why_not.count(t->fingerprint)) return;
      if (!defining.count(t->name) || cairn_find_type(t->fingerprint) != nullptr) return;
      placed.insert(t->fingerprint);
      if (const StoredType *b = baseOf(*t)) place(b);
      order.push_back(t);
    };
    for (const StoredType *t : wanted) place(t);

    auto input = std::make_unique<ast::Input>();
    for (const StoredType *t : order) {
      auto cls = std::make_unique<ast::ClassDecl>();
      cls->name.name = t->name;
      size_t first = 0;
      if (const StoredType *b = baseOf(*t)) {
        // The base as the session names it (its own class, or the one defined now).
        std::string base_name = b->name;
        for (const front::ClassInfo *c : checker_->classesNamed(b->name))
          if (fingerprints_.count(c) && fingerprints_.at(c) == b->fingerprint) base_name = c->name;
        cls->super = named(base_name);
        first = 1;
      }
      for (size_t i = first; i < t->fields.size(); ++i) {
        const StoredField &f = t->fields[i];
        ast::FieldDecl fd;
        fd.name.name = f.name;
        fd.type = typeSyntax(f.type, f.kind, defining, *checker_);
        cls->fields.push_back(std::move(fd));
      }
      ast::InputItem item;
      item.decl = std::move(cls);
      input->items.push_back(std::move(item));
    }
    // Generic instances and array types: their descriptors come with the input's code.
    std::vector<const StoredType *> used;
    for (const StoredType *t : instances) {
      if (ast::TypeExprPtr syntax = exactSyntax(t->name, defining, *checker_)) {
        input->types_used.push_back(std::move(syntax));
        used.push_back(t);
      } else {
        why_not[t->fingerprint] = "a type it names is not defined";
      }
    }
    for (const StoredType *t : arrays) {
      if (why_not.count(t->fingerprint)) continue;
      if (ast::TypeExprPtr syntax = exactSyntax(t->name, defining, *checker_)) {
        input->types_used.push_back(std::move(syntax));
        used.push_back(t);
      } else {
        why_not[t->fingerprint] = "its element type is not defined";
      }
    }

    std::string notes = notesOn(why_not);
    if (input->items.empty() && input->types_used.empty()) {
      *report = notes.empty() ? "" : notes.substr(1);
      if (!imported.empty())
        *report = "imported " + imported + " (the types of '" + db_name + "' use its classes)" +
                  (report->empty() ? "" : "\n") + *report;
      return true;
    }
    // The binding joins the input (an input of the session's numbering, as if typed).
    const bool binds = !binding.empty() && !defining.count(bind_name);
    if (binds) {
      const front::SourceFile &file =
          sources_.add("<input " + std::to_string(inputs_ + 1) + ">", binding);
      diags_.clear();
      std::unique_ptr<ast::Input> parsed = front::parseInput(file, diags_);
      if (diags_.hasErrors()) {
        printDiagnostics();
        *report = "internal error: the binding of '" + db_name + "' does not parse";
        return false;
      }
      for (ast::InputItem &item : parsed->items) input->items.push_back(std::move(item));
    }

    diags_.clear();
    std::unique_ptr<front::InputUnit> unit = checker_->check(std::move(input), ".");
    if (!unit && !used.empty() && attempt == 0) {
      // The session's generic classes could not make an instance (another number of type
      // parameters, a bound): define the rest without the instances.
      diags_.clear();
      for (const StoredType *t : instances)
        why_not[t->fingerprint] = "the session's generic class of that name cannot make it";
      continue;
    }
    if (!unit) {
      printDiagnostics();
      *report = "the types of '" + db_name + "' could not be defined (the messages above say why)";
      return false;
    }
    // Each class must have exactly the stored fingerprint, or its objects would not be read.
    std::vector<std::string> defined_names;
    bool retry = false;
    for (const front::ClassInfo *cls : unit->classes) {
      for (const StoredType *t : order) {
        if (t->name != cls->name) continue;
        if (classFingerprint(cls) != t->fingerprint) {
          checker_->reject();
          *report = "internal error: the class made for type '" + t->name + "' of '" + db_name +
                    "' does not have the stored fingerprint; please report it";
          return false;
        }
        defined_names.push_back(t->name);
      }
      for (const StoredType *t : instances) {
        if (t->name != cls->name || why_not.count(t->fingerprint)) continue;
        if (classFingerprint(cls) != t->fingerprint) {
          why_not[t->fingerprint] = "the session's generic class makes it with other fields";
          retry = true;
        } else {
          defined_names.push_back(t->name);
        }
      }
    }
    if (retry) {
      checker_->reject();
      continue;
    }
    std::vector<std::shared_ptr<Unit>> units;
    std::shared_ptr<Unit> run_unit;
    front::Span unused;  // the types are the database's, not typed at a prompt
    if (!validateClasses(*unit, report, &unused) || !compileAndLoad(*unit, &units, &run_unit)) {
      checker_->reject();
      return false;
    }
    checker_->accept();
    if (binds) {
      ++inputs_;
      if (unit->run != nullptr && !runInput(*unit, run_unit, -1, true)) {
        *report = "'" + db_name + "' could not be bound to the name " + bind_name;
        return false;
      }
      *bound = true;
    }
    // Array types are listed when no field of a class defined now declares them.
    std::set<std::string> declared;
    for (const StoredType *t : wanted)
      for (const StoredField &f : t->fields) declared.insert(f.type);
    for (const StoredType *t : arrays) {
      if (why_not.count(t->fingerprint)) continue;
      if (cairn_find_type(t->fingerprint) == nullptr)
        why_not[t->fingerprint] = "the session makes it with another layout";
      else if (!declared.count(t->name))
        defined_names.push_back(t->name);
    }
    notes = notesOn(why_not);
    std::sort(defined_names.begin(), defined_names.end());
    std::string defined;
    for (const std::string &n : defined_names) defined += (defined.empty() ? "" : ", ") + n;
    if (defined.empty())
      *report = notes.empty() ? "" : notes.substr(1);
    else
      *report = "defined from the type table of '" + db_name + "': " + defined + notes;
    if (!imported.empty())
      *report = "imported " + imported + " (the types of '" + db_name + "' use its classes)" +
                (report->empty() ? "" : "\n") + *report;
    return true;
  }
}

bool Session::typesOf(const std::string &db_name) {
  cairn_db *db = openDatabase(db_name);
  std::string missing;
  if (db == nullptr &&
      (noStore(db_name, &missing) || cairn_db_open(db_name.c_str(), &db) != CAIRN_OK)) {
    reportError(missing.empty() ? std::string(cairn_last_error()) : missing);
    ++failures_;
    return true;
  }
  StoredTypes stored;
  if (!readTable(db, &stored)) {
    reportError(cairn_last_error());
    ++failures_;
    return true;
  }
  std::vector<std::string> lines;  // sorted by name
  for (const auto &[fp, t] : stored) {
    if (!t.in_table || isRuntimeBlock(t) || (t.flags & CAIRN_TYPE_TEXT)) continue;
    std::string line = t.name;
    if (!isPlain(t)) {
      lines.push_back(line + " (array)");
      continue;
    }
    size_t first = 0;
    if (!t.fields.empty() && t.fields[0].kind == CAIRN_KIND_STRUCT) {
      line += " : " + t.fields[0].name;
      first = 1;
    }
    line += " {";
    for (size_t i = first; i < t.fields.size(); ++i) {
      const StoredField &f = t.fields[i];
      std::string type = f.type.empty() ? kindWord(f.kind) : f.type;
      if (f.count != 1) type += "[" + std::to_string(f.count) + "]";
      line += std::string(i == first ? " " : ", ") + f.name + ": " + type;
    }
    line += t.fields.size() > first ? " }" : "}";
    if (cairn_find_type(fp) == nullptr) line += "  (not defined in the session)";
    lines.push_back(line);
  }
  std::sort(lines.begin(), lines.end());
  for (const std::string &l : lines) std::printf("%s\n", l.c_str());
  // A database whose root is nil, a text or an array of values stores no class: said, not
  // nothing printed.
  if (lines.empty()) std::printf("(no classes stored in '%s')\n", db_name.c_str());
  return true;
}

}  // namespace cairn::repl
