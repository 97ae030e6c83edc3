/* Cairn: the runtime entry points that compiled Cairn programs call.
 *
 * This is the one list the front end's code generator and the runtime agree on (style.md, 10):
 * program start and end, text, printing and conversion to text, runtime errors with source
 * positions, type tests, and the built-in classes Database and Transaction; and, for embedders
 * such as the REPL, the hook that turns a runtime error into a jump back to the embedder.
 * Everything here is C, so generated code calls it with the C ABI; references are plain `void *`
 * here and `ptr addrspace(1)` in the generated IR (the same bits on x86-64).
 *
 * Values (docs/language.md):
 *   int    int64_t          float  double          bool   int (0 or 1; `i1` in the IR)
 *   text   a heap object of cairn_text_type (an I8 array, CAIRN_TYPE_TEXT); nil is NULL
 *   [T]    a heap array (length word, then elements); nil is NULL
 *   class  a heap object whose descriptor is the class's
 *   Database     a cairn_db * (never a heap object; cannot be stored in a field or array)
 *   Transaction  an int64_t handle (see below)
 *
 * Runtime errors. Every function named cairn_rt_* reports a runtime error and does not return:
 * it prints "<file>:<line>:<col>: <message>" on standard error (standard output is flushed
 * first), aborts the open transaction if there is one (nothing of it reaches the database), and
 * exits with status CAIRN_EXIT_RUNTIME_ERROR. The position is a static cairn_loc the compiler
 * emits once per site.
 */
#ifndef CAIRN_LANG_H
#define CAIRN_LANG_H

#include <stddef.h>
#include <stdint.h>

#include "cairn/gc.h"
#include "cairn/persist.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Exit status of a program stopped by a runtime error (panic, nil dereference, ...). */
#define CAIRN_EXIT_RUNTIME_ERROR 70

/* A source position, emitted by the compiler as a constant. */
typedef struct cairn_loc {
  const char *file; /* the path as the compiler was given it */
  uint32_t line;    /* 1-based */
  uint32_t col;     /* 1-based, in bytes */
} cairn_loc;

/* --- Program start and end ------------------------------------------------------------------ */

/* Called first by the generated `main`: sets up the heap (cairn_init), remembers argv for
 * cairn_lang_argc/argv, makes standard output fully buffered when it is not a terminal. The
 * store is opened lazily by the first database call (CAIRN_STORE, else ./cairn.store).
 * It installs the runtime's fault-error hook (cairn_set_fault_error_hook): a persistent page
 * that cannot be faulted in (a type this program lacks, a damaged page, a store error) is a
 * runtime error "database error: <the runtime's message>" at the position of the Cairn line that
 * touched the page, from the executable's DWARF line table (none without one: -g0, code that is
 * not the executable's): standard output flushed (unless the fault happened while it was
 * locked), the open transaction aborted, exit status CAIRN_EXIT_RUNTIME_ERROR. Unless SIGSEGV
 * already has a handler (a sanitizer's reports overflows itself), it calls
 * cairn_lang_catch_stack_overflow for the calling thread. */
void cairn_lang_start(int argc, char **argv);

/* Makes a recursion too deep on the calling thread (a fault in or just below its stack's guard
 * page) a runtime error "stack overflow: ...": with the embedder's hook set
 * (cairn_set_runtime_error_hook) the hook gets it without a position, like any runtime error,
 * and may jump back; without one the message is printed, at the position of the innermost call
 * from Cairn code if the executable's line table has it, the open transaction aborted, and the
 * process exits with CAIRN_EXIT_RUNTIME_ERROR. Installs a SIGSEGV handler on an alternate signal
 * stack (made for the thread if it has none) on top of the current handler; any other fault goes to
 * the handler it displaced, as that one asked, or to the default action. Calling it again (from the
 * same or another thread) moves the watch to the calling thread's stack; one thread is watched.
 * The store's fault handler may go on top later: it passes such faults down. 0 on success, -1
 * if the thread's stack bounds, the alternate stack or the handler could not be had. */
int cairn_lang_catch_stack_overflow(void);

/* The program's arguments after the program name (what `args()` returns, as text). */
int64_t cairn_lang_argc(void);
const char *cairn_lang_argv(int64_t i); /* 0 <= i < cairn_lang_argc() */

/* exit(code): flushes standard output, aborts an open transaction, exits with code. */
void cairn_lang_exit(int64_t code) __attribute__((noreturn));

