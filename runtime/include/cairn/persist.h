/* Cairn: persistence by reachability, its C API.
 *
 * Whatever is reachable from the root of an open database when a transaction commits is in that
 * database; the next program that opens it reads those objects as ordinary heap objects. Nothing
 * says which objects persist: commit runs the collector as a stabilizer (Figure 2 of the
 * mostly-copying persistence paper) from the database roots and the persistent pages written in
 * the transaction; newly reachable objects are copied into persistent pages of that database (or,
 * if a root on the stack pins their page, that page becomes persistent in place). Persistent
 * pages are faulted in on first touch and their references swizzled to plain addresses, so a
 * persistent object is read and written at memory speed; the first write to a clean page is
 * trapped once to mark it modified (a page a commit wrote after it had been clean stays writable
 * until the next commit, which finds its changes by comparison). docs/persistence.md explains
 * the mechanism.
 *
 * Databases live in a store (a directory; see cairn/store.h for the format and durability). One
 * store per process, opened by cairn_store_open or, with the defaults, by the first database
 * call. Databases are opened by name; several may be open at once. A reference from one
 * database's object to another's is refused at commit.
 *
 * Transactions follow the PM3/ODMG interface: begin, commit, abort, chain (commit and begin the
 * next), checkpoint (write and stay open), is-open. One transaction at a time (one mutator thread
 * in this version). A database root is read and written only inside a transaction.
 *
 * Errors are values (cairn_status, cairn_last_error). Most type mismatches are found when a
 * database is opened. An error found while faulting a page in (a type this program lacks, or
 * registered after the open and defines differently, a damaged page, a store failure) cannot be
 * returned to the instruction that touched the page: it goes to the hook the embedder installed
 * (cairn_set_fault_error_hook, below), which may jump back to a safe place; without one, the
 * program stops with a message naming the database, the page and the type. Either way the open
 * transaction is failed and nothing of it is written.
 *
 * Page faults arrive as SIGSEGV. The runtime installs its handler when the store is opened, on
 * top of any handler already there (which still gets every fault that is not the runtime's);
 * see "Page faults and SIGSEGV" below for living with LLVM's, a sanitizer's or your own.
 */
#ifndef CAIRN_PERSIST_H
#define CAIRN_PERSIST_H

#include <stddef.h>
#include <stdint.h>

#include "cairn/gc.h"
#include "cairn/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An open database. Valid until it is dropped or the process ends. */
typedef struct cairn_db cairn_db;

/* How the store is opened. Zero in a field means its documented default. */
typedef struct cairn_persist_options {
  const char *store_dir;        /* NULL: $CAIRN_STORE if set, else ./cairn.store */
  int durability;               /* 0: sync (default: a commit returns once it is on disk);
                                   1: async (survives a crash of the process; the last commits
                                   may be lost on power loss) */
  uint32_t lock_timeout_ms;     /* store lock wait; default 1000 */
  int no_create;                /* 1: a missing store directory is an error; default 0 creates it */
  uint64_t max_resident_pages;  /* persistent pages kept loaded at most (clean ones, and those
                                   the last commit kept writable; not those modified in the
                                   open transaction); beyond it, clean ones are evicted
                                   (re-read on the next touch). Default: a quarter of the
                                   heap's pages (half the persistent arena) */
  uint64_t max_protection_runs; /* budget of protection changes across the heap, each a piece
                                   of the kernel's mapping (vm.max_map_count, 65530); default
                                   30000. See docs/persistence.md */
  int read_only;                /* 1: open the store read-only: databases are read, and
                                   transactions that change nothing commit; other read-only
                                   processes may use the store at the same time, no writer.
                                   A commit that would write, cairn_db_create and cairn_db_drop
                                   fail with CAIRN_MISUSE, saying the store is read-only and why
                                   (nothing is written). Default 0: read-write, except that a
                                   store this process cannot write (its db/ folder or lock file,
                                   or its directory when one of those is to be made: their
                                   permissions, a read-only file system; store::WhyUnwritable)
                                   is opened read-only instead of refused, decided before the
                                   open.
                                   With no options (the language's programs), the environment
                                   variable CAIRN_STORE_READ_ONLY=1 sets it. */
  uint64_t max_frames;          /* frames (heap pages of address space) for persistent pages at
                                   most: those loaded clean and those reserved for the pages the
                                   loaded ones refer to (the open transaction's modified pages
                                   are not counted). Past three quarters of it, the collection
                                   at the end of a commit evicts half the clean pages and
                                   releases the frames nothing refers to; a program that reads
                                   past it without committing gets CAIRN_OUT_OF_MEMORY. Default,
                                   and at most: the persistent arena (half the heap's
                                   reservation) */
  uint64_t commit_memory_bytes; /* what a commit's writes may hold in memory at most (the
                                   store's transaction batch, then as much again in RocksDB's
                                   memory table: twice the bytes written); past it the commit
                                   fails with CAIRN_OUT_OF_MEMORY and writes nothing. Default 0:
                                   what the machine has available (MemAvailable and SwapFree
                                   of /proc/meminfo), checked every 64 MiB written */
} cairn_persist_options;

