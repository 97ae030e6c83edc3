/* Cairn: the transactional page store, its C++ API.
 *
 * A store is a directory holding many named databases. A database is its own space of 8 KiB
 * pages (CAIRN_PAGE_SIZE) numbered from 1, with a root (an opaque uint64 to the store), a page
 * count, free pages, and a type table (fingerprint -> index and layout). The store lives in one
 * RocksDB instance linked into the process; docs/store-format.md gives the bytes on disk.
 *
 * One process uses a store at a time (a lock file in the directory holds its pid); a second
 * process gets CAIRN_BUSY "store DIR is in use by process N". Within that process, several
 * transactions may run at once, from different threads; each locks the pages and catalogue
 * entries it writes. Every error at this boundary is a cairn::Status; nothing of RocksDB's leaks.
 *
 * Invariants of a database (check() verifies each; messages and tests cite the numbers):
 *   S1. Pages are numbered 1..page_count. page_count only grows; a page is freed, never removed.
 *   S2. Each page in 1..page_count is exactly one of: in use (stored, with a checksum) or free
 *       (on the free list, no stored contents). free_pages counts the free list.
 *   S3. Every stored page carries a CRC32C over its header and contents, and its header names
 *       the database and page number it belongs to. Every read verifies both.
 *   S4. The type table maps each fingerprint to one index in 1..type_count and back, one to one.
 *   S5. A committed transaction's pages, root, page count, free list, type entries and identity
 *       hash entries are all on disk or none of them is (one atomic RocksDB write).
 *   S6. An identity hash entry names a page in 1..page_count, in use, and an offset within a page
 *       (below CAIRN_PAGE_SIZE).
 *
 * The transaction state machine (Transaction::state()):
 *
 *                       Store::BeginTransaction()
 *                                  |
 *                                  v
 *              +----------->  [ ACTIVE ] ------------ a call fails ----------> [ FAILED ]
 *              | a call         |  |    |                                         ^    |
 *              | succeeds       |  |    | Commit()                                |    |
 *              +----------------+  |    v                                         |    |
 *                                  |  [ COMMITTING ] ------ the write fails -------+    |
 *                          Abort() |    |                                              |
 *                                  |    | the write is done                    Abort() |
 *                                  v    v                                              |
 *                                [ IDLE ] (ended) <------------------------------------+
 *
 *   - ACTIVE: reads see one consistent snapshot taken at begin, plus this transaction's writes.
 *   - FAILED: after any error, every call except Abort() returns CAIRN_MISUSE naming the first
 *     error; nothing of the transaction reaches the disk. (LMDB's MDB_TXN_ERROR.)
 *   - IDLE: the transaction has ended; every call returns CAIRN_MISUSE, Abort() does nothing.
 *   - Destroying a Transaction that is ACTIVE or FAILED aborts it.
 *
 * A Transaction is used by one thread at a time; a Store may be used by many threads. Destroy
 * every Transaction before its Store.
 */
#ifndef CAIRN_STORE_H
#define CAIRN_STORE_H

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cairn/gc.h"
#include "cairn/status.h"