/* Called by the generated `main` after the program's main function returns: a transaction
 * still open is aborted with a note on standard error saying where it began and where its last
 * checkpoint or chain wrote (docs/language.md), standard output flushed, status 0. */
void cairn_lang_finish(void) __attribute__((noreturn));

/* --- Text ----------------------------------------------------------------------------------- */

/* A new heap text holding n bytes copied from bytes. */
void *cairn_text_new(const char *bytes, int64_t n);
/* a + b (nil operands are a runtime error reported at loc: "nil dereference: text in '+'"). */
void *cairn_text_concat(const cairn_loc *loc, void *a, void *b);
/* Contents equal (two nils are equal, nil and a text are not). */
int cairn_text_eq(void *a, void *b);
/* <0, 0, >0: byte-wise order (nil before every text). */
int64_t cairn_text_cmp(void *a, void *b);
/* `==` where a static type is `any` (or both are): contents if both are text, else identity. */
int cairn_any_eq(void *a, void *b);
/* The byte at i (0..len-1) as an int; out of range is a runtime error at loc. */
int64_t cairn_text_byte(const cairn_loc *loc, void *t, int64_t i);

/* --- Conversions to text: str(e) ------------------------------------------------------------ */

void *cairn_str_int(int64_t v);  /* "-42" */
void *cairn_str_float(double v); /* shortest text that reads back as the same double, always
                                    with '.', 'e', "inf" or "nan": "3.0", "0.1", "1e-09",
                                    "-inf", "nan" */
void *cairn_str_bool(int v);     /* "true" / "false" */
/* Any reference: "nil"; a text: itself; an array: "[1, 2, 3]" (text elements quoted:
 * ["a", "b"]; nested arrays and objects as str would show them, every element; an array
 * inside itself is "[...]" where it comes back, and so is any array past 1,000 levels of
 * nesting or 1,000,000 elements (or about 64 MiB) shown in all, the array being shown then
 * ending with ", ...]"); an object: "Type#N" where N is the object's identity number. */
void *cairn_str_ref(void *v);

/* --- Printing: print(e) / println(e) -------------------------------------------------------- */
/* Each writes str(e)'s bytes to standard output (buffered). */
void cairn_print_int(int64_t v);
void cairn_print_float(double v);
void cairn_print_bool(int v);
void cairn_print_ref(void *v);
void cairn_print_newline(void);
void cairn_print_space(void); /* between the arguments of print(a, b, ...) */

/* --- Conversions between numbers ------------------------------------------------------------ */

/* int(x) of a float: truncates toward zero; nan or out of int's range is a runtime error. */
int64_t cairn_float_to_int(const cairn_loc *loc, double v);

/* --- Type tests ----------------------------------------------------------------------------- */

/* 1 if obj (not nil) is of type `type` or a subtype (its descriptor or one of its supers is
 * `type`, by identity or, across modules, by fingerprint). */
int cairn_is_a(const void *obj, const cairn_type *type);
/* Type name of an object, for messages ("nil" for NULL). */
const char *cairn_type_name_of(const void *obj);

/* --- std.sys support (stdlib/sys.cairn; the compiler's list of intrinsics names them) -------
 * Figures for benchmarks, child processes, the environment and the OS page cache. Texts given
 * are copied before anything is allocated; texts returned are new heap texts. */

/* Field `which` of the runtime's statistics, 0 if there is no such field: the persistence
 * totals since the store was opened (cairn_persist_get_stats), the last commit's
 * (cairn_persist_last_commit_stats), in the order of cairn_persist_stats' fields (0 commits ..
 * 17 fault_ns); the collector's (cairn_get_stats), in the order of cairn_stats' fields. */
int64_t cairn_sys_persist_stat(int64_t which);
int64_t cairn_sys_last_commit_stat(int64_t which);
int64_t cairn_sys_gc_stat(int64_t which);
/* Takes a copy of the last commit's per-type figures (cairn_persist_last_commit_types) and
 * returns how many types there are; then the name and field `which` (0 objects, 1 bytes,
 * 2 objects_ambiguous, 3 bytes_ambiguous) of type i of that copy (i out of range: a runtime
 * error at loc). */