/* Opens the store (and sets up the heap if needed). CAIRN_BUSY if another process uses it,
 * CAIRN_MISUSE if a store is already open. A child made by fork() after this may not use the
 * store: every call that needs it returns CAIRN_MISUSE (the child's commits would overwrite the
 * parent's); when the child exits it flushes stdio and ends at once with its status, without
 * running the static destructors and atexit handlers registered before the fork
 * (docs/store-format.md, "A child made by fork()"). */
cairn_status cairn_store_open(const cairn_persist_options *opts);
/* The directory of the open store, or NULL. */
const char *cairn_store_dir(void);

/* --- Databases ---------------------------------------------------------------------------------
 */

/* Creates a database (empty, root nil) and opens it. CAIRN_ALREADY_EXISTS if it exists,
 * CAIRN_INVALID_ARGUMENT if the name is not valid, CAIRN_BUSY if 255 databases are open already
 * (the most a process can have; nothing is created). Inside a transaction it is created at
 * once and the transaction may use it; aborting the transaction does not undo the creation
 * (CAIRN_MISUSE in a failed transaction: abort it first). */
cairn_status cairn_db_create(const char *name, cairn_db **out);
/* Opens a database. CAIRN_NOT_FOUND if there is none by that name. Opening it again returns the
 * same handle. Its type table is checked against this program's registered types first:
 * CAIRN_TYPE_MISMATCH, naming the type and what differs, if the program defines a stored type
 * differently (a type of the same name with other fields, or the same fingerprint with another
 * layout); the database then stays closed. A stored type the program lacks entirely is no error
 * here, only when an object of it is faulted in (docs/persistence.md, "Types"). */
cairn_status cairn_db_open(const char *name, cairn_db **out);
/* What cairn_db_upgrade converted. */
typedef struct cairn_upgrade_report {
  uint64_t types_converted;   /* stored types the program defines differently, converted */
  uint64_t objects_converted; /* objects of them the root reaches */
  uint64_t objects_moved;     /* of those, the ones whose size changed (moved to new pages) */
  uint64_t pages_written;     /* pages written: converted in place, references rewritten, new */
  uint64_t pages_freed;       /* pages left with no live object by the moves, and pages the root
                                 did not reach (freed as `cairn db gc` frees them) */
  const char *summary;        /* a line per type converted: "'Item': 40 objects converted;
                                 field 'cost' added (zero); field 'price' dropped with the
                                 values of 40 objects"; "" if nothing was converted. Valid
                                 until the next upgrade */
} cairn_upgrade_report;
/* Opens a database as cairn_db_open does, first converting, in one store transaction, its
 * objects of types this program defines differently (a type of the same name, another
 * fingerprint) to the program's definitions: fields are matched by name, through base classes;
 * a field the program adds starts as zero (0, 0.0, false, nil), one it removed is dropped; an
 * object whose size changes moves to a new page and every reference to it is rewritten (its
 * identity hash goes with it). Only objects the root reaches are converted; as `cairn db gc`
 * does, every dead object on a page the root reaches becomes a filler and every page it does
 * not reach is freed. A field of both definitions with another kind or declared type, a class
 * that no longer extends a class it did, or an array type whose elements are laid out
 * differently is CAIRN_TYPE_MISMATCH naming the type and the field, and nothing is written. A crash
 * leaves the database as it was or upgraded (persist/upgrade.h, U1-U7). Nothing to convert: nothing
 * is written. A database this process has open already is returned as it is. Not inside a
 * transaction that failed (CAIRN_MISUSE); inside an open one, the conversion commits at once
 * (an abort does not undo it). A read-only store: CAIRN_MISUSE if anything needs converting.
 * `report` may be NULL. */
