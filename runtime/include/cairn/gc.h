/* Cairn: the garbage-collected heap, its C API.
 *
 * Modeled on the Boehm-Demers-Weiser collector's gc.h and gc_typed.h: typed allocation with a
 * descriptor (GC_malloc_explicitly_typed), atomic allocation for pointer-free data
 * (GC_malloc_atomic), root ranges (GC_add_roots), explicit collection (GC_gcollect) and heap
 * statistics (GC_get_prof_stats). Unlike Boehm's, the heap is exact: every heap object has a type
 * descriptor (cairn/type.h), so only the roots (the stack, the registers and registered global
 * ranges) are scanned conservatively. Objects reachable only from the heap may move at any
 * collection; an object whose address is held in a root never moves (its page is pinned).
 *
 * Objects: a one-word header (the descriptor's address) followed by the payload; a reference
 * is the payload's address, 8-byte aligned; new objects are zero-filled. See cairn/type.h.
 *
 * Threads: one mutator thread in this version, the one that called cairn_init(). A call from any
 * other thread is a fatal error with a message naming the function (except the functions that
 * add and remove exact roots, which say so).
 *
 * Collection policy (documented in docs/gc.md): a collection runs when the bytes allocated since
 * the last one reach max(min_trigger_bytes, growth_factor * bytes live after the last one); also
 * on cairn_collect(), and, in the GC stress build (CAIRN_GC_STRESS), before every allocation.
 */
#ifndef CAIRN_GC_H
#define CAIRN_GC_H

#include <stddef.h>
#include <stdint.h>

#include "cairn/status.h"
#include "cairn/type.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Heap page size in bytes: a build constant (8 KiB). */
#define CAIRN_PAGE_SIZE 8192u

/* Options for cairn_init(). Zero in a field means its documented default. */
typedef struct cairn_options {
  uint64_t reserve_bytes;     /* virtual address space reserved for the heap; default 64 GiB,
                                 or $CAIRN_HEAP_RESERVE_MB. Only pages in use take memory.
                                 Half is for transient objects, half for persistent pages.
                                 At least 256 MiB (less: cairn_init fails saying so). */
  uint64_t min_trigger_bytes; /* allocation between collections, at least; default 8 MiB */
  double growth_factor;       /* ... and at least this times the live bytes; default 1.0 */
  int verify;                 /* 1: verify the heap after every collection; 0: default, which is
                                 on in debug builds and when $CAIRN_GC_VERIFY=1 */
} cairn_options;

/* Sets up the heap and makes the calling thread the mutator; its stack (from the caller's frame
 * up to the thread's stack base) is scanned as ambiguous roots. opts may be NULL. Calling it a
 * second time is a no-op from the same thread and CAIRN_MISUSE from another. */
cairn_status cairn_init(const cairn_options *opts);

/* 1 once cairn_init has succeeded. */
int cairn_is_initialized(void);

/* --- Types --------------------------------------------------------------------------------- */

/* Registration. A type may be defined in several modules (each with its own descriptor, as the
 * compiler plugin makes them, or a JIT module and a compiled one): the first descriptor registered
 * with a fingerprint is the type's canonical descriptor, and later ones of the same fingerprint
 * are accepted if they have the same layout (T5, cairn_type_same_layout) and map to it (T7).
 * Allocation always puts the canonical descriptor in an object's header, so identity tests
 * (cairn_type_of(obj) == canonical), is/as and method dispatch agree across modules and on
 * objects faulted in from a database; code that compares headers with a descriptor must compare
 * with the canonical one (docs/plugin.md, "Canonical descriptors"). A registered descriptor must
 * stay in memory, unchanged, as long as the process runs (T4). Registration may be called
 * before cairn_init (module constructors do). */

/* Registers one descriptor. Registering the same descriptor twice is harmless. */
cairn_status cairn_register_type(const cairn_type *type);

/* Registers n descriptors; stops at the first that fails. */
cairn_status cairn_register_types(const cairn_type *const *types, size_t n);

/* Registers a module's n descriptors, all of them or (if one is refused) none, and, if canonical
 * is not NULL, stores in canonical[i] the canonical descriptor of types[i] (types[i] itself if it
 * is the first of its fingerprint). `module` names the module in messages (may be NULL). A refused
 * type is CAIRN_INVALID_ARGUMENT (a malformed descriptor), CAIRN_UNSUPPORTED (another ABI, or no
 * descriptor at all) or CAIRN_TYPE_MISMATCH (the type is registered with another layout, or
 * another number of methods), with a message naming the module and the type. For embedders (the
 * REPL) that report the error and discard the module. */
cairn_status cairn_register_module(const cairn_type *const *types, const cairn_type **canonical,
                                   size_t n, const char *module);

/* What the compiler plugin's module constructors call: cairn_register_module, and if a type is
 * refused, the handler installed with cairn_set_module_error_handler, or when there is none, a
 * message naming the module and the type on standard error and exit(70). */
