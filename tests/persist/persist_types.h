// Descriptors and heap helpers for the persistence tests (the shared ones are in
// tests/common/heap_test_support.h); every type here is stored in databases, so each has named
// fields for the type table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "../common/heap_test_support.h"
#include "cairn/gc.h"
#include "cairn/type_builder.hpp"

namespace cairn_ptest {

using cairn::Field;
using cairn_testing::HiddenAddress;
using cairn_testing::ScrubStack;

// A graph node: two references and two integers.
struct Node {
  Node *left;
  Node *right;
  int64_t id;
  int64_t value;
};
inline constexpr cairn_field kNodeFields[] = {
    Field("left", offsetof(Node, left), CAIRN_KIND_REF),
    Field("right", offsetof(Node, right), CAIRN_KIND_REF),
    Field("id", offsetof(Node, id), CAIRN_KIND_I64),
    Field("value", offsetof(Node, value), CAIRN_KIND_I64),
};
inline constexpr cairn_type kNodeType = cairn::PlainType<kNodeFields>("ptest.Node", sizeof(Node));

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
inline constexpr cairn_field kWideFields[] = {
    Field("tag", offsetof(Wide, tag), CAIRN_KIND_I64),
    Field("r0", offsetof(Wide, r0), CAIRN_KIND_REF),
    Field("pad", offsetof(Wide, pad), CAIRN_KIND_I64),
    Field("r1", offsetof(Wide, r1), CAIRN_KIND_REF),
    Field("r2", offsetof(Wide, r2), CAIRN_KIND_REF),
    Field("r3", offsetof(Wide, r3), CAIRN_KIND_REF),
    Field("sum", offsetof(Wide, sum), CAIRN_KIND_I64),
};
inline constexpr cairn_type kWideType = cairn::PlainType<kWideFields>("ptest.Wide", sizeof(Wide));

// An array of inline structs, each a reference and an integer.
struct Pair {
  void *ref;
  int64_t n;
};
inline constexpr cairn_field kPairFields[] = {
    Field("ref", offsetof(Pair, ref), CAIRN_KIND_REF),
    Field("n", offsetof(Pair, n), CAIRN_KIND_I64),
};
inline constexpr cairn_type kPairArrayType =
    cairn::StructArrayType<kPairFields>("ptest.[Pair]", sizeof(Pair));

// Garbage: objects that must never reach a database. `mark` holds kGarbageMark ^ serial, a
// pattern that no other test object holds, so a store's raw pages can be searched for it.
struct Garbage {
  Garbage *next;
  int64_t mark;
};
inline constexpr uint64_t kGarbageMark = 0x6a7bba6e00000000ull;
inline constexpr cairn_field kGarbageFields[] = {
    Field("next", offsetof(Garbage, next), CAIRN_KIND_REF),
    Field("mark", offsetof(Garbage, mark), CAIRN_KIND_I64),
};
inline constexpr cairn_type kGarbageType =
    cairn::PlainType<kGarbageFields>("ptest.Garbage", sizeof(Garbage));

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

// The node `i` steps along `left` from head (nullptr past the end of the chain).
inline Node *NodeAt(Node *head, int64_t i) {
  while (i-- > 0 && head) head = head->left;
  return head;
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

// Built with AddressSanitizer (make test-asan): its shadow memory and its quarantine of freed
// blocks make the process's resident memory say nothing about the runtime's.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#else
inline constexpr bool kAddressSanitizer = false;
#endif

// Scale: the stress build collects at every allocation, so its graphs are smaller.
inline bool Stress() { return cairn_gc_stress_build() != 0; }
inline int64_t Scaled(int64_t normal, int64_t stress) { return Stress() ? stress : normal; }

}  // namespace cairn_ptest