namespace cairn::store {

/* The size of a page's contents in bytes: the heap's page size. */
inline constexpr uint32_t kPageSize = CAIRN_PAGE_SIZE;

/* A page number within a database; pages are numbered from 1. */
using PageNo = uint64_t;

/* A database's identity within its store (never reused after a drop). */
using DatabaseId = uint64_t;

/* When Commit() returns, what a committed transaction survives. */
enum class Durability {
  kSync,  /* Commit returns once the write is on disk (fsync of the log): it survives a crash of
             the process and a loss of power. The default. */
  kAsync, /* Commit returns once the write is in the operating system's buffers: it survives a
             crash of the process (even SIGKILL), but the last commits may be lost on power loss
             or a kernel crash. Commits are never partly there either way. */
};

/* How a store is opened. Every field has its default documented here. */
struct StoreOptions {
  /* What a commit waits for (see Durability). Default kSync. */
  Durability durability = Durability::kSync;
  /* How long, in milliseconds, a transaction waits for a page or catalogue entry locked by
   * another transaction before failing with CAIRN_BUSY. 0 means do not wait. Default 1000. */
  uint32_t lock_timeout_ms = 1000;
  /* Create the store directory if it does not exist. Default false: a missing store is
   * CAIRN_NOT_FOUND. */
  bool create_if_missing = false;
  /* Open for reading only: nothing is written to the directory (not even the lock file, which
   * is taken shared when it can be read; RocksDB opens read-only), so a store the user may only
   * read can be listed, inspected and checked. Transactions may read; every write (and
   * CreateDatabase, DropDatabase) is CAIRN_MISUSE. Default false. */
  bool read_only = false;
  /* At a clean close, write what the write-ahead log holds into a table file (a log deleted or
   * cut after the close then loses nothing; the next open has nothing to recover). false: leave
   * it in the log, as a process killed before its close does (the log's tests). Default true. */
  bool flush_at_close = true;
};

/* The store directory to use: `flag_value` (from --store DIR) if not empty, else $CAIRN_STORE if
 * set and not empty, else "./cairn.store"; without trailing slashes ("st/" is "st", "/" stays).
 * The one rule for the CLI and the language. */
std::string ResolveStoreDir(std::string_view flag_value);

/* Whether $CAIRN_STORE_READ_ONLY asks for the store to be only read: set to anything but "0" or
 * "" (`1`, `true`, `yes`). It fails closed: a spelling not known here never writes. The one rule
 * for the CLI (whose writing commands then refuse) and the language (which opens read-only). */
bool ReadOnlyRequested();

/* Whether `dir` may hold a store: it is there and holds more than nothing (an empty folder) or a
 * store's beginning (its lock file, and a db/ with only what a creation writes before
 * db/CURRENT: also what is left of a store whose db/ was deleted). Where it holds no store's
 * files there are no databases: asking about them there must not make a store (an empty folder
 * given for a store that lost its files would then look like an empty store); only creating a
 * database does. Any other folder is for the store's open to judge (one that is not a store is
 * refused, unchanged, naming what it is). */
bool StoreFilesAt(std::string_view dir);

/* Why this process may not write the store at `dir`, or "" when it may (or nothing is there):
 * its RocksDB folder (or the LOCK file in it) or its lock file cannot be written by it
 * (permissions, a read-only file system), or the directory cannot be written and one of those
 * has to be made in it; "this process cannot write PATH (Permission denied)", PATH the directory
 * when none of it can be written. A program that may only read a store opens it read-only
 * rather than failing part way into a writing open (the language runtime does). */
std::string WhyUnwritable(const std::string &dir);

/* What every error about a damaged database of store `dir` ends with, so that users are told
 * what will help: "`cairn db check --store DIR NAME` lists all the damage it can read; restore
 * the database from a copy". */
std::string DamageAdvice(const std::string &dir, std::string_view database);

/* OK if `name` can name a database: 1 to 64 characters, ASCII letters, digits, '_', '-' and '.',
 * starting with a letter or '_'. Otherwise CAIRN_INVALID_ARGUMENT saying so. */
Status ValidateDatabaseName(std::string_view name);

/* What GetDatabaseInfo() reports, as of the last commit. */
struct DatabaseInfo {
  std::string name;
  DatabaseId id = 0;
  uint64_t root = 0;           /* the root reference; 0 until SetRoot */
  uint64_t page_count = 0;     /* pages 1..page_count exist (in use or free) */
  uint64_t free_pages = 0;     /* of those, how many are free */
  uint32_t type_count = 0;     /* type table entries, indexes 1..type_count */
  uint32_t format_version = 0; /* the store's, as its header says (a read-only open does not
                                  upgrade it) */
};

/* The identity hash stored for the object at `offset` of a page (cairn_identity_hash). */
struct IdentityHashEntry {
  uint32_t offset = 0;
  uint64_t hash = 0;
};

/* One type table entry. The layout is opaque bytes to the store. */
struct TypeEntry {
  uint64_t fingerprint = 0;
  uint32_t index = 0;
  std::string layout;
};

/* What Check() found. The database is clean when `problems` is empty. */
struct CheckReport {
  std::string database;
  uint64_t page_count = 0;    /* from the catalogue */
  uint64_t pages_read = 0;    /* stored pages read and verified */
  uint64_t free_pages = 0;    /* free pages found */
  uint64_t types = 0;         /* type entries verified */
  uint64_t problem_count = 0; /* all problems found; `problems` keeps the first 100 */
  std::vector<std::string> problems;
  /* The object graph, from cairn::persist::CheckObjectGraph (cairn/graph_check.h); all zero
   * from Store::Check alone. */
  bool graph_checked = false;
  uint64_t objects = 0;         /* objects on the pages in use, fillers not counted */
  uint64_t fillers = 0;         /* fillers on them: the places of dead objects */
  uint64_t references = 0;      /* references (not nil) checked, the root included */
  uint64_t pages_in_use = 0;    /* pages holding objects (a large object's run counts whole) */
  uint64_t pages_unreached = 0; /* of those, pages nothing the root reaches is on: garbage */
  uint64_t dead_objects = 0;    /* objects the root does not reach on pages it does reach
                                   (cairn db gc makes them fillers) */
  std::vector<std::string> dead_types; /* their types' names, the first 5 distinct */
  bool dead_types_more = false;        /* ... and they have more types than those */
  uint64_t unverifiable_refs = 0;      /* references into damaged pages, or on them, which could not
                                          be checked */
  bool clean() const { return problem_count == 0; }
  /* Records a problem (keeping the first 100 in `problems`). */
  void Add(std::string problem) {
    ++problem_count;
    if (problems.size() < 100) problems.push_back(std::move(problem));
  }
};

/* What Store::Recover found and did. */
struct RecoveryReport {
  bool damaged = false; /* false: every log was intact (or only cut short at its end, as
                           a killed process leaves it); nothing was changed but the
                           obsolete logs removed */
  uint64_t obsolete_logs_removed = 0; /* logs whose writes were already in table files, left by
                                         killed processes: deleted, as every writing open does */
  std::string log_file;               /* the first damaged write-ahead log */
  uint64_t damage_offset = 0;         /* where in it the damage starts, in bytes */
  std::string damage;                 /* what is wrong there ("checksum mismatch", ...) */
  std::string kept_copy;              /* the directory where the logs were copied before recovery */
  uint64_t damaged_bytes = 0;         /* the unreadable part, up to the next intact record: it held
                                         one commit or more (how many cannot be told) */
  uint64_t commits_lost = 0; /* intact commits after the damage, which recovery dropped too */
  uint64_t bytes_lost = 0;   /* bytes of log from the damage to the end of the last log */
  /* What the lost commits wrote, per database (a database made by a lost commit is included;
   * the damaged record itself cannot be read, so it is in no entry). */
  struct Database {
    std::string name;         /* "#ID" when no commit still in the store names it */
    uint64_t page_writes = 0; /* pages written (a page written twice counts twice) */
    uint64_t pages_freed = 0;
    bool catalogue = false; /* its root, page count or type table changed */
    bool created = false;   /* a lost commit created it: it does not exist after recovery */
  };
  std::vector<Database> databases;
};

class Transaction;

/* An open store. Thread-safe. In a child made by fork() (without exec) every call on it, and on
 * its transactions, returns CAIRN_MISUSE (runtime/store/fork_guard.h, F1-F3). */
class Store {
 public:
  /* Opens the store in directory `dir`, taking the store's process lock. Errors:
   * CAIRN_NOT_FOUND (no such store and !create_if_missing), CAIRN_BUSY ("store DIR is in use by
   * process N"), CAIRN_INVALID_ARGUMENT (DIR is not a store), CAIRN_CORRUPTION (bad magic or
   * catalogue, damaged files), CAIRN_UNSUPPORTED (a newer format), CAIRN_IO_ERROR.
   * Its write-ahead log is read first: a record cut short at the end of a log (a process killed
   * while committing) is dropped, as it was never acknowledged; damage anywhere before that is
   * CAIRN_CORRUPTION naming the log file and where, with nothing changed on disk (the log is
   * kept), and says to run `cairn db recover` (Recover, below) to accept the loss. */
  static Status Open(const std::string &dir, const StoreOptions &options,
                     std::unique_ptr<Store> *store);
  /* Opens the store in `dir` as Open does, except that damage in its write-ahead log does not
   * refuse the open: the logs are copied into DIR/recovered-YYYYMMDD-HHMMSS/ first, the store
   * comes back as of the last intact commit before the damage, every commit after it is dropped
   * (RocksDB's point-in-time recovery), and `report` says what was lost. The recovered state is
   * made durable (flushed out of the log) before it returns. Without damage, nothing is copied
   * or changed and report->damaged is false. `cairn db recover` is this. */
  static Status Recover(const std::string &dir, const StoreOptions &options,
                        RecoveryReport *report);
  ~Store();
  Store(const Store &) = delete;
  Store &operator=(const Store &) = delete;