void cairn_register_module_or_exit(const cairn_type *const *types, const cairn_type **canonical,
                                   size_t n, const char *module);

/* The same without canonical slots (what modules compiled before canonical descriptors call). */
void cairn_register_module_types(const cairn_type *const *types, size_t n, const char *module);

/* An embedder's handler for a module whose types are refused in cairn_register_module_or_exit
 * (a constructor cannot return an error). If it returns, nothing of the module was registered
 * and its canonical slots still hold its own descriptors: the embedder must not run the module's
 * code (a REPL reports the message and discards the module). NULL restores the default (exit). */
typedef void (*cairn_module_error_fn)(cairn_status status, const char *message, void *ctx);
void cairn_set_module_error_handler(cairn_module_error_fn fn, void *ctx);

/* The canonical descriptor of a registered descriptor (itself if it is canonical), or NULL if
 * it is not registered. */
const cairn_type *cairn_canonical_type(const cairn_type *type);

/* The canonical descriptor with this fingerprint, or NULL. */
const cairn_type *cairn_find_type(uint64_t fingerprint);

/* Built-in descriptors, registered by the runtime itself. */
extern const cairn_type cairn_text_type;        /* text: an array of bytes (I8), CAIRN_TYPE_TEXT */
extern const cairn_type cairn_ref_array_type;   /* [any]: an array of references */
extern const cairn_type cairn_i64_array_type;   /* [int]: an array of 64-bit integers */
extern const cairn_type cairn_f64_array_type;   /* [float]: an array of doubles */
extern const cairn_type cairn_bool_array_type;  /* [bool]: an array of one-byte booleans */
extern const cairn_type cairn_text_array_type;  /* [text]: an array of texts (args(), names()),
                                                   registered by every program, so a database
                                                   holding one can be read by any program */
extern const cairn_type cairn_byte_buffer_type; /* [byte]: std.text's Builder buffer, bytes (I8)
                                                   written in place: never a text, so no text
                                                   (a literal) is ever changed */

/* --- Allocation (all results are zero-filled and 8-byte aligned) ---------------------------- */

/* A new object of a plain type, whose header is the type's canonical descriptor. `type` may be
 * any registered descriptor of it; an unregistered one is registered first (a refused one is a
 * fatal error with the reason). */
void *cairn_malloc_typed(const cairn_type *type);

/* A new array of an array type with `length` elements (`type` as for cairn_malloc_typed). An
 * array's elements take at most CAIRN_MAX_ARRAY_BYTES: a longer one is a fatal error. */
void *cairn_malloc_array(const cairn_type *type, size_t length);
#define CAIRN_MAX_ARRAY_BYTES (UINT64_C(1) << 40)

/* A new pointer-free block of `bytes` bytes (its contents are never scanned). */
void *cairn_malloc_atomic(size_t bytes);

/* Running out of reserved heap is a fatal error that says how to reserve more: the message
 * ("cairn: fatal: out of memory ...") goes to stderr after standard output is flushed, then the
 * process aborts (SIGABRT), or, after cairn_set_out_of_memory_exit(status), exits with that
 * status (0..255; any other value sets abort again) without running exit handlers. Compiled Cairn
 * programs set 70, a runtime error's status (cairn/lang.h). */
void cairn_set_out_of_memory_exit(int status);

/* Installs a hook (NULL: none, the default) called when an allocation finds the heap full after a
 * collection: what is live leaves no room for the object beside it and for the copy a collection
 * makes of it (gc/gc_heap.h, C1). It gets the message ("out of memory: ..."), and runs on the
 * mutator thread, inside the allocation, with the heap consistent: it may jump back to a place
 * the embedder set with sigsetjmp (the object is not allocated; the heap, the roots and an open
 * transaction are as they were before the allocation, and the program may drop references and go
 * on). If it returns, the out-of-memory error goes on as above. (A collection that runs out of
 * room to copy into, which C1 makes unlikely, and a commit's stabilization that does are fatal as
 * above, without the hook.) May be called before cairn_init. The REPL uses it so that a full heap
 * ends only the input that filled it. */
void cairn_set_out_of_memory_hook(void (*hook)(const char *message, void *ctx), void *ctx);

/* --- Objects --------------------------------------------------------------------------------- */

/* The descriptor of a heap object (obj must be a reference to one): a canonical one (T7). */
const cairn_type *cairn_type_of(const void *obj);

/* The identity hash of a heap object (obj must be a reference to one): fixed the first time it
 * is asked for, and the same for as long as the object lives: across collections (which may
 * move it), when it becomes persistent, across commits and aborts, and in later processes that
 * read it from its database. Distinct objects mostly have distinct hashes (equal ones are
 * possible, as for any hash). For sets of references and identity-keyed maps. Asking costs a
 * table entry per transient object until it dies or becomes persistent, and nothing for objects
 * never asked for. docs/gc.md, "Identity hashes", gives the scheme. */
