// The REPL's session: code inputs (session.h).
#include "session.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/DynamicLibrary.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "cairn/lang.h"
#include "cairn/store.h"
#include "fingerprint.h"
#include "guard.h"
#include "lexer/lexer.h"
#include "lower/emit.h"
#include "lower/lower.h"
#include "output.h"
#include "syntax/parser.h"
#include "txn_scan.h"

namespace cairn::repl {
namespace {

using front::FunctionRole;

// The message of a module whose types the runtime refused (cairn_set_module_error_handler).
std::string refused_types;

void onModuleError(cairn_status, const char *message, void *) {
  if (refused_types.empty()) refused_types = message;
}

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "%016" PRIx64, v);
  return b;
}

// The session whose :begin, or whose input's own transaction, an exit() may end (the note at
// exit, NoteExitInTransaction).
const bool *exit_txn_flag = nullptr;
const bool *exit_implicit_flag = nullptr;

// At the process's exit: exit() in an input ended the session while :begin's transaction, or
// the input's own, was open (the runtime has aborted it): say so, as the end of a session does
// (an input's changes were lost without a word, status 0).
void NoteExitInTransaction() {
  const bool begun = exit_txn_flag != nullptr && *exit_txn_flag;
  const bool own = exit_implicit_flag != nullptr && *exit_implicit_flag;
  if (!begun && !own) return;
  std::fflush(stdout);
  if (begun) {
    std::fprintf(stderr,
                 "note: the session ended (exit(), or a fatal error) with the transaction "
                 "begun with :begin open: it was aborted, and none of its changes are in the "
                 "database\n");
  } else {
    std::fprintf(stderr,
                 "note: the session ended (exit(), or a fatal error) during an input, whose "
                 "transaction was aborted: any changes it made to databases are not in them "
                 "(an input's changes are committed when it ends)\n");
  }
  std::fflush(stderr);
}

}  // namespace

Session::Session(SessionOptions options) : options_(std::move(options)) {
  front::SessionOptions so;
  so.search_paths = options_.search_paths;
  so.stdlib_dir = options_.stdlib_dir;
  checker_ = std::make_unique<front::SessionChecker>(sources_, diags_, types_, so);
}

bool Session::start() {
  if (!options_.store_dir.empty()) setenv("CAIRN_STORE", options_.store_dir.c_str(), 1);
  if (cairn_init(nullptr) != CAIRN_OK) {
    std::fprintf(stderr, "cairn: the heap could not be set up: %s\n", cairn_last_error());
    return false;
  }
  std::string error;
  jit_ = Jit::create(&error);
  if (!jit_) {
    std::fprintf(stderr, "cairn: the JIT could not be set up: %s\n", error.c_str());
    return false;
  }
  installGuardHooks();
  exit_txn_flag = &explicit_txn_;
  exit_implicit_flag = &implicit_txn_;
  std::atexit(NoteExitInTransaction);
  cairn_lang_set_outer_transaction_hook(&Session::YieldImplicit, this);
  // A recursion too deep in an input is a runtime error that ends only that input.
  if (cairn_lang_catch_stack_overflow() != 0)
    std::fprintf(stderr, "cairn: warning: a recursion too deep will end the session\n");
  cairn_set_module_error_handler(onModuleError, nullptr);
  return true;
}

// --- Input ----------------------------------------------------------------------------------

bool Session::isComplete(const std::string &text) {
  // A blank line ends any input, so that a mistake never leaves the prompt waiting.
  if (text.size() >= 2 && text.compare(text.size() - 2, 2, "\n\n") == 0) return true;
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || text[first] == ':') return true;
  front::SourceManager sources;
  front::Diagnostics diags(sources);
  const front::SourceFile &file = sources.add("<input>", text);
  std::vector<front::Token> tokens = front::tokenize(file, diags);
  for (const front::Diagnostic &d : diags.all())
    if (d.id == front::DiagId::UnterminatedComment) return false;
  int depth = 0;
  front::TokenKind last = front::TokenKind::Eof;
  bool last_new = false;  // the name `new`, which the type on the next line follows (lexer.h 3a)
  for (const front::Token &t : tokens) {
    switch (t.kind) {
      case front::TokenKind::LParen:
      case front::TokenKind::LBracket:
      case front::TokenKind::LBrace:
        ++depth;
        break;
      case front::TokenKind::RParen:
      case front::TokenKind::RBracket:
      case front::TokenKind::RBrace:
        if (depth > 0) --depth;
        break;
      default:
        break;
    }
    if (t.kind != front::TokenKind::Newline && t.kind != front::TokenKind::Eof) {
      last = t.kind;
      last_new = t.kind == front::TokenKind::Ident && t.text == "new";
    }
  }
  if (depth > 0 || last_new) return false;
  switch (last) {
    case front::TokenKind::Eof:
    case front::TokenKind::Ident:
    case front::TokenKind::Int:
    case front::TokenKind::Float:
    case front::TokenKind::Text:
    case front::TokenKind::KwTrue:
    case front::TokenKind::KwFalse:
    case front::TokenKind::KwNil:
    case front::TokenKind::KwSelf:
    case front::TokenKind::KwReturn:
    case front::TokenKind::KwBreak:
    case front::TokenKind::KwContinue:
    case front::TokenKind::RParen:
    case front::TokenKind::RBracket:
    case front::TokenKind::RBrace:
    case front::TokenKind::Semi:
    case front::TokenKind::Invalid:
      return true;
    default:
      return false;  // an operator, ',', '.', '->', a keyword that needs more
  }
}

