// The C API of cairn/gc.h over GcHeap and TypeRegistry.
#include <cstdio>
#include <cstdlib>
#include <span>

#include "cairn/gc.h"
#include "gc/gc_heap.h"
#include "types/type_registry.h"
#include "util/fatal.h"

using cairn::Status;
using cairn::gc::GcHeap;
using cairn::types::TypeRegistry;
namespace heap = cairn::heap;

void cairn_set_out_of_memory_exit(int status) {
  cairn::SetOutOfMemoryExit(status >= 0 && status <= 255 ? status : -1);
}

void cairn_set_out_of_memory_hook(void (*hook)(const char *message, void *ctx), void *ctx) {
  cairn::SetOutOfMemoryHook(hook, ctx);
}

namespace {

// The heap, set up on first use if the program did not call cairn_init, and checked to be used
// from the mutator thread only.
inline GcHeap &Heap(const char *fn) {
  GcHeap *h = GcHeap::Instance();
  if (!h) [[unlikely]] {
    cairn_status s = cairn_init(nullptr);
    if (s != CAIRN_OK) cairn::Fatal("%s: the heap could not be set up: %s", fn, cairn_last_error());
    h = GcHeap::Instance();
  }
  h->roots().CheckMutator(fn);
  return *h;
}

// Descriptors already registered, direct-mapped by address, with their canonical descriptors:
// allocation looks here first and takes the registry's lock only on a miss. Touched by the
// mutator thread only.
struct Checked {
  const cairn_type *type;
  const cairn_type *canonical;
};
Checked checked_types[64];

__attribute__((noinline)) const cairn_type *CanonicalSlow(const cairn_type *t, const char *fn) {
  if (!t) cairn::Fatal("%s was given a NULL descriptor", fn);
  const cairn_type *canonical = TypeRegistry::Get().Canonical(t);
  if (!canonical) {
    Status s = TypeRegistry::Get().Register(t, &canonical);
    if (!s.ok()) cairn::Fatal("%s: %s", fn, s.message().c_str());
  }
  checked_types[(uintptr_t(t) >> 4) & 63] = Checked{t, canonical};
  return canonical;
}

// The canonical descriptor of t (T7), registering t if it is new.
inline const cairn_type *CanonicalFor(const cairn_type *t, const char *fn) {
  const Checked &c = checked_types[(uintptr_t(t) >> 4) & 63];
  if (c.type == t && t) [[likely]]
    return c.canonical;
  return CanonicalSlow(t, fn);
}

cairn_module_error_fn module_error_handler = nullptr;
void *module_error_ctx = nullptr;

}  // namespace