  const std::string &dir() const;
  const StoreOptions &options() const;

  /* Creates an empty database (no pages, root 0). CAIRN_ALREADY_EXISTS if the name is taken,
   * CAIRN_INVALID_ARGUMENT if the name is not valid. Committed with the store's durability. */
  Status CreateDatabase(std::string_view name, DatabaseId *id = nullptr);
  /* Deletes a database and everything in it. CAIRN_NOT_FOUND if there is none by that name,
   * CAIRN_BUSY if a transaction of this process is using it. */
  Status DropDatabase(std::string_view name);
  /* Drops database `name` for everyone but this Store: its name is gone at once (durably: a
   * create of the name makes another database), and its pages stay readable and writable here
   * by its id (`*id`), for a process that has its objects in use, until this Store is destroyed,
   * which deletes them. A process that ends without that leaves an 'X' key saying so, and the
   * next writing open deletes them. CAIRN_NOT_FOUND if there is none of that name. */
  Status DetachDatabase(std::string_view name, DatabaseId *id = nullptr);
  /* The names of all databases, sorted. */
  Status ListDatabases(std::vector<std::string> *names);
  /* The id of a database by name, for the Transaction calls. CAIRN_NOT_FOUND if there is none. */
  Status FindDatabase(std::string_view name, DatabaseId *id);
  Status GetDatabaseInfo(std::string_view name, DatabaseInfo *info);