bool Session::handle(const std::string &text) {
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return true;
  bool go_on = true;
  if (text[first] == ':') {
    go_on = runCommand(text.substr(first));
  } else {
    Code code;
    code.text = text;
    runCode(code);
  }
  endLine();  // a line the input left open, before the next prompt
  std::fflush(stderr);
  return go_on;
}

void Session::printDiagnostics() {
  endLine();
  diags_.print(stderr, options_.color);
  std::fflush(stderr);
}

void Session::finish() {
  if (!cairn_txn_is_open()) return;
  endLine();
  std::fprintf(stderr,
               "note: the open transaction%s was not committed: it is aborted, and none of its "
               "changes are in the database (%s before :quit keeps them)\n",
               explicit_txn_ ? " (begun with :begin)" : " (begun by code)",
               explicit_txn_ ? ":commit" : "its commit()");
  std::fflush(stderr);
  cairn_txn_abort();
  explicit_txn_ = false;
}

Session::~Session() {
  if (exit_txn_flag == &explicit_txn_) exit_txn_flag = nullptr;
  if (exit_implicit_flag == &implicit_txn_) exit_implicit_flag = nullptr;
  cairn_lang_set_outer_transaction_hook(nullptr, nullptr);
}

void Session::reportError(const std::string &message, const std::string &where) {
  endLine();
  std::fprintf(stderr, "%s%serror: %s\n", where.c_str(), where.empty() ? "" : ": ",
               message.c_str());
  std::fflush(stderr);
}

void Session::reportRuntimeFailure(const RuntimeFailure &f, const std::string &running) {
  endLine();
  std::string where = running + ": ";
  if (!f.file.empty())
    where = f.file + ":" + std::to_string(f.line) + ":" + std::to_string(f.col) + ": ";
  std::fprintf(stderr, "%s%s: %s\n", where.c_str(), f.fault ? "fault error" : "runtime error",
               f.message.c_str());
  // The line of the input with a caret under the place, when the place is an input's; when the
  // place is not known, the input's lines (its first three) without one.
  const std::string &shown = f.file.empty() ? running : f.file;
  for (uint32_t id = 0; id < sources_.size(); ++id) {
    const front::SourceFile &file = sources_.file(id);
    if (file.path() != shown) continue;
    const uint32_t first = f.file.empty() ? 1 : f.line, last = f.file.empty() ? 3 : f.line;
    for (uint32_t n = first; n <= last && n > 0; ++n) {
      std::string_view line = file.lineText(n);
      if (f.file.empty() && line.empty() && n > 1) break;
      std::string number = std::to_string(n);
      std::fprintf(stderr, "   %s | %.*s\n", number.c_str(), static_cast<int>(line.size()),
                   line.data());
      if (!f.file.empty())
        std::fprintf(stderr, "   %s | %s^\n", std::string(number.size(), ' ').c_str(),
                     std::string(f.col > 0 ? f.col - 1 : 0, ' ').c_str());
    }
    break;
  }
  // A type the session lacks: the runtime's advice (build the program with the definition) is a
  // program's; the session has its own way.
  if (f.fault && f.code == CAIRN_TYPE_MISMATCH && !f.database.empty() &&
      types_defined_.count(f.database) == 0)
    std::fprintf(stderr,
                 "hint: `:open %s` defines the types stored in '%s' that the session lacks "
                 "(`Database.open` in code defines none)\n",
                 f.database.c_str(), f.database.c_str());
  std::fflush(stderr);
}