int64_t cairn_sys_commit_types(void);
void *cairn_sys_commit_type_name(const cairn_loc *loc, int64_t i);
int64_t cairn_sys_commit_type_stat(const cairn_loc *loc, int64_t i, int64_t which);
/* A full collection now (cairn_collect). */
void cairn_sys_collect(void);
/* Runs the program argv[0] (looked up in PATH if it has no '/') with the arguments of argv
 * (a [text]) and waits for it: its exit status, or 128 + the signal that killed it. Standard
 * output is flushed first; the child inherits standard input and error, and standard output
 * unless capture is 1, when it is read into a buffer that cairn_sys_run_output returns. A
 * program that cannot be started is a runtime error at loc. */
int64_t cairn_sys_run(const cairn_loc *loc, void *argv, int capture);
void *cairn_sys_run_output(void);
/* The environment variable's value, or nil if it is not set; setenv with a nil value unsets. */
void *cairn_sys_getenv(const cairn_loc *loc, void *name);
void cairn_sys_setenv(const cairn_loc *loc, void *name, void *value);
/* The path of this program's executable (/proc/self/exe), "" if unknown. */
void *cairn_sys_self_path(void);
/* The absolute path of the open store, else of the one the first database call would open
 * ($CAIRN_STORE, else ./cairn.store). */
void *cairn_sys_store_dir(void);
/* Flushes dirty pages to disk, then evicts the files under dir from the OS page cache
 * (posix_fadvise DONTNEED on each), else drops the whole cache (/proc/sys/vm/drop_caches).
 * Returns what happened, starting with "evicted:", "dropped:" or, if neither worked, "warm:"
 * and the reasons. */
void *cairn_sys_drop_caches(const cairn_loc *loc, void *dir);
/* The load average over the last minute (0.0 if unknown). */
double cairn_sys_load_average(void);
/* Makes the folder and its parents; 1 if it exists afterwards. */
int cairn_sys_make_dirs(const cairn_loc *loc, void *path);
/* 1 if something exists at path. */
int cairn_sys_file_exists(const cairn_loc *loc, void *path);
/* This process's id. */
int64_t cairn_sys_pid(void);
/* Nanoseconds of CPU time the calling thread has used (CLOCK_THREAD_CPUTIME_ID). */
int64_t cairn_sys_cpu_nanos(void);

/* --- Runtime errors (never return; see the top of this file) -------------------------------- */

void cairn_rt_nil_field(const cairn_loc *loc, const char *field, const char *type)
    __attribute__((noreturn)); /* nil dereference: field 'f' of T */
void cairn_rt_nil_method(const cairn_loc *loc, const char *method, const char *type)
    __attribute__((noreturn)); /* nil dereference: method 'm' of T */
void cairn_rt_nil(const cairn_loc *loc, const char *what)
    __attribute__((noreturn)); /* nil dereference: <what> (e.g. "index of [int]", "len") */
void cairn_rt_index(const cairn_loc *loc, int64_t index, int64_t length)
    __attribute__((noreturn)); /* index out of range: index 10, length 3 */
void cairn_rt_negative_length(const cairn_loc *loc, int64_t length)
    __attribute__((noreturn)); /* negative array length: -1 */
void cairn_rt_cast(const cairn_loc *loc, const void *obj, const char *target)
    __attribute__((noreturn)); /* failed 'as': Foo is not Bar */
void cairn_rt_div_zero(const cairn_loc *loc) __attribute__((noreturn)); /* division by zero */
void cairn_rt_check_array_length(const cairn_loc *loc, const cairn_type *type, int64_t length);
/* returns if an array of `length` elements of `type` (as for cairn_malloc_array) is not too
   large, else: array too large: 1000000000000 elements of [int] (at most ...) */
void cairn_rt_exit_status(const cairn_loc *loc, int64_t code)
    __attribute__((noreturn)); /* exit status out of range: 256 (...) */
/* A check the compiler emits (nil, index, division by zero, `as`, negative array length, exit
 * status) is a constant cairn_check_site in a table of the module; when it fails the code calls
 * cairn_rt_check_failed with the site, the values the message needs (x, y: see the kinds; 0
 * where unused) and the caller's position in a std function that reports at its caller (else
 * NULL, and the site's loc is used). It reports the error as the cairn_rt_* function of the
 * kind does. One entry for every kind lets -O0 code send all of a function's failed checks to
 * one block (frontend/lower/lowering.h, L2). The compiler lays the struct out as
 * {ptr, i32, i32, i32, ptr, ptr}: 40 bytes, kind at 16, a at 24, b at 32 (errors.cpp asserts
 * it). */