cairn_status cairn_db_upgrade(const char *name, cairn_db **out, cairn_upgrade_report *report);
/* What an upgrade appends to the name of a definition it converted, in the type table (the
 * entry stays for pages no root reaches; it names no type a program defines). */
#define CAIRN_REPLACED_BY_UPGRADE " (replaced by an upgrade)"
/* *exists = 1 if a database by that name exists. */
cairn_status cairn_db_exists(const char *name, int *exists);
/* Deletes a database and everything in it, at once (inside a transaction too: an abort does not
 * undo it). One this process has open is gone for everyone else at once (its name: exists is 0,
 * a create of the name makes another database), and its handle's root can no longer be read or
 * set; the objects of it the program still holds stay usable (their pages are read and written
 * by the database's id) until the store closes, which deletes them (a process killed first
 * leaves them marked, and the next open deletes them). */
cairn_status cairn_db_drop(const char *name);
/* Calls fn once per database name, in order. */
cairn_status cairn_db_list(void (*fn)(const char *name, void *ctx), void *ctx);
const char *cairn_db_name(const cairn_db *db);

/* The root of an open database (NULL if none), inside a transaction only (CAIRN_MISUSE). */
cairn_status cairn_db_get_root(cairn_db *db, void **root);
/* Sets the root to any heap object (or NULL); it and what it reaches persist at commit. The
 * object's reference itself: an address inside an object (or at its header) is
 * CAIRN_INVALID_ARGUMENT saying where it points. */
cairn_status cairn_db_set_root(cairn_db *db, void *root);

/* --- Looking into databases (for tools: the REPL, cairn db) --------------------------------- */

/* Calls fn once per database this process has open, in the order it last opened or created each
 * (opening an open one again moves it last): the last is the one opened last. Nothing if the
 * store is not open. */
void cairn_db_each_open(void (*fn)(cairn_db *db, void *ctx), void *ctx);

/* Calls fn once per entry of an open database's type table (the types it holds or held objects
 * of), in index order, with a descriptor made from what the entry keeps: the fingerprint, name,
 * flags, size, element kind, references, and each field's name, kind, count and offset; since
 * store format 2 (docs/store-format.md) also each field's declared type (cairn_field.type) and a
 * STRUCT field's nested layout (a base class). It has no field sizes and no methods, is not
 * registered, and is valid only until fn returns. Inside or outside a transaction. */
cairn_status cairn_db_stored_types(cairn_db *db, void (*fn)(const cairn_type *stored, void *ctx),
                                   void *ctx);

/* --- Transactions --------------------------------------------------------------------------------
 */

cairn_status cairn_txn_begin(void);      /* CAIRN_MISUSE if one is open */
cairn_status cairn_txn_commit(void);     /* stabilize, write, end; CAIRN_MISUSE if none is open */
cairn_status cairn_txn_abort(void);      /* discard changes to persistent objects, end */
cairn_status cairn_txn_chain(void);      /* commit, then begin the next */
cairn_status cairn_txn_checkpoint(void); /* commit's writes, and stay open */
int cairn_txn_is_open(void);
/* With no transaction open: 1 if persistent objects were changed since the last commit or abort
 * (outside any transaction: the next transaction commits those changes; if none follows, they
 * are never written), else 0. 0 with a transaction open or no store open. Never 1 without a
 * change; a change to a page on which transient objects were allocated since the commit (the
 * mutator's tail) and kept it shared may not be seen. */
int cairn_txn_changes_pending(void);
/* After a failed commit (a cross-database reference, a store error) the transaction is failed:
 * nothing of it was written, and only cairn_txn_abort is allowed. */

/* --- System calls --------------------------------------------------------------------------------
 */

/* Makes [p, p + n) resident and writable before it is handed to the kernel to write into
 * (read(2) into a persistent object would fail with EFAULT on a protected page instead of
 * faulting). Its persistent pages become modified: they are written at the next commit. */
void cairn_make_resident(void *p, size_t n);

/* Makes [p, p + n) resident, read-only, before it is handed to the kernel to read from
 * (write(2) of a persistent buffer would fail with EFAULT on a page not loaded yet). Its pages
 * stay clean: nothing is written at commit because of it. The range should fit in
 * max_resident_pages (pages loaded first may otherwise be evicted again before the call ends).
 * Transient memory in the range is left as it is. */