bool Session::runCode(const Code &code) {
  ++inputs_;
  const std::string name =
      code.source_name.empty() ? "<input " + std::to_string(inputs_) + ">" : code.source_name;
  const front::SourceFile &file = sources_.add(name, code.text);
  diags_.clear();
  std::unique_ptr<front::ast::Input> input = front::parseInput(file, diags_);
  if (diags_.hasErrors()) {
    printDiagnostics();
    ++failures_;
    return false;
  }
  std::unique_ptr<front::InputUnit> unit = checker_->check(std::move(input), code.import_root);
  if (!diags_.all().empty()) printDiagnostics();
  if (!unit) {
    ++failures_;
    return false;
  }
  if (code.type_only) {
    if (unit->value != nullptr) {
      std::printf("%s\n", front::typeName(unit->value->type).c_str());
    } else if (unit->run != nullptr && unit->run->body->stmts.size() == 1 &&
               unit->run->body->stmts[0]->kind == front::sem::StmtKind::Expr) {
      std::printf("no value\n");
    } else {
      checker_->reject();
      reportError(":type needs an expression");
      ++failures_;
      return false;
    }
    checker_->reject();
    return true;
  }
  if (code.value_only && unit->value == nullptr) {
    // :show let z = 1 defined z, saying nothing (:type refuses it).
    checker_->reject();
    reportError(":show needs an expression");
    ++failures_;
    return false;
  }
  std::string why;
  front::Span at;
  if (!validateClasses(*unit, &why, &at)) {
    checker_->reject();
    // At the class's name, as the checker's errors are (campaign R: it had no position), when
    // this input declares it (an instance of an earlier input's generic class: the input).
    std::string where = name;
    if (at.valid() && sources_.file(at.file).path() == name) {
      const front::LineCol lc = sources_.file(at.file).lineCol(at.begin);
      where = sources_.file(at.file).path() + ":" + std::to_string(lc.line) + ":" +
              std::to_string(lc.col);
    }
    reportError(why, where);
    ++failures_;
    return false;
  }
  std::vector<std::shared_ptr<Unit>> units;
  std::shared_ptr<Unit> run_unit;
  if (!compileAndLoad(*unit, &units, &run_unit)) {
    checker_->reject();
    ++failures_;
    return false;
  }
  checker_->accept();
  if (unit->run == nullptr) return true;
  if (!runInput(*unit, run_unit, code.depth, code.quiet)) {
    ++failures_;
    return false;
  }
  return true;
}

const front::Type *Session::typeOf(const std::string &expr) {
  const front::SourceFile &file = sources_.add("<completion>", expr);
  diags_.clear();
  std::unique_ptr<front::ast::Input> input = front::parseInput(file, diags_);
  if (diags_.hasErrors()) {
    diags_.clear();
    return nullptr;
  }
  std::unique_ptr<front::InputUnit> unit = checker_->check(std::move(input), ".");
  diags_.clear();
  if (!unit) return nullptr;
  const front::Type *t = unit->value ? unit->value->type : nullptr;
  checker_->reject();
  return t;
}

// --- Compiling ----------------------------------------------------------------------------

std::string Session::callSymbol(const front::FuncInfo *f) {
  if (f->owner != nullptr) {
    uint64_t fp;
    auto it = fingerprints_.find(f->owner);
    fp = it != fingerprints_.end() ? it->second : classFingerprint(f->owner);
    return f->owner->name + "#" + hex(fp) + "." + f->name + " " + typeKey(f->fnType);
  }
  if (f->module == checker_->module() && f->decl != nullptr && f->literal == nullptr &&
      !f->is_extern) {
    // By key: `fn f(p: P)` after P was defined again with other fields is another signature.
    if (f->type_args.empty()) return f->module->name + "." + f->name + " " + typeKey(f->fnType);
    // An instance of a generic function: its stub is the instance's of any definition of that
    // name with these type arguments and this signature (a class among them by its layout too,
    // as two classes of one name may be in a session).
    std::string args;
    for (const front::Type *t : f->type_args) args += (args.empty() ? "" : ", ") + typeKey(t);
    return f->module->name + "." + f->name + "[" + args + "] " + typeKey(f->fnType);
  }
  return "";
}

std::string Session::typeKey(const front::Type *t) {
  switch (t->kind) {
    case front::TypeKind::Class: {
      auto it = fingerprints_.find(t->cls);
      // A generic instance by its type arguments' keys too: its fingerprint has only their
      // kinds (Box[P] of two definitions of P has one layout).
      std::string args;
      for (const front::Type *a : t->cls->type_args)
        args += (args.empty() ? "" : ", ") + typeKey(a);
      return t->cls->name + (args.empty() ? "" : "<" + args + ">") + "#" +
             hex(it != fingerprints_.end() ? it->second : classFingerprint(t->cls));
    }
    case front::TypeKind::Array:
      return "[" + typeKey(t->elem) + "]";
    case front::TypeKind::Fn: {
      std::string key = "fn(";
      for (size_t i = 0; i < t->params.size(); ++i)
        key += (i > 0 ? ", " : "") + typeKey(t->params[i]);
      return key + ") -> " + typeKey(t->ret);
    }
    default:
      return front::typeName(t);
  }
}

// Why `now` (in a redefined class) differs from `was` though both are written the same: a class
// it names was defined again with other fields ("" when they are written differently).
std::string Session::sameNameWhy(const front::Type *was, const front::Type *now) {
  if (front::typeName(was) != front::typeName(now)) return "";
  return " (written the same, but a class it names was defined again with other fields since)";
}