enum cairn_check_kind {
  CAIRN_CHECK_NIL = 1,         /* a: what ("index of [int]") */
  CAIRN_CHECK_NIL_FIELD,       /* a: field, b: type */
  CAIRN_CHECK_NIL_METHOD,      /* a: method, b: type */
  CAIRN_CHECK_INDEX,           /* x: index, y: length */
  CAIRN_CHECK_NEGATIVE_LENGTH, /* x: length */
  CAIRN_CHECK_CAST,            /* x: the object's address, a: the target type's name */
  CAIRN_CHECK_DIV_ZERO,        /* nothing */
  CAIRN_CHECK_EXIT_STATUS,     /* x: the status */
};
typedef struct cairn_check_site {
  cairn_loc loc;
  uint32_t kind; /* enum cairn_check_kind */
  const char *a; /* NULL where the kind has none */
  const char *b;
} cairn_check_site;
void cairn_rt_check_failed(const cairn_check_site *site, int64_t x, int64_t y,
                           const cairn_loc *caller) __attribute__((noreturn));
void cairn_rt_panic(const cairn_loc *loc, void *message_text)
    __attribute__((noreturn)); /* panic: <message> */
void cairn_rt_error(const cairn_loc *loc, const char *message) __attribute__((noreturn));

/* For embedders (the REPL): what a runtime error does instead of ending the process. With a hook
 * set, a runtime error (every cairn_rt_* above, and the database and transaction errors of the
 * functions below) flushes standard output, aborts the open transaction (nothing of it reaches
 * a database), and calls hook(loc, message, ctx) without printing anything: the hook reports
 * the error as it likes, then jumps back into the embedder (siglongjmp to a sigsetjmp made
 * before the embedder called the compiled code), which goes on using the runtime. The frames it
 * jumps over are compiled Cairn code and the runtime's error path, which hold no locks and no
 * resources but a few bytes of heap memory (leaked). If the hook returns, the error is printed
 * and the process exits with CAIRN_EXIT_RUNTIME_ERROR, as without a hook. loc may be NULL;
 * message is valid until the hook returns or jumps. NULL (the default) removes the hook.
 * exit(code) still ends the process. */
typedef void (*cairn_runtime_error_hook)(const cairn_loc *loc, const char *message, void *ctx);
void cairn_set_runtime_error_hook(cairn_runtime_error_hook hook, void *ctx);

/* Interrupting running code (for embedders: the REPL's Ctrl-C). Code compiled with polls (the
 * REPL's: LowerOptions::interruptible of the front end) reads cairn_interrupt_pending, as a
 * volatile 32-bit int, at the head of every loop each time round and at the entry of every
 * function; when it is not 0 it calls
 * cairn_rt_interrupted(loc). cairn_interrupt() sets it and is async-signal-safe (a SIGINT
 * handler may call it); cairn_rt_interrupted clears it and is the runtime error "interrupted"
 * at loc, with what every runtime error does (the open transaction aborted, the hook called).
 * Code without polls (a program's, and the runtime's own loops) never sees it: an embedder
 * clears a request no poll took with cairn_interrupt_clear() before it runs code again. */
extern volatile int32_t cairn_interrupt_pending;
void cairn_interrupt(void);
void cairn_interrupt_clear(void);
void cairn_rt_interrupted(const cairn_loc *loc) __attribute__((noreturn));

/* --- Database (docs/language.md, Persistence). Errors are runtime errors at loc, with the
 * runtime's message (cairn_last_error). ---------------------------------------------------- */

cairn_db *cairn_lang_db_create(const cairn_loc *loc, void *name_text);
cairn_db *cairn_lang_db_open(const cairn_loc *loc, void *name_text);
/* Database.upgrade: opens, first converting objects of classes the program defines differently
 * (cairn_db_upgrade). */
cairn_db *cairn_lang_db_upgrade(const cairn_loc *loc, void *name_text);
int cairn_lang_db_exists(const cairn_loc *loc, void *name_text);
void cairn_lang_db_drop(const cairn_loc *loc, void *name_text);
/* The names, in order: the count, then each name as heap text (the generated code builds the
 * [text] array, since only it knows that type's descriptor). */
int64_t cairn_lang_db_names_count(const cairn_loc *loc);
void *cairn_lang_db_names_at(int64_t i); /* after cairn_lang_db_names_count */
/* d.root: outside a transaction it is a runtime error. Getting it loads the root object's
 * page: one that cannot be loaded (the root's class is one this program lacks, a damaged page)
 * is a runtime error at loc ("database error: ..."), not a fault without a position later. */