void cairn_make_resident_for_read(const void *p, size_t n);

/* As cairn_make_resident_for_read, but a page that cannot be faulted in (a type this program
 * lacks, a damaged page, a store error) is returned as an error (cairn_last_error says which
 * database and page, and why) instead of going to the fault error hook. The open transaction
 * is failed then, as after a fault (only cairn_txn_abort is allowed). For a caller that can
 * report the error where it is, e.g. at a source position. */
cairn_status cairn_load_for_read(const void *p, size_t n);

/* --- Page faults and SIGSEGV -------------------------------------------------------------------
 *
 * The first touch of a persistent page that is not loaded, and the first write to a clean one,
 * raise SIGSEGV. The runtime's handler (installed by the store's opening, on the mutator thread):
 *   - serves the faults on persistent pages of the mutator thread (loads the page, or marks it
 *     modified);
 *   - stops the program with a message naming the thread if another thread touches a persistent
 *     page that is not loaded (or writes a clean one): one mutator thread in this version;
 *   - passes every other fault to the handler that was installed before it, as the kernel would
 *     have called it (SA_SIGINFO or not, its sa_mask, SA_RESETHAND). If that was the default
 *     action, the default is restored and the fault repeats: the process dies by SIGSEGV (and
 *     dumps core if enabled), as if the runtime were not there;
 *   - runs on an alternate signal stack (the mutator thread gets one of 256 KiB unless it has a
 *     larger one), so a fault near the limit of the stack still has room to read the store.
 */

/* Installs the runtime's SIGSEGV handler again, on top of whatever is installed now, which then
 * gets the faults that are not the runtime's. Call it (from the mutator thread) after a library
 * that installs its own handler later than the store was opened: llvm::InitLLVM or
 * llvm::sys::PrintStackTraceOnErrorSignal, for instance. Otherwise that library would see the
 * runtime's page faults first and take them for crashes. Does nothing if the runtime's handler is
 * on top already; may be called before the store is opened. CAIRN_INTERNAL if the system refuses,
 * or if something else owns SIGSEGV (AddressSanitizer with handle_segv=2). */
cairn_status cairn_install_fault_handler(void);

/* For an embedder whose own SIGSEGV handler runs first and does not pass faults on: call this
 * from it with the faulting address (siginfo_t.si_addr) and whether the access was a write (1), a
 * read (0) or is unknown (-1). Returns 1 if the fault was the runtime's and has been served (load
 * the page or make it writable): return from the handler and the access is retried. Returns 0 if
 * the address is not the runtime's: handle the fault as your own. If the page cannot be loaded, it
 * reports the error as the runtime's own handler would (the fault-error hook, below), and does not
 * return. Only on the mutator thread; from another thread, a fault on a persistent page is
 * a fatal error naming the thread. */
int cairn_handle_fault(void *addr, int is_write);

/* --- Errors while faulting a page in --------------------------------------------------------- */

/* What the runtime tells the fault-error hook. Valid until the hook returns or jumps away; copy
 * what you keep (the message is also cairn_last_error() until the next runtime call). */
typedef struct cairn_fault_error {
  cairn_status code;      /* CAIRN_TYPE_MISMATCH: a type this program lacks or defines otherwise;
                             CAIRN_CORRUPTION: a damaged page; CAIRN_OUT_OF_MEMORY: no frame left
                             in the heap's persistent arena; a store's failure (CAIRN_IO_ERROR,
                             CAIRN_BUSY, ...) */
  const char *message;    /* "database 'd', page 7: it holds objects of type 'T' ..." */
  const char *database;   /* the database's name */
  uint64_t page;          /* the page's id in that database (0: its type table) */
  void *address;          /* the address whose touch faulted */
  int transaction_failed; /* 1: a transaction was open; it is failed now, and only
                             cairn_txn_abort is allowed */
  void *pc;               /* the instruction that touched it, from the signal's context, when the
                             runtime's SIGSEGV handler caught the touch (on x86-64 and aarch64);
                             NULL from cairn_make_resident, cairn_handle_fault or another
                             machine: then the touch was made by the hook's caller's callers */
} cairn_fault_error;

typedef void (*cairn_fault_error_hook)(const cairn_fault_error *error, void *ctx);