bool Session::validateClasses(const front::InputUnit &unit, std::string *why, front::Span *at) {
  // An array type is one descriptor at run time by its name ([P]): one of a class defined again
  // with other fields would be taken for the earlier one's by `is` and `as`.
  for (const front::Type *t : unit.array_types) {
    const std::string name = front::typeName(t), key = typeKey(t);
    auto made = array_keys_.find(name);
    if (made == array_keys_.end() || made->second == key) continue;
    *why = "the array type " + name +
           " cannot be made of the class as defined now: the session made " + name +
           " of an earlier definition with other fields, and at run time both are one type, so "
           "arrays of one would be taken for arrays of the other. Give the new class another "
           "name, or start a new session (to :load a changed file again)";
    return false;
  }
  for (const front::ClassInfo *cls : unit.classes) {
    *at = cls->decl != nullptr ? cls->decl->name.span : front::Span{};  // where an error points
    const uint64_t fp = classFingerprint(cls);
    auto current = latest_class_.find(cls->name);
    const front::ClassInfo *latest = current == latest_class_.end() ? nullptr : current->second;
    for (const front::ClassInfo *p : checker_->classesNamed(cls->name)) {
      auto known = fingerprints_.find(p);
      if (known == fingerprints_.end()) continue;  // made by this input
      if (known->second != fp) continue;
      // The same layout: one canonical descriptor, one method table for both (plugin.md). So
      // its reference fields must keep their declared types too (the fingerprint has only a
      // field's kind, the runtime's registration the declared type).
      // By key: a class a field names may have been defined again with other fields (a generic
      // instance, Box[P], made again of the new P has the old one's layout).
      for (size_t i = 0; i < p->fields.size() && i < cls->fields.size(); ++i) {
        const front::Type *was = p->fields[i]->type, *now = cls->fields[i]->type;
        if (typeKey(was) == typeKey(now)) continue;
        if (!cls->type_args.empty()) {
          *why = "class '" + cls->name +
                 "' cannot be made of the classes as defined now: its field '" +
                 cls->fields[i]->name + "' is of type " + front::typeName(now) +
                 sameNameWhy(was, now) + ", and the session made '" + cls->name +
                 "' of the earlier definition, which is one type with it at run time (the same "
                 "name and layout), so objects of one would be taken for the other's. Give the "
                 "new class another name, or start a new session (to :load a changed file "
                 "again)";
          return false;
        }
        *why = "class '" + cls->name + "' is defined again with field '" + cls->fields[i]->name +
               "' of type " + front::typeName(now) + ", declared " + front::typeName(was) +
               " before" + sameNameWhy(was, now) +
               ": the same layout (a reference) with another type, which a session "
               "cannot hold under one name. Keep the field's type, or give the class another "
               "name";
        return false;
      }
      std::string differs;
      if (p->vtable.size() != cls->vtable.size()) {
        differs = "it has " + std::to_string(cls->vtable.size()) +
                  (cls->vtable.size() == 1 ? " method, " : " methods, ") +
                  std::to_string(p->vtable.size()) + " before";
      } else {
        for (size_t i = 0; i < p->vtable.size() && differs.empty(); ++i) {
          const front::FuncInfo *a = p->vtable[i];
          const front::FuncInfo *b = cls->vtable[i];
          if (a->name != b->name || typeKey(a->fnType) != typeKey(b->fnType) ||
              a->owner->name != b->owner->name)
            differs = "method " + std::to_string(i + 1) + " was '" + a->owner->name + "." +
                      a->name + "' of type " + front::typeName(a->fnType) + ", now '" +
                      b->owner->name + "." + b->name + "' of type " + front::typeName(b->fnType) +
                      sameNameWhy(a->fnType, b->fnType);
        }
      }
      if (!differs.empty()) {
        *why = "class '" + cls->name +
               "' is defined again with the same fields but other methods (" + differs +
               "); its objects share one method table in a session, so a redefinition may "
               "change method bodies only: keep the methods' names, order and types, or give "
               "the class another name";
        return false;
      }
    }
    // Other fields: a new type. Refused while a transaction is open (objects of the current
    // definition made in it would be committed beside objects of the new one, under one name,
    // which no session or program could read all of), and while an open database holds objects
    // of the current definition: the session would no longer have a class to read them with by
    // that name.
    if (latest != nullptr && fingerprints_.at(latest) != fp &&
        (explicit_txn_ || cairn_txn_is_open())) {
      *why = "class '" + cls->name +
             "' cannot be defined again with other fields while a transaction is open: objects "
             "of its current definition made in it would be committed beside objects of the new "
             "one, under one name. " +
             std::string(explicit_txn_ ? ":commit or :abort first"
                                       : "Commit or abort it first (its handle's commit() or "
                                         "abort(); it was begun by code, not :begin)");
      return false;
    }
    if (latest != nullptr && fingerprints_.at(latest) != fp) {
      const std::string db = databaseHolding(fingerprints_.at(latest));
      if (!db.empty()) {
        *why = "class '" + cls->name + "' has instances stored in database '" + db +
               "' (its type table holds '" + cls->name +
               "' as defined now), so it cannot be defined again with other fields: objects of "
               "the new definition could not be stored beside them, nor the old ones read by "
               "that name. Keep the definition, or give the new class another name";
        return false;
      }
      // Its fields are also those of its subclasses' objects: one stored (the type table lists
      // the subclass, not the base) holds the current definition as well.
      for (const auto &[sub, sub_fp] : fingerprints_) {
        if (sub == latest || !sub->isSubclassOf(latest)) continue;
        const std::string held = databaseHolding(sub_fp);
        if (held.empty()) continue;
        *why = "class '" + cls->name + "' is the base class of '" + sub->name +
               "', whose instances are stored in database '" + held + "' with the fields of '" +
               cls->name +
               "' as defined now, so it cannot be defined again with other fields: the "
               "session could not read them, nor store objects of the new definition beside "
               "them. Keep the definition, or give the new class another name";
        return false;
      }
    }
  }
  return true;
}