  /* Reads every page of database `name` from one snapshot and verifies S1-S4 and S6. Returns OK
   * when the check ran (the findings are in `report`), an error when it could not run. */
  Status Check(std::string_view name, CheckReport *report);
  /* Reads every table file of the store whole and verifies RocksDB's block checksums, including
   * the blocks no read of a page needs (older versions of pages, which a compaction still reads:
   * damage there stops every write of the store). One problem per damaged file in `problems`
   * (naming it); `*files` counts the files read. */
  Status CheckFiles(std::vector<std::string> *problems, uint64_t *files);
  /* The same for a store that cannot be opened (a damaged catalogue stops the open): every
   * table file in DIR's db/ folder (the manifest is not read), for `cairn db check` to name the
   * damaged ones. */
  static Status CheckFilesAt(const std::string &dir, std::vector<std::string> *problems,
                             uint64_t *files);
  /* Reads every key of the store from one snapshot: each must be the store's header or belong to
   * a database that exactly one name leads to (or that a process dropped while it had it open:
   * DetachDatabase). Check(name) reads only what a name leads to, so
   * a database whose name entry was lost (or a page written under a wrong database id) is found
   * only here. One problem per database id that no name leads to (what it holds, and the name
   * its record gives), per key of unknown kind and per id two names share (the first 100, then a
   * line saying how many more); `*keys` counts the keys read. */
  Status CheckKeys(std::vector<std::string> *problems, uint64_t *keys);

  /* Begins a transaction (state ACTIVE) reading from a snapshot taken now. */
  Status BeginTransaction(std::unique_ptr<Transaction> *txn);
  /* The same for work no other transaction may touch while it runs, which the caller
   * guarantees (the upgrade of a database no one has open, in the process that holds the
   * store): its writes take no key locks and are not checked for conflicts (RocksDB's
   * skip_concurrency_control), which for hundreds of thousands of keys was most of the time. */
  Status BeginExclusiveTransaction(std::unique_ptr<Transaction> *txn);

  class Impl;

 private:
  Status BeginTransactionOf(std::unique_ptr<Transaction> *txn, bool exclusive);
  explicit Store(std::unique_ptr<Impl> impl);
  static Status OpenStore(const std::string &dir, const StoreOptions &options,
                          RecoveryReport *recovery, std::unique_ptr<Store> *store);
  std::unique_ptr<Impl> impl_;
};

/* A transaction on the pages and catalogues of one or more databases of a store. See the state
 * machine above. Page buffers are kPageSize bytes. */
class Transaction {
 public:
  enum class State { kIdle, kActive, kCommitting, kFailed };

  ~Transaction();
  Transaction(const Transaction &) = delete;
  Transaction &operator=(const Transaction &) = delete;

  State state() const;

