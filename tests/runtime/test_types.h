// Descriptors and helpers shared by the runtime's tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "../common/heap_test_support.h"
#include "cairn/gc.h"
#include "cairn/type_builder.hpp"

namespace cairn_test {

using cairn_testing::HiddenAddress;
using cairn_testing::ScrubStack;

// A graph node: two references and two integers.
struct Node {
  Node *left;
  Node *right;
  int64_t id;
  int64_t value;
};

// A wider node: four references between integers (references not at the start).
struct Wide {
  int64_t tag;
  Wide *r0;
  int64_t pad;
  Wide *r1;
  Wide *r2;
  Wide *r3;
  int64_t sum;
};

inline constexpr cairn_field kNodeFields[] = {
    cairn::Field("left", offsetof(Node, left), CAIRN_KIND_REF),
    cairn::Field("right", offsetof(Node, right), CAIRN_KIND_REF),
    cairn::Field("id", offsetof(Node, id), CAIRN_KIND_I64),
    cairn::Field("value", offsetof(Node, value), CAIRN_KIND_I64),
};
inline constexpr cairn_field kWideFields[] = {
    cairn::Field("tag", offsetof(Wide, tag), CAIRN_KIND_I64),
    cairn::Field("r0", offsetof(Wide, r0), CAIRN_KIND_REF),
    cairn::Field("pad", offsetof(Wide, pad), CAIRN_KIND_I64),
    cairn::Field("r1", offsetof(Wide, r1), CAIRN_KIND_REF),
    cairn::Field("r2", offsetof(Wide, r2), CAIRN_KIND_REF),
    cairn::Field("r3", offsetof(Wide, r3), CAIRN_KIND_REF),
    cairn::Field("sum", offsetof(Wide, sum), CAIRN_KIND_I64),
};

inline constexpr cairn_type kNodeType = cairn::PlainType<kNodeFields>("test.Node", sizeof(Node));
inline constexpr cairn_type kWideType = cairn::PlainType<kWideFields>("test.Wide", sizeof(Wide));
// An array whose elements are Node-shaped structs (two references each).
inline constexpr cairn_type kNodeArrayType =
    cairn::StructArrayType<kNodeFields>("test.[NodeValue]", sizeof(Node));

inline Node *NewNode(int64_t id, Node *left = nullptr, Node *right = nullptr) {
  Node *n = static_cast<Node *>(cairn_malloc_typed(&kNodeType));
  n->id = id;
  n->value = id * 7 + 1;
  n->left = left;
  n->right = right;
  return n;
}

inline Node **RefArrayData(void *array) {
  return reinterpret_cast<Node **>(static_cast<char *>(array) + CAIRN_ARRAY_DATA_OFFSET);
}

// Collects after scrubbing the dead stack right below the caller's frame (inlined into the
// caller, so the scrub covers the frames of everything the caller called before).
__attribute__((always_inline)) inline void CollectScrubbed() {
  ScrubStack();
  cairn_collect();
}

}  // namespace cairn_test