std::string Session::databaseHolding(uint64_t fingerprint) {
  if (cairn_store_dir() == nullptr) return "";
  struct Search {
    uint64_t fingerprint;
    std::string found;
  } search{fingerprint, ""};
  cairn_db_each_open(
      [](cairn_db *db, void *ctx) {
        auto *s = static_cast<Search *>(ctx);
        if (!s->found.empty()) return;
        struct Hit {
          uint64_t fingerprint;
          bool hit = false;
        } hit{s->fingerprint};
        cairn_db_stored_types(
            db,
            [](const cairn_type *t, void *c) {
              auto *h = static_cast<Hit *>(c);
              h->hit = h->hit || t->fingerprint == h->fingerprint;
            },
            &hit);
        if (hit.hit) s->found = cairn_db_name(db);
      },
      &search);
  return search.found;
}

bool Session::compileAndLoad(front::InputUnit &unit, std::vector<std::shared_ptr<Unit>> *units,
                             std::shared_ptr<Unit> *run_unit) {
  const std::string tag = "@" + std::to_string(unit.number);
  // Which function goes where (see session.h).
  front::UnitSpec permanent;
  permanent.name = "input" + tag;
  permanent.classes = unit.classes;
  permanent.array_types = unit.array_types;
  for (const front::GlobalInfo *g : unit.globals) permanent.globals.push_back(g);
  std::vector<front::UnitSpec> specs;
  std::map<const front::ClassInfo *, size_t> method_spec;
  std::vector<const front::FuncInfo *> stubbed;
  const front::sem::Function *run = nullptr;
  for (const front::CheckedFunction &cf : unit.functions) {
    const front::sem::Function *fn = cf.fn.get();
    switch (cf.role) {
      case FunctionRole::Fixed:
        permanent.functions.push_back(fn);
        break;
      case FunctionRole::Run:
        run = fn;
        break;
      case FunctionRole::Function: {
        front::UnitSpec s;
        s.name = "fn " + fn->info->symbol;  // unique: two instances may share a name
        s.functions.push_back(fn);
        specs.push_back(std::move(s));
        stubbed.push_back(fn->info);
        break;
      }
      case FunctionRole::Method: {
        auto it = method_spec.find(fn->info->owner);
        if (it == method_spec.end()) {
          front::UnitSpec s;
          s.name = "methods " + fn->info->owner->symbol + tag;  // unique (S1)
          specs.push_back(std::move(s));
          it = method_spec.emplace(fn->info->owner, specs.size() - 1).first;
        }
        specs[it->second].functions.push_back(fn);
        stubbed.push_back(fn->info);
        break;
      }
    }
  }
  specs.insert(specs.begin(), std::move(permanent));
  if (run != nullptr) {
    front::UnitSpec s;
    s.name = "run" + tag;
    s.functions.push_back(run);
    specs.push_back(std::move(s));
  }
  // The new classes' fingerprints are known before their methods' stubs are named.
  for (const front::ClassInfo *cls : unit.classes) fingerprints_[cls] = classFingerprint(cls);

  auto ctx = std::make_unique<llvm::LLVMContext>();
  llvm::orc::ThreadSafeContext tsctx(std::move(ctx));
  std::vector<std::unique_ptr<llvm::Module>> modules;
  front::LowerOptions lo;
  lo.optimized = options_.opt_level > 0;
  lo.interruptible = true;  // Ctrl-C ends a loop (guard.h)
  front::EmitOptions eo;
  eo.opt_level = options_.opt_level;
  auto fail = [&](const std::string &message) {
    for (const front::ClassInfo *cls : unit.classes) fingerprints_.erase(cls);
    reportError(message);
    return false;
  };
  for (front::UnitSpec &s : specs) {
    s.call_symbol = [this](const front::FuncInfo *f) { return callSymbol(f); };
    // An extern fn whose C function this process lacks: calling it is the error (repl.md).
    s.extern_missing = [](const front::FuncInfo *f) {
      return llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(f->symbol) == nullptr;
    };
    s.init_symbol = s.name + ".init";
    std::unique_ptr<llvm::Module> m = front::lowerUnit(s, sources_, *tsctx.getContext(), lo);
    m->setTargetTriple(jit_->triple());
    m->setDataLayout(jit_->dataLayout());
    std::string error;
    if (!front::optimizeModule(*m, jit_->targetMachine(), eo, &error))
      return fail("internal error while compiling the input: " + error);
    modules.push_back(std::move(m));
  }
  for (const front::FuncInfo *f : stubbed)
    if (llvm::Error e = jit_->ensureStub(callSymbol(f))) return fail(jit_->explain(std::move(e)));

  // Into the JIT, then the constructors: the permanent unit's first (its classes are then
  // registered, with their method tables, before any other unit registers them), the run unit's
  // last.
  refused_types.clear();
  for (std::unique_ptr<llvm::Module> &m : modules) {
    std::shared_ptr<Unit> u;
    if (llvm::Error e = jit_->add(llvm::orc::ThreadSafeModule(std::move(m), tsctx), &u))
      return fail(jit_->explain(std::move(e)));
    units->push_back(u);
  }
  auto discard = [&](const std::string &message) {
    for (auto &u : *units) llvm::consumeError(jit_->remove(*u));
    return fail(message);
  };
  for (auto &u : *units) {
    if (llvm::Error e = jit_->runConstructors(*u)) return discard(jit_->explain(std::move(e)));
    if (!refused_types.empty()) return discard(refused_types);
  }
  for (auto &u : *units) {
    auto init = jit_->lookup(u->name + ".init");
    if (!init) return discard(jit_->explain(init.takeError()));
    reinterpret_cast<void (*)()>(*init)();
  }
  // Each class's descriptor has the fingerprint the session worked out for it.
  for (const front::ClassInfo *cls : unit.classes) {
    const cairn_type *t = cairn_find_type(fingerprints_[cls]);
    if (t == nullptr || cls->name != t->name)
      reportError("internal error: class '" + cls->name +
                  "' got a fingerprint other than the session expected (" +
                  hex(fingerprints_[cls]) + "); please report it");
  }
  // The stubs lead to the new bodies; a unit no stub leads into any more is removed.
  for (const front::FuncInfo *f : stubbed) {
    const std::string key = callSymbol(f);
    auto addr = jit_->lookup(f->symbol);
    if (!addr) return discard(jit_->explain(addr.takeError()));
    std::shared_ptr<Unit> body;
    for (size_t i = 0; i < specs.size(); ++i)
      for (const front::sem::Function *fn : specs[i].functions)
        if (fn->info == f) body = (*units)[i];
    if (llvm::Error e = jit_->pointStub(key, *addr)) return discard(jit_->explain(std::move(e)));
    std::shared_ptr<Unit> old = stub_target_[key];
    stub_target_[key] = body;
    ++stubs_into_[body.get()];
    if (old && --stubs_into_[old.get()] == 0) {
      stubs_into_.erase(old.get());
      llvm::consumeError(jit_->remove(*old));
    }
  }
  permanent_.push_back(units->front());
  if (run != nullptr) *run_unit = units->back();
  for (const front::CheckedFunction &cf : unit.functions) {
    TxnFacts &facts = txn_facts_[factsKey(cf.fn->info)] = scanTransactions(*cf.fn);
    facts.run = cf.role == front::FunctionRole::Run;
  }
  releaseRetiredGlobals(unit);
  for (const front::ClassInfo *cls : unit.classes) {
    // The same layout as the definition it replaces (validateClasses checked the methods too):
    // the same type for the checker, as it is one descriptor at run time.
    auto replaced = latest_class_.find(cls->name);
    if (replaced != latest_class_.end() &&
        fingerprints_.at(replaced->second) == fingerprints_.at(cls)) {
      for (front::ClassInfo *c : checker_->classesNamed(cls->name))
        if (c == cls) c->same_as = replaced->second->canonical();
    }
    latest_class_[cls->name] = cls;
  }
  for (const front::Type *t : unit.array_types) array_keys_.emplace(front::typeName(t), typeKey(t));
  return true;
}