  /* Copies page `page` of database `db` into `buffer`, verifying its checksum (S3). A page
   * allocated by this transaction and not yet written reads as zeros. *checksum, if given,
   * gets the stored page's checksum (StoredPageChecksum of what was read). Errors:
   * CAIRN_NOT_FOUND (no such page, or the page is free), CAIRN_CORRUPTION (naming database
   * and page). */
  Status ReadPage(DatabaseId db, PageNo page, void *buffer, uint32_t *checksum = nullptr);
  /* Writes a page that exists and is in use, locking it until the transaction ends. A page
   * that is stored already and of which less than half changed is written as a delta of the
   * words that changed, words moved a few places counted as moves (docs/store-format.md, store
   * format 3): readers see the whole page as always. *stored_bytes, if given, gets the bytes
   * the write adds to the commit (the whole stored page, or the delta). `base`, if given,
   * spares the store reading the page back: the page's contents as stored (as this
   * transaction reads them), with `base_checksum` their checksum as ReadPage or the write that
   * stored them gave it; a base whose checksum is not that one is not used (the store reads
   * the page back), so a wrong base costs a read, never a wrong page. *checksum, if given,
   * gets the checksum of the page as written. Errors: CAIRN_NOT_FOUND (no such
   * page), CAIRN_INVALID_ARGUMENT (the page is free), CAIRN_BUSY (the lock timed out, or another
   * transaction committed this page after this one began), CAIRN_DEADLOCK (waiting would deadlock).
   */
  Status WritePage(DatabaseId db, PageNo page, const void *buffer, uint64_t *stored_bytes = nullptr,
                   const void *base = nullptr, uint32_t base_checksum = 0,
                   uint32_t *checksum = nullptr);
  /* Allocates a page (a free one if any, else page_count + 1); it reads as zeros until written.
   * Locks the database's catalogue until the transaction ends. */
  Status AllocatePage(DatabaseId db, PageNo *page);
  /* Allocates n consecutive pages, *first .. *first + n - 1, at the end of the database (free
   * pages are not reused for runs); they read as zeros until written. Locks the catalogue. */
  Status AllocatePageRun(DatabaseId db, uint64_t n, PageNo *first);
  /* *free = whether page `page` (which must exist: CAIRN_NOT_FOUND otherwise) is on the free
   * list, as of this transaction. */
  Status IsFree(DatabaseId db, PageNo page, bool *free);
  /* Puts an in-use page on the free list, and drops its identity hash entries (S6). Locks the
   * catalogue. */
  Status FreePage(DatabaseId db, PageNo page);

  /* The root as of this transaction (its snapshot, or its own SetRoot). */
  Status GetRoot(DatabaseId db, uint64_t *root);
  /* Sets the root, committed with the pages. Locks the catalogue. */
  Status SetRoot(DatabaseId db, uint64_t root);
  /* The page count as of this transaction, including its own allocations. */
  Status GetPageCount(DatabaseId db, uint64_t *page_count);

  /* Adds a type to the table, or finds it: `*index` gets the fingerprint's index. The same
   * fingerprint with a different layout is CAIRN_TYPE_MISMATCH. Locks the catalogue when it
   * adds. */
  Status PutType(DatabaseId db, uint64_t fingerprint, std::string_view layout, uint32_t *index);
  /* Replaces the layout of the type `fingerprint`, keeping its index (CAIRN_NOT_FOUND if the
   * table lacks it): the upgrade of a database (persist/upgrade.h, U6) renames a definition
   * whose objects it converted, so that the table holds one definition of each name again. */
  Status ReplaceTypeLayout(DatabaseId db, uint64_t fingerprint, std::string_view layout);
  /* CAIRN_NOT_FOUND if the fingerprint or index is not in the table. */
  Status GetType(DatabaseId db, uint64_t fingerprint, TypeEntry *entry);
  Status GetTypeByIndex(DatabaseId db, uint32_t index, TypeEntry *entry);
  /* The whole table, by index. */
  Status ListTypes(DatabaseId db, std::vector<TypeEntry> *entries);

  /* Records the identity hash of the object at `offset` in page `page` (which must exist),
   * committed with the pages; replaces one recorded there before. Locks that entry. */
  Status PutIdentityHash(DatabaseId db, PageNo page, uint32_t offset, uint64_t hash);
  /* The identity hashes recorded for objects in page `page`, by offset. */
  Status ListIdentityHashes(DatabaseId db, PageNo page, std::vector<IdentityHashEntry> *entries);

  /* Writes all of the transaction's pages and catalogue changes in one atomic write, durable as
   * StoreOptions::durability says, and ends the transaction (IDLE). On error the transaction is
   * FAILED and nothing of it is on disk: Abort() it. */
  Status Commit();
  /* Drops everything the transaction wrote and releases its locks. Always allowed. */
  void Abort();

  class Impl;

 private:
  friend class Store;
  explicit Transaction(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/* The name of a state, for messages ("active", ...). */
const char *StateName(Transaction::State state);

/* The checksum page `page` of database `db` has when stored with `contents` (kPageSize bytes):
 * what ReadPage and WritePage report. */
uint32_t StoredPageChecksum(DatabaseId db, PageNo page, const void *contents);

}  // namespace cairn::store

#endif /* CAIRN_STORE_H */