uint64_t cairn_identity_hash(const void *obj);

/* The length of an array object. */
size_t cairn_array_length(const void *array);

/* 1 if p points into a page of the heap that is in use (anywhere inside an object or not). */
int cairn_in_heap(const void *p);

/* --- Roots ----------------------------------------------------------------------------------- */

/* Adds [lo, hi) to the ambiguous roots: every aligned word in it that points into the heap pins
 * the page it points into. For a program's globals. */
void cairn_add_roots(void *lo, void *hi);

/* Removes a range added by cairn_add_roots (exactly the same bounds). */
void cairn_remove_roots(void *lo, void *hi);

/* Adds an exact root: *slot is a reference (or NULL) that the collector updates when the object
 * moves. For runtime-internal and C++ handles; pins nothing. Like the three functions below, it
 * may be called before cairn_init and from any thread (it only records the slot). A slot added
 * twice is visited once and stays a root until removed twice; removing a slot that is not a
 * root does nothing. */
void cairn_add_exact_root(void **slot);
void cairn_remove_exact_root(void **slot);

/* Adds slots[0..n) as exact roots (the addresses are copied; the array need not outlive the
 * call). No slot may be NULL. What the compiler plugin's module constructors call with the
 * reference slots of the module's globals, before main (docs/plugin.md). */
void cairn_add_exact_roots(void **const *slots, size_t n);

/* Removes slots[0..n) as cairn_remove_exact_root would, one by one. What the plugin's module
 * destructors call, so that an unloaded module (a removed JIT module) leaves no root behind. */
void cairn_remove_exact_roots(void **const *slots, size_t n);

/* --- Collection and statistics ---------------------------------------------------------------- */

/* Runs a full collection now. */
void cairn_collect(void);

typedef struct cairn_stats {
  uint64_t collections;       /* collections so far */
  uint64_t total_pause_ns;    /* time spent in collections */
  uint64_t max_pause_ns;      /* the longest collection */
  uint64_t bytes_allocated;   /* total bytes ever allocated (headers included) */
  uint64_t bytes_copied;      /* total bytes copied by collections */
  uint64_t pages_promoted;    /* total pages kept in place (pinned or large) by collections */
  uint64_t pages_pinned_last; /* pages pinned by ambiguous roots in the last collection */
  uint64_t live_bytes_last;   /* bytes in use right after the last collection */
  uint64_t heap_pages;        /* pages in use now (objects or reserved for allocation) */
  uint64_t peak_heap_pages;   /* the most pages ever in use at once */
  uint64_t free_pages;        /* pages touched before and free now (their memory
                                 may have been given back: pages_returned) */
  uint64_t persistent_pages_scanned; /* persistent pages whose objects collections read: only
                                        modified ones (a clean page's references are recorded
                                        when it is loaded, docs/persistence.md) */
  uint64_t frame_releases;  /* collections that also released the frames of persistent pages
                               nothing reached (Figure 4) */
  uint64_t reserved_bytes;  /* the heap's reservation of address space */
  uint64_t requested_bytes; /* what was asked for (CAIRN_HEAP_RESERVE_MB): more than
                               reserved_bytes when the system would not map that much */
  uint64_t machine_bytes;   /* the machine's memory and swap (or its control group's limit)
                               when three quarters of it, less than half the default
                               reservation, sets the transient arena (new objects, the largest
                               object); else 0 (also when the reservation was chosen) */
  uint64_t pages_returned;  /* free pages whose memory collections gave back to the system
                               (more were free than the next collections could use:
                               docs/gc.md), in all */
  uint64_t transient_pages; /* pages in use now in the part of the heap new objects get (the
                               transient arena: objects, and persistent pages made so in
                               place), of cairn_largest_object_bytes() */
} cairn_stats;

void cairn_get_stats(cairn_stats *out);

/* The most bytes one object can take in this heap (the transient arena: half the reservation,
 * and, for the default reservation, no more than three quarters of the machine's memory and
 * swap, cairn_stats.machine_bytes): an
 * allocation of more is out of memory whatever is live. 0 before cairn_init. */
uint64_t cairn_largest_object_bytes(void);

/* 1 if an object of `bytes` (header included) can be allocated now, after a collection if one
 * is needed; 0 if the heap is too full for it, so that the caller can report a runtime error
 * instead of the allocation's fatal one. Objects of at most 4 KiB are always 1 (their pages are
 * not looked for ahead). */
int cairn_has_room_for(uint64_t bytes);

/* Checks the heap: every reference in every object and exact root points at the start of a live
 * object with a registered descriptor, and the page table is consistent. Prints each problem (at
 * most `max_report`, 0 for all) to stderr and returns the number found (0: the heap is sound). */
size_t cairn_verify_heap(size_t max_report);

/* 1 if this runtime was built with the GC stress option (a collection at every allocation). */
int cairn_gc_stress_build(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CAIRN_GC_H */