void Session::releaseRetiredGlobals(const front::InputUnit &unit) {
  // A variable declared again with another type is a new one (docs/repl.md): the old one's
  // storage stays for the code compiled before that uses it, and is a root of the collector.
  for (const front::GlobalInfo *g : unit.globals) {
    if (g->module != checker_->module()) continue;
    auto [at, fresh] = session_globals_.emplace(g->name, g);
    if (fresh || at->second == g) continue;
    retired_globals_.push_back(at->second);
    at->second = g;
  }
  // Once no function's current body (stubs lead to the newest) uses it, nothing can reach its
  // value but its storage: cleared, it is garbage (it was kept alive for the whole session).
  std::set<const front::GlobalInfo *> used;
  for (const auto &[key, facts] : txn_facts_)
    if (!facts.run) used.insert(facts.globals.begin(), facts.globals.end());
  for (auto it = retired_globals_.begin(); it != retired_globals_.end();) {
    const front::GlobalInfo *g = *it;
    if (used.count(g) != 0) {
      ++it;
      continue;
    }
    if (g->type->isRef()) {
      if (auto addr = jit_->lookup(g->symbol))
        *reinterpret_cast<void **>(*addr) = nullptr;
      else
        llvm::consumeError(addr.takeError());
    }
    it = retired_globals_.erase(it);
  }
}

std::string Session::factsKey(const front::FuncInfo *f) {
  std::string key = callSymbol(f);
  return key.empty() ? f->symbol : key;
}

bool Session::reaches(const front::FuncInfo *f, bool TxnFacts::*fact) {
  std::set<std::string> seen;
  std::vector<std::string> work{factsKey(f)};
  while (!work.empty()) {
    std::string key = work.back();
    work.pop_back();
    if (!seen.insert(key).second) continue;
    auto it = txn_facts_.find(key);
    if (it == txn_facts_.end()) continue;
    if (it->second.*fact) return true;
    // By name only: a call through a function value or an override is not followed (taking
    // every function ever held as a value for a possible callee ran inputs that could not
    // begin a transaction without theirs, and their writes were lost).
    for (const front::FuncInfo *callee : it->second.calls) work.push_back(factsKey(callee));
  }
  return false;
}

