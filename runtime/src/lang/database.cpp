// The built-in class Database over cairn/persist.h (cairn/lang.h, Database). The store opens on
// the first call that needs it ($CAIRN_STORE, else ./cairn.store); only create makes a store that
// is not there: open and drop without one are the runtime error that there is none (after the
// name's own check), and exists and names, which only ask, answer false and [].
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "cairn/lang.h"
#include "cairn/persist.h"
#include "cairn/store.h"
#include "lang/errors.h"
#include "lang/text.h"
#include "lang/transaction.h"

namespace cairn::lang {
namespace {

// The names found by the last cairn_lang_db_names_count.
std::vector<std::string> listed_names;

// A database name as the runtime takes it: NUL-terminated, so it cannot hold a NUL byte.
std::string NameOf(const cairn_loc *loc, void *name_text) {
  if (name_text == nullptr) cairn_rt_nil(loc, "database name");
  std::string name(TextView(name_text));
  if (name.find('\0') != std::string::npos)
    RuntimeError(loc, "database error: a database name cannot contain a NUL byte");
  return name;
}

// With no store, open and drop would make an empty one (a mistyped $CAIRN_STORE, another
// working directory), then say the database is not in it: the missing store is the error. The
// message is built where a runtime error hook's jump leaves nothing to free.
[[noreturn]] void NoStoreError(const cairn_loc *loc, void *name_text) {
  static std::string message;
  const char *env = std::getenv("CAIRN_STORE");
  std::error_code ec;
  const std::filesystem::path dir =
      std::filesystem::absolute(cairn::store::ResolveStoreDir(""), ec).lexically_normal();
  const bool folder = std::filesystem::is_directory(dir, ec);
  const bool named = env != nullptr && *env != '\0';
  message = "database error: there is no database '" + NameOf(loc, name_text) +
            "': there is no store at " + dir.string() +
            (named ? " (named by --store or $CAIRN_STORE)"
                   : " (the working directory's cairn.store: $CAIRN_STORE is not set)");
  if (folder)
    message +=
        ": the folder is there but holds no store's files (if it held a store, they are gone; "
        "Database.create makes a new store in it)";
  else if (named)
    message += ": is the store's path right? (Database.create makes the store and a database)";
  else
    message +=
        ": run the program where its store is, or set $CAIRN_STORE (Database.create makes the "
        "store and a database)";
  RuntimeError(loc, message);
}

// A name no database can have is that error first, store or not (language.md), and before the
// store is opened: an open makes a store that is not there, which a refused name must not leave
// behind (campaign L: Database.create("../etc") did).
void CheckName(const cairn_loc *loc, void *name_text) {
  static std::string message;  // a runtime error hook's jump leaves nothing to free
  {
    const cairn::Status s = cairn::store::ValidateDatabaseName(NameOf(loc, name_text));
    if (s.ok()) return;
    message = "database error: " + s.message();
  }  // (the status freed before the error: the hook may jump out of this frame)
  RuntimeError(loc, message);
}

// `what`: the use, for the message ("nil dereference: Database in 'd.root'").
cairn_db *Need(const cairn_loc *loc, cairn_db *db, const char *what) {
  if (db == nullptr) cairn_rt_nil(loc, what);
  return db;
}

void NeedTransaction(const cairn_loc *loc, cairn_db *db) {
  if (!cairn_txn_is_open())
    RuntimeError(loc, ("the root of database '" + std::string(cairn_db_name(db)) +
                       "' used outside a transaction (use atomic { ... } or Transaction.begin())")
                          .c_str());
}

}  // namespace

// No store is open and none is where the first database call would open one (no directory, an
// empty one, or one with only a store's beginning, such as its lock file: store::StoreFilesAt):
// there are no databases, and a question about them should not leave a store behind (a store made
// in an empty folder given for one that lost its files would hide the loss), nor should a
// transaction (transaction.cpp).
bool NoStore() {
  return cairn_store_dir() == nullptr &&
         !cairn::store::StoreFilesAt(cairn::store::ResolveStoreDir(""));
}

}  // namespace cairn::lang

using namespace cairn::lang;

