// Descriptors and heap helpers for the persistence tests (a copy of what fits from
// tests/runtime/test_types.h, with types of their own: every type here is stored in databases,
// so each has named fields for the type table).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cairn/gc.h"

namespace cairn_ptest {

constexpr cairn_type MakeType(const char *name, uint64_t size, const uint32_t *refs, uint32_t nrefs,
                              const cairn_field *fields, uint32_t nfields, uint32_t flags = 0,
                              uint32_t elem_kind = CAIRN_KIND_NONE) {
  cairn_type t{};
  t.abi = CAIRN_TYPE_ABI;
  t.flags = flags;
  t.name = name;
  t.size = size;
  t.align = 8;
  t.elem_kind = elem_kind;
  t.nrefs = nrefs;
  t.refs = refs;
  t.nfields = nfields;
  t.fields = fields;
  t.fingerprint = cairn_type_fingerprint_compute(&t);
  return t;
}

constexpr cairn_field Field(const char *name, uint32_t offset, cairn_kind kind, uint32_t count = 1,
                            uint32_t size = 8) {
  return cairn_field{name, offset, static_cast<uint16_t>(kind), 0, count, size, nullptr};
}

// A graph node: two references and two integers.
struct Node {
  Node *left;
  Node *right;
  int64_t id;
  int64_t value;
};
inline constexpr uint32_t kNodeRefs[] = {offsetof(Node, left), offsetof(Node, right)};
inline constexpr cairn_field kNodeFields[] = {
    Field("left", offsetof(Node, left), CAIRN_KIND_REF),
    Field("right", offsetof(Node, right), CAIRN_KIND_REF),
    Field("id", offsetof(Node, id), CAIRN_KIND_I64),
    Field("value", offsetof(Node, value), CAIRN_KIND_I64),
};
inline constexpr cairn_type kNodeType =
    MakeType("ptest.Node", sizeof(Node), kNodeRefs, 2, kNodeFields, 4);

// A wider object: four references of any type between integers (references not at the start).
struct Wide {
  int64_t tag;
  void *r0;
  int64_t pad;
  void *r1;
  void *r2;
  void *r3;
  int64_t sum;
};
inline constexpr uint32_t kWideRefs[] = {offsetof(Wide, r0), offsetof(Wide, r1), offsetof(Wide, r2),
                                         offsetof(Wide, r3)};
inline constexpr cairn_field kWideFields[] = {
    Field("tag", offsetof(Wide, tag), CAIRN_KIND_I64),
    Field("r0", offsetof(Wide, r0), CAIRN_KIND_REF),
    Field("pad", offsetof(Wide, pad), CAIRN_KIND_I64),
    Field("r1", offsetof(Wide, r1), CAIRN_KIND_REF),
    Field("r2", offsetof(Wide, r2), CAIRN_KIND_REF),
    Field("r3", offsetof(Wide, r3), CAIRN_KIND_REF),
    Field("sum", offsetof(Wide, sum), CAIRN_KIND_I64),
};
inline constexpr cairn_type kWideType =
    MakeType("ptest.Wide", sizeof(Wide), kWideRefs, 4, kWideFields, 7);

// An array of inline structs, each a reference and an integer.
struct Pair {
  void *ref;
  int64_t n;
};
inline constexpr uint32_t kPairRefs[] = {offsetof(Pair, ref)};
inline constexpr cairn_field kPairFields[] = {
    Field("ref", offsetof(Pair, ref), CAIRN_KIND_REF),
    Field("n", offsetof(Pair, n), CAIRN_KIND_I64),
};
inline constexpr cairn_type kPairArrayType =
    MakeType("ptest.[Pair]", sizeof(Pair), kPairRefs, 1, kPairFields, 2, CAIRN_TYPE_ARRAY,
             CAIRN_KIND_STRUCT);

// Garbage: objects that must never reach a database. `mark` holds kGarbageMark ^ serial, a
// pattern that no other test object holds, so a store's raw pages can be searched for it.
struct Garbage {
  Garbage *next;
  int64_t mark;
};
inline constexpr uint64_t kGarbageMark = 0x6a7bba6e00000000ull;
inline constexpr uint32_t kGarbageRefs[] = {offsetof(Garbage, next)};
inline constexpr cairn_field kGarbageFields[] = {
    Field("next", offsetof(Garbage, next), CAIRN_KIND_REF),
    Field("mark", offsetof(Garbage, mark), CAIRN_KIND_I64),
};
inline constexpr cairn_type kGarbageType =
    MakeType("ptest.Garbage", sizeof(Garbage), kGarbageRefs, 1, kGarbageFields, 2);

// Registers every descriptor above (a reader must know a type before it faults in an object of
// it; a writer registers them on first allocation anyway).
inline bool RegisterTestTypes() {
  const cairn_type *all[] = {&kNodeType, &kWideType, &kPairArrayType, &kGarbageType};
  return cairn_register_types(all, 4) == CAIRN_OK;
}

// --- Objects ----------------------------------------------------------------------------------

inline Node *NewNode(int64_t id, Node *left = nullptr, Node *right = nullptr) {
  auto *n = static_cast<Node *>(cairn_malloc_typed(&kNodeType));
  n->id = id;
  n->value = id * 7 + 1;
  n->left = left;
  n->right = right;
  return n;
}

template <class T>
T *ArrayData(void *array) {
  return reinterpret_cast<T *>(static_cast<char *>(array) + CAIRN_ARRAY_DATA_OFFSET);
}
template <class T>
const T *ArrayData(const void *array) {
  return reinterpret_cast<const T *>(static_cast<const char *>(array) + CAIRN_ARRAY_DATA_OFFSET);
}

inline size_t PageOf(const void *p) { return reinterpret_cast<uintptr_t>(p) / CAIRN_PAGE_SIZE; }

// An address kept where the collector cannot see it as a root (the complement is stored).
class HiddenAddress {
 public:
  HiddenAddress() = default;
  explicit HiddenAddress(const void *p) : bits_(~reinterpret_cast<uintptr_t>(p)) {}
  void *get() const { return reinterpret_cast<void *>(~bits_); }

 private:
  uintptr_t bits_ = ~uintptr_t{0};
};

// A reference held by an exact root in malloc'd memory (not scanned, so not also ambiguous).
class ExactRoot {
 public:
  ExactRoot() : slot_(new void *(nullptr)) { cairn_add_exact_root(slot_); }
  ~ExactRoot() {
    cairn_remove_exact_root(slot_);
    delete slot_;
  }
  ExactRoot(const ExactRoot &) = delete;
  ExactRoot &operator=(const ExactRoot &) = delete;
  void set(void *p) { *slot_ = p; }
  template <class T = Node>
  T *get() const {
    return static_cast<T *>(*slot_);
  }

 private:
  void **slot_;
};

// Overwrites a stretch of dead stack so stale copies of references left by earlier calls do not
// act as ambiguous roots.
__attribute__((noinline)) inline void ScrubStack() {
  volatile char buf[32 * 1024];
  std::memset(const_cast<char *>(buf), 0, sizeof buf);
  asm volatile("" : : "r"(buf) : "memory");
}

// Scale: the stress build collects at every allocation, so its graphs are smaller.
inline bool Stress() { return cairn_gc_stress_build() != 0; }
inline int64_t Scaled(int64_t normal, int64_t stress) { return Stress() ? stress : normal; }

}  // namespace cairn_ptest
