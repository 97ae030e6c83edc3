// The REPL's commands (':' inputs) and completion (session.h).
#include <algorithm>
#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cairn/lang.h"
#include "cairn/persist.h"
#include "cairn/store.h"
#include "check/checker.h"
#include "guard.h"
#include "lexer/name_chars.h"
#include "lexer/token.h"
#include "output.h"
#include "printer.h"
#include "session.h"

namespace cairn::repl {
namespace {

struct CommandInfo {
  const char *name;
  const char *args;
  const char *help;
};

// The one list of commands (for :help and completion).
constexpr CommandInfo kCommands[] = {
    {":help", "", "this list"},
    {":open", "NAME",
     "open database NAME (defining its stored types the session lacks) and "
     "bind it to the name NAME"},
    {":create", "NAME", "create database NAME, open it and bind it to the name NAME"},
    {":dbs", "", "the store's databases (those open in this session marked so)"},
    {":root", "[NAME]", "print the root of database NAME (default: the one opened last)"},
    {":types", "[NAME]", "the session's classes, or the types stored in database NAME"},
    {":begin", "", "begin a transaction that spans inputs (until :commit or :abort)"},
    {":commit", "", "commit the transaction begun with :begin"},
    {":abort", "", "abort the transaction begun with :begin"},
    {":load", "FILE", "the declarations of a Cairn file into the session"},
    {":type", "EXPR", "the type of an expression (nothing runs)"},
    {":call", "NAME ARGS", "call a function with literal arguments, through libffi"},
    {":show", "EXPR [DEPTH]", "print a value DEPTH levels of objects deep (default 3)"},
    {":stats", "", "heap and persistence figures"},
    {":gc", "", "run a collection"},
    {":quit", "", "end the session (also end of input, Ctrl-D)"},
};

bool isIdentifier(const std::string &s) {
  // Letters, digits and '_', Unicode's too (frontend/lexer/name_chars.h), not a keyword.
  for (size_t i = 0, n = 0; i < s.size(); i += n)
    if ((n = front::nameCharAt(s, i, i == 0)) == 0) return false;
  if (s.empty()) return false;
  static const char *const kKeywords[] = {
      "and", "as",       "atomic", "break",  "class", "continue", "else", "extern", "false",
      "fn",  "for",      "if",     "import", "in",    "is",       "let",  "nil",    "not",
      "or",  "override", "return", "self",   "true",  "var",      "while"};
  for (const char *k : kKeywords)
    if (s == k) return false;
  return true;
}

std::string trim(const std::string &s) {
  size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  size_t b = s.find_last_not_of(" \t\r\n");
  return s.substr(a, b - a + 1);
}

// A database name as a Cairn text literal.
std::string textLiteral(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string mib(uint64_t bytes) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return b;
}

}  // namespace

// What `Database.open(NAME).root` typed at the prompt prints, without compiling it: the root
// is read in the input's transaction (the one begun with :begin, if open) and printed from its
// descriptor, under the same guard, so that a fault error ends only this input.
void Session::printRoot(const std::string &db_name) {
  // A database not open yet is opened as :open opens it, and the stored types the session
  // lacks are defined, so that its root can be read.
  cairn_db *db = openDatabase(db_name);
  std::string missing;
  if (db == nullptr &&
      (noStore(db_name, &missing) || cairn_db_open(db_name.c_str(), &db) != CAIRN_OK)) {
    ++inputs_;
    reportError(missing.empty() ? std::string(cairn_last_error()) : missing);
    ++failures_;
    return;
  }
  // Also when it is open already: opened by code (`Database.open`) or by `:types NAME`, which
  // define no types; what the session has already is not defined again.
  {
    std::string report;
    bool bound = false;
    if (!defineStoredTypes(db_name, db, db_name, "", &bound, &report)) {
      reportError(report);
      ++failures_;
      return;
    }
    if (!report.empty()) std::printf("%s\n", report.c_str());
  }
  ++inputs_;  // an input like any other (the numbers of later inputs' messages)
  if (!beginImplicit()) {
    ++failures_;
    return;
  }
  std::string printed;
  RuntimeFailure failure;
  const bool ok = runGuarded(
      [&] {
        // On the stack while it is printed (len() may run code that collects): the collector
        // scans the stack for roots.
        void *volatile root = nullptr;
        void *got = nullptr;
        if (cairn_db_get_root(db, &got) != CAIRN_OK) {
          printed.clear();
          return;
        }
        root = got;
        PrintOptions po;
        po.depth = depth_;
        Printer printer(po, [this](const void *obj, int64_t *len) { return lengthOf(obj, len); });
        printed = printer.ref(root) + "\n";
      },
      &failure);
  if (ok && printed.empty()) {
    reportError(cairn_last_error());
    ++failures_;
    endImplicit(false);
    return;
  }
  if (ok) {
    endLine();
    std::printf("%s", printed.c_str());
  }
  if (!ok) {
    ++failures_;
    reportRuntimeFailure(failure, ":root " + db_name);
    if (explicit_txn_ && !cairn_txn_is_open()) {
      explicit_txn_ = false;
      reportError("the transaction begun with :begin was aborted");
    }
  }
  endImplicit(ok);
}

bool Session::runCommand(const std::string &text) {
  std::string line = trim(text);
  size_t space = line.find_first_of(" \t\n");
  const std::string name = line.substr(0, space);
  const std::string arg = space == std::string::npos ? "" : trim(line.substr(space));
  auto fail = [&](const std::string &message) {
    reportError(message);
    ++failures_;
    return true;
  };
  auto needArg = [&](const char *what) {
    return fail(name + " needs " + what + " (:help lists the commands)");
  };

  // A command that takes nothing refuses words after it (`:commit x` did :commit).
  bool takes_nothing = name == ":q" || name == ":exit" || name == ":h" || name == ":?";
  for (const CommandInfo &c : kCommands)
    if (name == c.name && c.args[0] == '\0') takes_nothing = true;
  if (takes_nothing && !arg.empty())
    return fail(name + " takes nothing after it, not '" + arg + "' (:help lists the commands)");

  if (name == ":quit" || name == ":q" || name == ":exit") return false;
  if (name == ":help" || name == ":h" || name == ":?") {
    std::printf(
        "Type a declaration, a statement or an expression; its value is printed.\n"
        "An input goes on over several lines while a bracket is open or a line ends\n"
        "in an operator, ',' or 'new'; a blank line ends it. Commands:\n");
    for (const CommandInfo &c : kCommands) {
      std::string head = std::string(c.name) + (c.args[0] ? " " : "") + c.args;
      std::printf("  %-22s %s\n", head.c_str(), c.help);
    }
    return true;
  }
  if (name == ":type") {
    if (arg.empty()) return needArg("an expression");
    Code code;
    code.text = arg;
    code.type_only = true;
    runCode(code);
    return true;
  }
  if (name == ":show") {
    if (arg.empty()) return needArg("an expression");
    Code code;
    code.text = arg;
    code.depth = 3;
    code.value_only = true;
    // A last word that is a number is the depth, unless what comes before it needs it as an
    // operand (`:show 1 + 2`, `:show n.v + 1`).
    size_t sp = arg.find_last_of(" \t");
    if (sp != std::string::npos) {
      std::string last = arg.substr(sp + 1);
      const std::string before = trim(arg.substr(0, sp));
      auto endsInOperator = [&] {
        if (before.empty()) return true;
        if (std::string("+-*/%<>=!,([{.").find(before.back()) != std::string::npos) return true;
        const size_t word = before.find_last_of(" \t");
        const std::string tail = word == std::string::npos ? before : before.substr(word + 1);
        for (const char *k : {"and", "or", "not", "in", "is", "as"})
          if (tail == k) return true;
        return false;
      };
      if (!last.empty() && !endsInOperator() && std::all_of(last.begin(), last.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c));
          })) {
        code.depth = std::atoi(last.c_str());
        code.text = trim(arg.substr(0, sp));
      }
    }
    runCode(code);
    return true;
  }
  if (name == ":call") return callFunction(arg);
  if (name == ":load") {
    if (arg.empty()) return needArg("a file");
    std::error_code ec;
    if (std::filesystem::is_directory(arg, ec))
      return fail("cannot read '" + arg + "': it is a folder (:load takes a .cairn file)");
    std::ifstream in(arg);
    if (!in) return fail("cannot read '" + arg + "': " + std::strerror(errno));
    std::stringstream ss;
    ss << in.rdbuf();
    Code code;
    code.text = ss.str();
    code.source_name = arg;
    std::filesystem::path p(arg);
    code.import_root = p.has_parent_path() ? p.parent_path().string() : ".";
    runCode(code);
    return true;
  }
  if (name == ":open" || name == ":create") {
    if (arg.empty()) return needArg("a database name");
    const bool create = name == ":create";
    // Created here, not by code the user did not type: a refusal (a name taken or not valid,
    // an unusable store) is said without that code.
    if (create) {
      cairn_db *made = nullptr;
      if (cairn_db_create(arg.c_str(), &made) != CAIRN_OK) return fail(cairn_last_error());
    }
    const std::string call = "Database.open(" + textLiteral(arg) + ")";
    // Bound to its name when that is a name the session may use for it.
    auto bindable = [&] {
      // Not a built-in's name: `let str = ...` hid str() from the session, `let Database =
      // Database.open("Database")` was refused as a read of itself after the database was made.
      if (front::isBuiltinName(arg)) return false;
      // Nor `new`, a name that makes objects: a variable of that name could not be read alone
      // (a line ending in `new` goes on to the next).
      if (arg == "new") return false;
      const front::GlobalInfo *g = checker_->findGlobal(arg);
      return isIdentifier(arg) &&
             (g != nullptr ? g->type == types_.databaseType()
                           : checker_->findClass(arg) == nullptr && !checker_->hasFunction(arg) &&
                                 !checker_->hasGenericClass(arg));
    };
    bool bound = false;
    if (!create) {
      // Opened here first, so that its stored types the session lacks can be defined before
      // any code of the session reads it; the binding goes with them when they do not take
      // its name.
      cairn_db *db = nullptr;
      std::string missing;
      if (noStore(arg, &missing)) return fail(missing);
      if (cairn_db_open(arg.c_str(), &db) != CAIRN_OK) return fail(cairn_last_error());
      std::string report;
      const std::string binding = bindable() ? "let " + arg + " = " + call : "";
      if (!defineStoredTypes(arg, db, arg, binding, &bound, &report)) return fail(report);
      if (!report.empty()) std::printf("%s\n", report.c_str());
    }
    const bool bind = bound || bindable();
    if (!bound) {
      Code code;
      code.text = bind ? "let " + arg + " = " + call : call;
      code.quiet = true;
      if (!runCode(code)) return true;
    }
    if (bind) {
      std::printf("%s database '%s' as %s\n", create ? "created" : "opened", arg.c_str(),
                  arg.c_str());
    } else {
      // Why it has no name in the session, and how to reach it.
      std::string why = "'" + arg + "' names something else in the session";
      if (front::keywordKind(arg) != front::TokenKind::Ident)
        why = "'" + arg + "' is a keyword";
      else if (!isIdentifier(arg))
        why = "its name is no identifier";
      else if (front::isBuiltinName(arg) || arg == "new")
        why = "'" + arg + "' is a built-in name";
      else if (checker_->findGlobal(arg) != nullptr)
        why = "'" + arg + "' is a variable of the session";
      else if (checker_->findClass(arg) != nullptr || checker_->hasGenericClass(arg))
        why = "'" + arg + "' is a class of the session";
      else if (checker_->hasFunction(arg))
        why = "'" + arg + "' is a function of the session";
      std::printf("%s database '%s' (not bound to a name: %s; `Database.open(%s)` reaches it)\n",
                  create ? "created" : "opened", arg.c_str(), why.c_str(),
                  textLiteral(arg).c_str());
    }
    return true;
  }
  if (name == ":root") {
    std::string db = arg.empty() ? lastOpened() : arg;
    if (db.empty()) return fail(":root needs a database name (none is open)");
    printRoot(db);
    return true;
  }
  if (name == ":dbs") {
    if (cairn_store_dir() == nullptr) {
      // Listing never makes a store (as `cairn db list`): only :create, or storing, does.
      const std::string dir = cairn::store::ResolveStoreDir("");  // the runtime's default
      if (!cairn::store::StoreFilesAt(dir)) {
        std::printf(
            "(no databases: there is no store at %s, or the folder holds no store's files; "
            ":create "
            "NAME makes one)\n",
            dir.c_str());
        return true;
      }
    }
    std::vector<std::string> names;
    auto add = [](const char *n, void *ctx) {
      static_cast<std::vector<std::string> *>(ctx)->push_back(n);
    };
    if (cairn_db_list(add, &names) != CAIRN_OK) return fail(cairn_last_error());
    std::vector<std::string> open;
    cairn_db_each_open(
        [](cairn_db *db, void *ctx) {
          static_cast<std::vector<std::string> *>(ctx)->push_back(cairn_db_name(db));
        },
        &open);
    if (names.empty()) std::printf("(no databases in %s)\n", cairn_store_dir());
    for (const std::string &n : names)
      std::printf("%s%s\n", n.c_str(),
                  std::find(open.begin(), open.end(), n) != open.end() ? " (open)" : "");
    return true;
  }
  if (name == ":begin") {
    if (explicit_txn_ || cairn_txn_is_open()) return fail("a transaction is open already");
    if (cairn_store_dir() == nullptr && cairn_store_open(nullptr) != CAIRN_OK)
      return fail(std::string("the store could not be opened: ") + cairn_last_error());
    if (cairn_txn_begin() != CAIRN_OK) return fail(cairn_last_error());
    explicit_txn_ = true;
    std::printf("transaction begun\n");
    return true;
  }
  if (name == ":commit" || name == ":abort") {
    if (!explicit_txn_) return fail("no transaction was begun with :begin");
    explicit_txn_ = false;
    if (!cairn_txn_is_open()) return fail("the transaction is not open any more");
    if (name == ":commit") {
      if (cairn_txn_commit() != CAIRN_OK) {
        std::string why = cairn_last_error();
        cairn_txn_abort();
        return fail("commit failed: " + failedCommit(why, "the transaction is aborted"));
      }
      std::printf("committed\n");
    } else {
      if (cairn_txn_abort() != CAIRN_OK) return fail(cairn_last_error());
      std::printf("aborted\n");
    }
    return true;
  }
  if (name == ":gc") {
    cairn_collect();
    cairn_stats s;
    cairn_get_stats(&s);
    std::printf("collected: %s live, %" PRIu64 " pages in use\n", mib(s.live_bytes_last).c_str(),
                s.heap_pages);
    return true;
  }
  if (name == ":stats") {
    cairn_stats s;
    cairn_get_stats(&s);
    std::printf("heap: %" PRIu64
                " collections (%.1f ms in all, longest %.1f ms), %s allocated, "
                "%s live after the last, %" PRIu64 " pages in use (peak %" PRIu64 ")\n",
                s.collections, s.total_pause_ns / 1e6, s.max_pause_ns / 1e6,
                mib(s.bytes_allocated).c_str(), mib(s.live_bytes_last).c_str(), s.heap_pages,
                s.peak_heap_pages);
    if (cairn_store_dir() != nullptr) {
      cairn_persist_stats p;
      cairn_persist_get_stats(&p);
      std::printf("store %s: %" PRIu64 " commits, %" PRIu64 " aborts, %" PRIu64
                  " pages faulted in (%.1f ms), %" PRIu64 " written (%s), %" PRIu64
                  " objects made persistent, %" PRIu64 " pages resident\n",
                  cairn_store_dir(), p.commits, p.aborts, p.pages_faulted, p.fault_ns / 1e6,
                  p.pages_written, mib(p.bytes_written).c_str(), p.objects_made_persistent,
                  p.resident_pages);
    } else {
      std::printf("store: not open\n");
    }
    return true;
  }
  if (name == ":types") {
    if (!arg.empty()) return typesOf(arg);
    std::vector<std::string> names = checker_->names();
    int shown = 0;
    for (const std::string &n : names) {
      const front::ClassInfo *c = checker_->findClass(n);
      if (c == nullptr) continue;
      std::string line = c->name;
      if (c->super) line += " : " + c->super->name;
      line += " {";
      bool first = true;
      for (const front::FieldInfo *f : c->fields) {
        line += std::string(first ? " " : ", ") + f->name + ": " + front::typeName(f->type);
        first = false;
      }
      line += first ? "}" : " }";
      std::printf("%s\n", line.c_str());
      ++shown;
    }
    if (shown == 0) std::printf("(no classes)\n");
    return true;
  }
  return fail("unknown command '" + name + "' (:help lists the commands)");
}