bool Session::beginsTransactions(const front::FuncInfo *f) { return reaches(f, &TxnFacts::begins); }

bool Session::noStore(const std::string &db_name, std::string *why) const {
  if (cairn_store_dir() != nullptr) return false;
  std::error_code ec;
  const std::filesystem::path dir =
      std::filesystem::absolute(store::ResolveStoreDir(""), ec).lexically_normal();
  if (store::StoreFilesAt(dir.string())) return false;
  *why = "there is no database '" + db_name + "': there is no store at " + dir.string() +
         (std::filesystem::is_directory(dir, ec)
              ? " (the folder is there but holds no store's files: if it held a store, they "
                "are gone; "
                ":create NAME makes a new store in it)"
          : options_.store_dir.empty()
              ? " (:create NAME makes it and a database; is $CAIRN_STORE, or the directory "
                "the REPL was started in, right?)"
              : " (:create NAME makes it and a database; is --store right?)");
  return true;
}

bool Session::opensStore(const front::FuncInfo *f) {
  // Open and drop need a store that is there (with none, they are the error that says so);
  // create makes one.
  if (reaches(f, &TxnFacts::creates_store)) return true;
  return reaches(f, &TxnFacts::opens_store) && store::StoreFilesAt(store::ResolveStoreDir(""));
}

cairn_db *Session::openDatabase(const std::string &name) {
  struct Find {
    const std::string *name;
    cairn_db *db = nullptr;
  } find{&name};
  cairn_db_each_open(
      [](cairn_db *d, void *ctx) {
        auto *f = static_cast<Find *>(ctx);
        if (*f->name == cairn_db_name(d)) f->db = d;
      },
      &find);
  return find.db;
}

std::string Session::lastOpened() {
  // cairn_db_each_open lists them in the order they were last opened (by :open, :create, code,
  // or :root and :types of one not open yet).
  std::string last;
  cairn_db_each_open(
      [](cairn_db *d, void *ctx) { *static_cast<std::string *>(ctx) = cairn_db_name(d); }, &last);
  return last;
}

// --- Running ------------------------------------------------------------------------------

bool Session::beginImplicit() {
  implicit_txn_ = false;
  yielded_ = false;
  if (explicit_txn_ || cairn_store_dir() == nullptr || cairn_txn_is_open()) return true;
  if (cairn_txn_begin() != CAIRN_OK) {
    reportError(std::string("the input's transaction could not begin: ") + cairn_last_error());
    return false;
  }
  implicit_txn_ = true;
  return true;
}

std::string failedCommit(const std::string &why, const std::string &aborted) {
  // A failed commit writes nothing (D9 of runtime/src/persist/persistence.h); a refusal's own
  // message may say so already.
  const bool said = why.find("nothing of it was written") != std::string::npos;
  if (aborted.empty()) return said ? why : why + "; nothing of it was written";
  return why + "; " + aborted + (said ? "" : ", and nothing of it was written");
}

int Session::YieldImplicit(void *session) {
  auto *s = static_cast<Session *>(session);
  if (!s->implicit_txn_ || s->explicit_txn_) return 0;
  s->implicit_txn_ = false;
  s->yielded_ = true;  // the rest of the input runs outside one: settled at its end
  // A failed commit leaves the transaction failed: the runtime error it becomes aborts it.
  return cairn_txn_commit() == CAIRN_OK ? 1 : -1;
}

void Session::endImplicit(bool ok) {
  if (!implicit_txn_) return;
  implicit_txn_ = false;
  if (!cairn_txn_is_open()) return;  // the runtime aborted it (S3)
  if (ok) {
    if (cairn_txn_commit() == CAIRN_OK) return;
    reportError("the input's transaction could not commit: " +
                failedCommit(cairn_last_error(), ""));
    ++failures_;
  }
  cairn_txn_abort();
}

bool Session::lengthOf(const void *obj, int64_t *len) {
  const cairn_type *t = cairn_type_of(obj);
  for (const front::ClassInfo *cls : checker_->classesNamed(t->name)) {
    auto fp = fingerprints_.find(cls);
    if (fp == fingerprints_.end() || fp->second != t->fingerprint) continue;
    const front::FuncInfo *m = cls->findMethod("len");
    if (m == nullptr || !m->params.empty() || m->ret->kind != front::TypeKind::Int) return false;
    if (t->methods == nullptr || static_cast<uint32_t>(m->slot) >= t->nmethods) return false;
    // Only the standard library's collections are asked: a len() of the session's own is code
    // that may fail (its runtime error aborted the input's transaction: the input's work was
    // lost for a printed length) or loop. A std method takes no caller's position (lower.h).
    const front::FuncInfo *impl =
        static_cast<size_t>(m->slot) < cls->vtable.size() ? cls->vtable[m->slot] : nullptr;
    // The body that runs must be the library's: not an override in a class of the session's.
    if (impl == nullptr || impl->owner == nullptr || impl->owner->module == nullptr ||
        !impl->owner->module->is_std || !front::takesCallerLoc(impl))
      return false;
    *len = reinterpret_cast<int64_t (*)(const void *, const void *)>(t->methods[m->slot])(obj,
                                                                                          nullptr);
    return true;
  }
  return false;
}

