// Descriptors and helpers shared by the runtime's tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "../common/heap_test_support.h"
#include "cairn/gc.h"

namespace cairn_test {

using cairn_testing::HiddenAddress;
using cairn_testing::MakeType;
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

inline constexpr uint32_t kNodeRefs[] = {offsetof(Node, left), offsetof(Node, right)};
inline constexpr cairn_field kNodeFields[] = {
    {"left", offsetof(Node, left), CAIRN_KIND_REF, 0, 1, 8, nullptr},
    {"right", offsetof(Node, right), CAIRN_KIND_REF, 0, 1, 8, nullptr},
    {"id", offsetof(Node, id), CAIRN_KIND_I64, 0, 1, 8, nullptr},
    {"value", offsetof(Node, value), CAIRN_KIND_I64, 0, 1, 8, nullptr},
};
inline constexpr uint32_t kWideRefs[] = {offsetof(Wide, r0), offsetof(Wide, r1), offsetof(Wide, r2),
                                         offsetof(Wide, r3)};

inline constexpr cairn_type kNodeType =
    MakeType("test.Node", sizeof(Node), kNodeRefs, 2, kNodeFields, 4);
inline constexpr cairn_type kWideType =
    MakeType("test.Wide", sizeof(Wide), kWideRefs, 4, nullptr, 0);
// An array whose elements are Node-shaped structs (two references each).
inline constexpr cairn_type kNodeArrayType =
    MakeType("test.[NodeValue]", sizeof(Node), kNodeRefs, 2, kNodeFields, 4, CAIRN_TYPE_ARRAY,
             CAIRN_KIND_STRUCT);

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