std::vector<std::string> Session::complete(const std::string &line, size_t cursor, size_t *start) {
  cursor = std::min(cursor, line.size());
  size_t b = front::nameRunStart(line, cursor);
  *start = b;
  const std::string word = line.substr(b, cursor - b);
  std::vector<std::string> out;
  auto offer = [&](const std::string &c) {
    if (c.compare(0, word.size(), word) == 0 && std::find(out.begin(), out.end(), c) == out.end())
      out.push_back(c);
  };
  // A database's name after :open, :root and :types (names of the store, which need not be
  // identifiers: `oo7-small-3`).
  {
    const size_t cmd = line.find_first_not_of(" \t");
    if (cmd != std::string::npos && line[cmd] == ':') {
      const size_t cmd_end = line.find_first_of(" \t", cmd);
      const std::string c =
          line.substr(cmd, cmd_end == std::string::npos ? std::string::npos : cmd_end - cmd);
      if (cmd_end != std::string::npos && cmd_end < cursor &&
          (c == ":open" || c == ":root" || c == ":types")) {
        const size_t arg = line.find_first_not_of(" \t", cmd_end);
        const size_t from = arg == std::string::npos || arg > cursor ? cursor : arg;
        const std::string typed = line.substr(from, cursor - from);
        *start = from;
        // Only a store the session has open already: opening one would hold it (its lock) for
        // the rest of the session, for a keystroke.
        std::vector<std::string> names;
        if (typed.find_first_of(" \t") == std::string::npos && cairn_store_dir() != nullptr) {
          auto add = [](const char *n, void *ctx) {
            static_cast<std::vector<std::string> *>(ctx)->push_back(n);
          };
          if (cairn_db_list(add, &names) != CAIRN_OK) names.clear();
        }
        for (const std::string &n : names)
          if (n.compare(0, typed.size(), typed) == 0) out.push_back(n);
        std::sort(out.begin(), out.end());
        return out;
      }
    }
  }
  if (b > 0 && line[b - 1] == ':' && line.find_first_not_of(" \t") == b - 1) {
    *start = b - 1;
    for (const CommandInfo &c : kCommands)
      if (std::strncmp(c.name + 1, word.c_str(), word.size()) == 0) out.push_back(c.name);
    return out;
  }
  if (b > 0 && line[b - 1] == '.') {
    // Fields and methods of what is before the dot, by its static type.
    size_t e = b - 1;
    size_t a = e;
    int depth = 0;
    while (a > 0) {
      char c = line[a - 1];
      if (c == ')' || c == ']') {
        ++depth;
      } else if (c == '(' || c == '[') {
        if (depth == 0) break;
        --depth;
      } else if (depth == 0 && !(std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
                                 c == '.' || static_cast<unsigned char>(c) >= 0x80)) {
        break;
      }
      --a;
    }
    const std::string receiver = line.substr(a, e - a);
    if (receiver.empty()) return out;
    const front::Type *t = typeOf(receiver);
    if (t == nullptr) return out;
    if (t->kind == front::TypeKind::Class) {
      for (const front::FieldInfo *f : t->cls->fields) offer(f->name);
      for (const front::FuncInfo *m : t->cls->vtable) offer(m->name);
    } else if (t->kind == front::TypeKind::Database) {
      offer("root");
      offer("name");
    } else if (t->kind == front::TypeKind::Transaction) {
      for (const char *m : {"commit", "abort", "chain", "checkpoint", "isOpen"}) offer(m);
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  for (const std::string &n : checker_->names()) offer(n);
  for (const char *k : {"Database", "Transaction", "let", "var", "fn", "class", "if", "while",
                        "for", "atomic", "import", "return", "new", "nil", "true", "false"})
    offer(k);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace cairn::repl