namespace {

// What a function variable holds when its initializer failed: a function value is never nil,
// so calling it is this runtime error instead of a jump to address 0.
[[noreturn]] void CalledWithoutValue() {
  cairn_rt_error(nullptr,
                 "a function variable whose initializer failed was called: it has no value; "
                 "define it again");
  __builtin_unreachable();
}

}  // namespace

void Session::noValueForFailedFunctions(const front::InputUnit &unit) {
  for (const front::GlobalInfo *g : unit.globals) {
    if (g->type->kind != front::TypeKind::Fn) continue;  // the session's and its modules'
    auto addr = jit_->lookup(g->symbol);
    if (!addr) {
      llvm::consumeError(addr.takeError());
      continue;
    }
    void **slot = reinterpret_cast<void **>(*addr);
    if (*slot != nullptr) continue;  // set before the failure
    *slot = reinterpret_cast<void *>(&CalledWithoutValue);
    reportError("'" + g->name + "' has no value (its initializer failed): calling it is an " +
                "error until it is defined again");
  }
}

bool Session::runInput(front::InputUnit &unit, const std::shared_ptr<Unit> &run_unit, int depth,
                       bool quiet) {
  const bool own_transactions = beginsTransactions(unit.run->info);
  const bool code_txn = !explicit_txn_ && cairn_txn_is_open();  // begun by an earlier input
  // S2: an input that opens the store has it opened first, to run in a transaction of its own
  // (if the store cannot be opened, the input's Database call reports why, where it is).
  if (!own_transactions && cairn_store_dir() == nullptr && opensStore(unit.run->info))
    (void)cairn_store_open(nullptr);
  if (!own_transactions && !beginImplicit()) {
    llvm::consumeError(jit_->remove(*run_unit));
    return false;
  }
  auto run = jit_->lookup(unit.run->info->symbol);
  uint64_t value_addr = 0;
  if (run && unit.value != nullptr) {
    auto v = jit_->lookup(unit.value->symbol);
    if (v)
      value_addr = *v;
    else
      llvm::consumeError(v.takeError());
  }
  if (!run) {
    reportError(jit_->explain(run.takeError()));
    endImplicit(false);
    return false;
  }
  std::string printed;
  RuntimeFailure failure;
  const bool ok = runGuarded(
      [&] {
        reinterpret_cast<void (*)()>(*run)();
        if (value_addr != 0 && !quiet) {
          PrintOptions po;
          po.depth = depth >= 0 ? depth : depth_;
          Printer printer(po, [this](const void *obj, int64_t *len) { return lengthOf(obj, len); });
          printed = printer.value(unit.value->type, reinterpret_cast<const void *>(value_addr));
        }
      },
      &failure);
  if (value_addr != 0 && unit.value->type->isRef()) {
    // The value's global lets go of it (it stays a root of the permanent unit).
    std::memset(reinterpret_cast<void *>(value_addr), 0, sizeof(void *));
  }
  if (ok && value_addr != 0 && !quiet) {
    endLine();
    std::printf("%s\n", printed.c_str());
  }
  if (!ok) {
    // The input's source is the one added last (runCode, and :open's binding, add it first).
    reportRuntimeFailure(failure, sources_.file(sources_.size() - 1).path());
    noValueForFailedFunctions(unit);
    if (explicit_txn_ && !cairn_txn_is_open()) {
      explicit_txn_ = false;
      reportError("the transaction begun with :begin was aborted");
    } else if (code_txn && !cairn_txn_is_open()) {
      reportError("the open transaction (begun by code) was aborted");
    }
  }
  endImplicit(ok);
  if (own_transactions || yielded_) settleOutside(ok);
  llvm::consumeError(jit_->remove(*run_unit));
  return ok;
}

void Session::settleOutside(bool ok) {
  // An input that begins transactions itself runs outside one: what it changed in persistent
  // objects outside its transactions (after an atomic block, or between two) would wait for
  // the next commit, an unrelated later input's (or an :abort would undo it), or be lost at the
  // end of the session. It is settled now, as every input's changes are: committed when the
  // input ended well, undone when it failed (a program's uncommitted changes end with it).
  if (explicit_txn_ || cairn_store_dir() == nullptr || cairn_txn_is_open()) return;
  if (cairn_txn_begin() != CAIRN_OK) {
    reportError(std::string("the changes this input made outside its transactions could not be "
                            "settled: ") +
                cairn_last_error());
    ++failures_;
    return;
  }
  if (!ok) {
    cairn_txn_abort();
    return;
  }
  if (cairn_txn_commit() == CAIRN_OK) return;
  reportError(std::string("the changes this input made outside its transactions could not be "
                          "committed: ") +
              cairn_last_error() + "; nothing of them was written");
  ++failures_;
  cairn_txn_abort();
}

}  // namespace cairn::repl