extern "C" {

cairn_status cairn_init(const cairn_options *opts) {
  if (GcHeap::Instance()) {
    if (cairn::gc::Roots::OnMutatorThread()) return CAIRN_OK;
    return cairn::SetLastError(
        Status(CAIRN_MISUSE,
               "cairn_init was called from a second thread; this version of Cairn "
               "supports one mutator thread, the one that called cairn_init first"));
  }
  return cairn::SetLastError(GcHeap::Init(opts));
}

int cairn_is_initialized(void) { return GcHeap::Instance() != nullptr; }

cairn_status cairn_register_type(const cairn_type *type) {
  return cairn::SetLastError(TypeRegistry::Get().Register(type));
}

cairn_status cairn_register_types(const cairn_type *const *types, size_t n) {
  for (size_t i = 0; i < n; i++) {
    cairn_status s = cairn_register_type(types[i]);
    if (s != CAIRN_OK) return s;
  }
  return CAIRN_OK;
}

cairn_status cairn_register_module(const cairn_type *const *types, const cairn_type **canonical,
                                   size_t n, const char *module) {
  if (n && !types)
    return cairn::SetLastError(
        Status(CAIRN_INVALID_ARGUMENT, "cairn_register_module was given no descriptors"));
  return cairn::SetLastError(TypeRegistry::Get().RegisterModule(
      std::span<const cairn_type *const>(types, n), canonical, module));
}

void cairn_register_module_or_exit(const cairn_type *const *types, const cairn_type **canonical,
                                   size_t n, const char *module) {
  cairn_status s = cairn_register_module(types, canonical, n, module);
  if (s == CAIRN_OK) return;
  if (module_error_handler) {
    module_error_handler(s, cairn_last_error(), module_error_ctx);
    return;
  }
  std::fprintf(stderr, "cairn: %s\n", cairn_last_error());
  std::exit(70);
}

void cairn_register_module_types(const cairn_type *const *types, size_t n, const char *module) {
  cairn_register_module_or_exit(types, nullptr, n, module);
}

void cairn_set_module_error_handler(cairn_module_error_fn fn, void *ctx) {
  module_error_handler = fn;
  module_error_ctx = ctx;
}

const cairn_type *cairn_canonical_type(const cairn_type *type) {
  return type ? TypeRegistry::Get().Canonical(type) : nullptr;
}

const cairn_type *cairn_find_type(uint64_t fingerprint) {
  return TypeRegistry::Get().Find(fingerprint);
}

void *cairn_malloc_typed(const cairn_type *type) {
  GcHeap &h = Heap("cairn_malloc_typed");
  type = CanonicalFor(type, "cairn_malloc_typed");
  if (type->flags & CAIRN_TYPE_ARRAY)
    cairn::Fatal("cairn_malloc_typed: type '%s' is an array type; use cairn_malloc_array",
                 type->name);
  return h.Allocate(type, heap::PlainObjectBytes(type));
}

void *cairn_malloc_array(const cairn_type *type, size_t length) {
  GcHeap &h = Heap("cairn_malloc_array");
  type = CanonicalFor(type, "cairn_malloc_array");
  if (!(type->flags & CAIRN_TYPE_ARRAY))
    cairn::Fatal("cairn_malloc_array: type '%s' is not an array type; use cairn_malloc_typed",
                 type->name);
  if (length > CAIRN_MAX_ARRAY_BYTES / type->size)
    cairn::Fatal("cairn_malloc_array: an array of %zu elements of '%s' is too large", length,
                 type->name);
  void *ref = h.Allocate(type, heap::ArrayObjectBytes(type, length));
  *static_cast<uint64_t *>(ref) = length;
  return ref;
}

void *cairn_malloc_atomic(size_t bytes) {
  GcHeap &h = Heap("cairn_malloc_atomic");
  if (bytes > (uint64_t{1} << 40))
    cairn::Fatal("cairn_malloc_atomic: %zu bytes is too large", bytes);
  const cairn_type *t = TypeRegistry::Get().AtomicType(bytes);
  return h.Allocate(t, heap::PlainObjectBytes(t));
}

const cairn_type *cairn_type_of(const void *obj) { return heap::TypeOfHeader(heap::HeaderOf(obj)); }

uint64_t cairn_identity_hash(const void *obj) {
  return Heap("cairn_identity_hash").IdentityHash(obj);
}

size_t cairn_array_length(const void *array) { return heap::ArrayLength(array); }

int cairn_in_heap(const void *p) {
  GcHeap *h = GcHeap::Instance();
  if (!h || !h->pages().Covers(p)) return 0;
  return h->pages().Info(h->pages().IndexOf(p)).space != heap::Space::kFree;
}

void cairn_add_roots(void *lo, void *hi) { Heap("cairn_add_roots").roots().AddRange(lo, hi); }
void cairn_remove_roots(void *lo, void *hi) {
  Heap("cairn_remove_roots").roots().RemoveRange(lo, hi);
}
// Exact roots are a table apart from the heap: no heap is set up for them, any thread may call.
void cairn_add_exact_root(void **slot) { cairn::gc::Roots::AddExact(slot); }
void cairn_remove_exact_root(void **slot) { cairn::gc::Roots::RemoveExact(slot); }
void cairn_add_exact_roots(void **const *slots, size_t n) {
  cairn::gc::ExactRoots::Get().Add(slots, n, "cairn_add_exact_roots");
}
void cairn_remove_exact_roots(void **const *slots, size_t n) {
  cairn::gc::ExactRoots::Get().Remove(slots, n);
}

void cairn_collect(void) { Heap("cairn_collect").CollectNow(); }

void cairn_get_stats(cairn_stats *out) {
  GcHeap *h = GcHeap::Instance();
  if (!h) {
    *out = cairn_stats{};
    return;
  }
  h->GetStats(out);
}

uint64_t cairn_largest_object_bytes(void) {
  GcHeap *h = GcHeap::Instance();
  return h != nullptr ? h->pages().largest_object_bytes() : 0;
}

int cairn_has_room_for(uint64_t bytes) {
  GcHeap *h = GcHeap::Instance();
  return h == nullptr || h->HasRoomFor(static_cast<size_t>(bytes)) ? 1 : 0;
}

size_t cairn_verify_heap(size_t max_report) { return Heap("cairn_verify_heap").Verify(max_report); }

int cairn_gc_stress_build(void) {
#ifdef CAIRN_GC_STRESS
  return 1;
#else
  return 0;
#endif
}

}  // extern "C"