/* Installs the hook called when a persistent page cannot be faulted in (NULL: none, the default,
 * which prints the message and ends the process with status 1). May be called before the store is
 * opened.
 *
 * When the hook runs, the runtime is consistent: the page is reserved again (no access: the next
 * touch tries again and fails the same way), the open transaction is failed (nothing of it was or
 * will be written), no runtime lock is held and nothing is half done. It runs on the mutator
 * thread, inside the SIGSEGV handler (on the alternate signal stack) when an instruction of the
 * program touched the page, or inside cairn_make_resident or cairn_handle_fault. It may:
 *   - jump back to a place the embedder set with sigsetjmp(env, 1): siglongjmp(env, 1), and
 *     there call cairn_txn_abort() (if error->transaction_failed) and go on, using the runtime
 *     and the databases again; what the program did with heap objects until the fault stays as
 *     it was (the runtime's SIGSEGV handler is installed with SA_NODEFER, so a plain longjmp
 *     does not leave SIGSEGV blocked either);
 *   - print the error and end the process (exit or _exit; cairn_txn_abort may be called first);
 *   - return, and the runtime then stops the program as if there were no hook.
 * It must not return to the faulting instruction any other way, and must not touch the page that
 * failed. A jump abandons the frames between the fault and the sigsetjmp: memory they had
 * malloc'd leaks, locks they held stay held (stdio's, if a persistent buffer was being printed:
 * hand persistent buffers to library functions after cairn_make_resident). The runtime's own
 * frames there hold neither. */
void cairn_set_fault_error_hook(cairn_fault_error_hook hook, void *ctx);

/* --- Statistics (the paper's Figure 7)
 * ------------------------------------------------------------ */

typedef struct cairn_persist_stats {
  uint64_t commits; /* commits and checkpoints */
  uint64_t aborts;
  uint64_t pages_faulted;   /* pages read from the store on first touch */
  uint64_t write_faults;    /* first writes to clean persistent pages */
  uint64_t pages_written;   /* pages written to the store */
  uint64_t bytes_written;   /* stored bytes: a whole page (8,224 with its header) or the delta
                               of the words that changed (docs/store-format.md) */
  uint64_t pages_accurate;  /* new pages filled by copying newly persistent objects */
  uint64_t pages_ambiguous; /* transient pages pinned by the stack made persistent in place */
  uint64_t pages_large;     /* pages of large objects made persistent in place */
  uint64_t objects_made_persistent;
  uint64_t bytes_made_persistent;
  uint64_t pages_evicted;      /* clean pages unloaded to stay within max_resident_pages, or
                                  to relieve the arena (max_frames) */
  uint64_t frames_released;    /* frames of unreached clean pages given up (Figure 4) */
  uint64_t resident_pages;     /* now: persistent pages loaded */
  uint64_t reserved_frames;    /* now: frames for persistent pages not loaded */
  uint64_t stabilize_ns;       /* time in stabilization (a collection from the roots) */
  uint64_t write_ns;           /* time unswizzling and committing to the store */
  uint64_t fault_ns;           /* time in page faults (reading, swizzling) */
  uint64_t stabilizations;     /* commits that ran the stabilizer (a collection from the roots).
                                  One whose modified pages and changed roots refer only to
                                  persistent objects of their own database, or that changed
                                  nothing, runs none */
  uint64_t pages_checked;      /* modified pages read at commit to find whether to stabilize */
  uint64_t pages_rereferenced; /* touches of loaded clean pages that the residency budget's
                                  CLOCK hand had made cold (each a trap, no store read) */
} cairn_persist_stats;

/* Totals since the store was opened. */
void cairn_persist_get_stats(cairn_persist_stats *out);
/* The figures of the last commit or checkpoint alone. */
void cairn_persist_last_commit_stats(cairn_persist_stats *out);

/* Objects made persistent by the last commit, per type. Fills at most max entries, returns how
 * many types there were. objects and bytes count all of them; the _ambiguous figures those of
 * them that were on transient pages pinned by an ambiguous root and made persistent in place
 * (the rest were copied into new pages, or were large objects made persistent in place). */
typedef struct cairn_type_count {
  const char *type;
  uint64_t objects;
  uint64_t bytes;
  uint64_t objects_ambiguous;
  uint64_t bytes_ambiguous;
} cairn_type_count;
size_t cairn_persist_last_commit_types(cairn_type_count *out, size_t max);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CAIRN_PERSIST_H */