extern "C" {

cairn_db *cairn_lang_db_create(const cairn_loc *loc, void *name_text) {
  cairn_db *db = nullptr;
  CheckName(loc, name_text);
  // The name is gone before the error: a runtime error hook may jump out of this frame.
  if (cairn_db_create(NameOf(loc, name_text).c_str(), &db) != CAIRN_OK) DatabaseError(loc);
  StoreMade(loc);  // a transaction begun with no store has one now
  return db;
}

cairn_db *cairn_lang_db_open(const cairn_loc *loc, void *name_text) {
  cairn_db *db = nullptr;
  CheckName(loc, name_text);
  if (NoStore()) NoStoreError(loc, name_text);
  if (cairn_db_open(NameOf(loc, name_text).c_str(), &db) != CAIRN_OK) DatabaseError(loc);
  StoreMade(loc);  // (another process made it since a transaction began here with none)
  return db;
}

cairn_db *cairn_lang_db_upgrade(const cairn_loc *loc, void *name_text) {
  cairn_db *db = nullptr;
  CheckName(loc, name_text);
  if (NoStore()) NoStoreError(loc, name_text);
  cairn_upgrade_report report{};
  if (cairn_db_upgrade(NameOf(loc, name_text).c_str(), &db, &report) != CAIRN_OK)
    DatabaseError(loc);
  // U7 of persist/upgrade.h: what was converted, and what was dropped, is said.
  if (report.types_converted != 0 && report.summary != nullptr && *report.summary != '\0') {
    std::fflush(stdout);
    std::fprintf(stderr, "note: database '%s' was upgraded to this program's classes:\n",
                 cairn_db_name(db));
    for (const char *line = report.summary; *line;) {
      const char *end = std::strchr(line, '\n');
      const size_t n = end ? size_t(end - line) : std::strlen(line);
      std::fprintf(stderr, "  %.*s\n", int(n), line);
      line += n + (end ? 1 : 0);
    }
  }
  StoreMade(loc);
  return db;
}

int cairn_lang_db_exists(const cairn_loc *loc, void *name_text) {
  if (name_text == nullptr) cairn_rt_nil(loc, "database name");
  // A name no database can have ("../etc", "", a NUL byte) names none: false, not an error
  // (create, open and drop of it are errors that say why).
  const std::string name(TextView(name_text));
  if (name.find('\0') != std::string::npos || !cairn::store::ValidateDatabaseName(name).ok())
    return 0;
  if (NoStore()) return 0;
  int exists = 0;
  if (cairn_db_exists(name.c_str(), &exists) != CAIRN_OK) DatabaseError(loc);
  return exists != 0;
}

void cairn_lang_db_drop(const cairn_loc *loc, void *name_text) {
  CheckName(loc, name_text);
  if (NoStore()) NoStoreError(loc, name_text);
  if (cairn_db_drop(NameOf(loc, name_text).c_str()) != CAIRN_OK) DatabaseError(loc);
}

int64_t cairn_lang_db_names_count(const cairn_loc *loc) {
  listed_names.clear();
  if (NoStore()) return 0;
  auto add = [](const char *name, void *) { listed_names.emplace_back(name); };
  if (cairn_db_list(add, nullptr) != CAIRN_OK) DatabaseError(loc);
  return static_cast<int64_t>(listed_names.size());
}

void *cairn_lang_db_names_at(int64_t i) {
  if (i < 0 || static_cast<uint64_t>(i) >= listed_names.size())
    InternalError("cairn_lang_db_names_at(%lld) after a count of %zu", (long long)i,
                  listed_names.size());
  return NewText(listed_names[static_cast<size_t>(i)]);
}

void *cairn_lang_db_get_root(const cairn_loc *loc, cairn_db *db) {
  Need(loc, db, "Database in '.root'");
  NeedTransaction(loc, db);
  void *root = nullptr;
  if (cairn_db_get_root(db, &root) != CAIRN_OK) DatabaseError(loc);
  // The root's page is loaded here, so that a page this program cannot read (the root's class
  // is one it lacks, a damaged page) is an error at `d.root`'s position, not a fault without
  // one at the first use. The header word before the object is what the page's check is about.
  if (root != nullptr &&
      cairn_load_for_read(static_cast<char *>(root) - sizeof(void *), 1) != CAIRN_OK)
    DatabaseError(loc);
  return root;
}

void cairn_lang_db_set_root(const cairn_loc *loc, cairn_db *db, void *root) {
  Need(loc, db, "Database in '.root = ...'");
  NeedTransaction(loc, db);
  if (cairn_db_set_root(db, root) != CAIRN_OK) DatabaseError(loc);
}

void *cairn_lang_db_name(cairn_db *db) { return NewText(cairn_db_name(db)); }

// A name is letters, digits, '_', '-' and '.' (the store refuses others): nothing to escape.
void *cairn_lang_db_str(cairn_db *db) {
  if (db == nullptr) return NewText("nil");
  return NewText(std::string("Database(\"") + cairn_db_name(db) + "\")");
}

}  // extern "C"