void *cairn_lang_db_get_root(const cairn_loc *loc, cairn_db *db);
void cairn_lang_db_set_root(const cairn_loc *loc, cairn_db *db, void *root);
/* d.name (text) */
void *cairn_lang_db_name(cairn_db *db);
/* str(d), print(d): `Database("NAME")`, or `nil` for a null handle (the REPL shows the same). */
void *cairn_lang_db_str(cairn_db *db);

/* --- Transaction ---------------------------------------------------------------------------
 * A Transaction value is a handle: the number of the transaction it began (1, 2, ...). After
 * chain() the same handle names the next transaction. Using a handle whose transaction has
 * ended (commit, abort) is a runtime error ("transaction is not open"), except isOpen(). */

int64_t cairn_lang_txn_begin(const cairn_loc *loc);
void cairn_lang_txn_commit(const cairn_loc *loc, int64_t txn);
void cairn_lang_txn_abort(const cairn_loc *loc, int64_t txn);
void cairn_lang_txn_chain(const cairn_loc *loc, int64_t txn);
void cairn_lang_txn_checkpoint(const cairn_loc *loc, int64_t txn);
int cairn_lang_txn_is_open(int64_t txn);
/* For an embedder that keeps a transaction of its own open while code runs (the REPL's, one per
 * input): when code begins a transaction (atomic, Transaction.begin()) while the runtime has one
 * open that no code began, `hook(ctx)` is asked first. It returns 1 when it has ended that
 * transaction (committed it: the begin goes on), 0 when it has not (the begin is the runtime
 * error that a transaction is open), or -1 when ending it failed: the begin is the runtime error
 * "the transaction open before this one could not commit: <cairn_last_error()>". NULL: none. */
void cairn_lang_set_outer_transaction_hook(int (*hook)(void *ctx), void *ctx);
/* str(t), print(t): `Transaction#N`, with ` (open)` while it is; `nil` for the handle of
 * nothing, 0 (the REPL shows the same). N stays the handle's through chain(). */
void *cairn_lang_txn_str(int64_t txn);

/* atomic { }: begin at entry (a runtime error if a transaction is open), commit on every normal
 * exit (end of block, return, break, continue). A runtime error inside aborts it (above). */
void cairn_lang_atomic_begin(const cairn_loc *loc);
void cairn_lang_atomic_commit(const cairn_loc *loc);

/* --- hash(e) (docs/language.md, Built-in functions) ------------------------------------------
 * The hash of a reference: 0 for nil; for a text, a hash of its bytes (the same for equal texts,
 * in every process and on every machine: persistent hash tables depend on it); for any other
 * object, its identity hash (cairn_identity_hash). Ints, floats and bools are hashed inline by
 * the generated code (SplitMix64's finalizer of the value's bits). */
int64_t cairn_hash_ref(void *v);

/* --- Standard library support ----------------------------------------------------------------
 * The runtime functions behind the standard library (docs/stdlib.md). Only modules of the
 * standard library call them, by these names (the compiler's list is
 * frontend/check/intrinsics.cpp). Texts are heap texts (nil is NULL); a nil text where one is
 * needed is a runtime error at loc ("nil dereference: text"). */

/* A runtime error at loc whose message is the text `message` as it is. */
void cairn_std_error(const cairn_loc *loc, void *message) __attribute__((noreturn));

/* Moves n elements of src starting at from to dst starting at to (like memmove: the ranges may
 * overlap when src == dst). Both must be arrays of the same type; the ranges must lie within
 * them (else a runtime error at loc naming the range and the length). */
void cairn_array_move(const cairn_loc *loc, void *src, int64_t from, void *dst, int64_t to,
                      int64_t n);
/* Whether the n elements of a starting at from and of b starting at to are the same: the same
 * bytes, so identical elements (the same objects, not equal ones; std.list's sort checks with it
 * that the comparison left the list alone). Same types and ranges as cairn_array_move. */
int cairn_array_same(const cairn_loc *loc, void *a, int64_t from, void *b, int64_t to, int64_t n);

/* The index of the first occurrence of sub in t at or after from (0 <= from), or -1. An empty
 * sub is found at from when from <= len(t). */
int64_t cairn_text_find(const cairn_loc *loc, void *t, void *sub, int64_t from);
/* The bytes [from, to) of t as a new text; 0 <= from <= to <= len(t), else a runtime error
 * ("slice out of range: from 3, to 1, length 5"). */
void *cairn_text_slice(const cairn_loc *loc, void *t, int64_t from, int64_t to);
/* ASCII letters to upper / lower case; other bytes unchanged. */
void *cairn_text_upper(const cairn_loc *loc, void *t);
void *cairn_text_lower(const cairn_loc *loc, void *t);
/* t without leading and trailing ASCII white space (space, \t, \n, \r, \f, \v). */
void *cairn_text_trim(const cairn_loc *loc, void *t);
/* t with every occurrence of a (left to right, not overlapping) replaced by b; an empty a is a
 * runtime error. */
void *cairn_text_replace(const cairn_loc *loc, void *t, void *a, void *b);
/* The one-byte text of byte b (0..255, else a runtime error). */
void *cairn_text_of_byte(const cairn_loc *loc, int64_t b);
/* Decimal ints: an optional '+' or '-', then one or more digits, nothing else (no spaces), in
 * int's range. _ok says whether t is one; the value is 0 when it is not. */
int cairn_text_parse_int_ok(const cairn_loc *loc, void *t);
int64_t cairn_text_parse_int(const cairn_loc *loc, void *t);
/* Floats: an optional sign, then decimal digits with an optional '.' and exponent, or "inf",
 * "infinity", "nan" (any case); the whole text, within float's range. 0.0 when not. */
int cairn_text_parse_float_ok(const cairn_loc *loc, void *t);
double cairn_text_parse_float(const cairn_loc *loc, void *t);
/* x in fixed notation with `digits` digits after the point (0..100, else a runtime error),
 * rounded to nearest; "nan", "inf", "-inf". */
void *cairn_text_format_float(const cairn_loc *loc, double x, int64_t digits);
/* A builder's growable buffer (std.text's Builder): `buf` is nil (empty) or a byte buffer made
 * here (cairn_byte_buffer_type, never a text: no text is ever written in place) whose first
 * `used` bytes are the contents. Appends the bytes of `piece` and returns the buffer: `buf`
 * itself, written in place, when it has room, else a new buffer of twice the capacity (no more
 * than the heap holds in one object), or more if the piece needs it, holding the contents and
 * the piece. Amortized linear time. A `buf` of another type, or a
 * `used` outside 0..its length, is a runtime error at loc (a Builder whose fields were set by
 * hand), as it is for cairn_text_buffer_text, and so are contents that would grow past what the
 * heap can hold in one object (checked before anything is made). */
void *cairn_text_buffer_append(const cairn_loc *loc, void *buf, int64_t used, void *piece);
/* n copies of t one after another ("" when n <= 0 or t is empty), made in one allocation: a
 * result larger than the heap can hold in one object is a runtime error at loc, before anything
 * is made (std.text's repeat). */
void *cairn_text_repeat(const cairn_loc *loc, void *t, int64_t n);
/* A new text holding the first `used` bytes of a builder's buffer (always a copy: the buffer
 * changes as pieces are appended). */
void *cairn_text_buffer_text(const cairn_loc *loc, void *buf, int64_t used);

/* The next line of standard input without its line break ("\n" or "\r\n"), or nil at the end
 * of input. When standard input is a terminal, standard output is flushed first (a prompt shows
 * before the program waits). A read that fails (standard input a directory, or closed) is a
 * runtime error at loc saying why, not the end of input. */
void *cairn_io_read_line(const cairn_loc *loc);
/* The whole file at path as text; a failure is a runtime error at loc naming the path and the
 * reason ("cannot read file 'x.txt': No such file or directory"). */
void *cairn_io_read_file(const cairn_loc *loc, void *path);
/* Writes t to the file at path (created, or truncated); failures as for reading. */
void cairn_io_write_file(const cairn_loc *loc, void *path, void *t);

/* Nanoseconds of a monotonic clock (CLOCK_MONOTONIC): for measuring intervals. */
int64_t cairn_time_now_nanos(void);
/* Seconds since 1970-01-01 00:00 UTC (CLOCK_REALTIME), with the fraction. */
double cairn_time_wall_seconds(void);
/* The same monotonic clock under the name of the language sketch's example of an extern
 * function (`extern fn clock_gettime_ns() -> int`), so that the example links and runs. */
int64_t clock_gettime_ns(void);

/* libm. */
double cairn_math_sqrt(double x);
double cairn_math_floor(double x);
double cairn_math_ceil(double x);
double cairn_math_pow(double x, double y);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CAIRN_LANG_H */
