// The benchmark's graph: n small objects with three references each.
//
// Node i refers to nodes 2i+1 and 2i+2 (a binary tree over the numbering, so a depth-first walk
// over `a` and `b` visits every node once) and, through `c`, to node (i * 7919 + 13) mod n (an
// edge across the graph, as in a real object graph). The walk adds each node's id and its
// `c` target's id, so it touches every object and follows every reference.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cairn/gc.h"
#include "cairn/type_builder.hpp"

namespace persistbench {

struct Node {
  Node *a;
  Node *b;
  Node *c;
  int64_t id;
};

inline constexpr cairn_field kNodeFields[] = {
    cairn::Field("a", offsetof(Node, a), CAIRN_KIND_REF),
    cairn::Field("b", offsetof(Node, b), CAIRN_KIND_REF),
    cairn::Field("c", offsetof(Node, c), CAIRN_KIND_REF),
    cairn::Field("id", offsetof(Node, id), CAIRN_KIND_I64),
};
inline constexpr cairn_type kNodeType =
    cairn::PlainType<kNodeFields>("persistbench.Node", sizeof(Node));

// Builds the graph of n nodes on the heap and returns node 0.
Node *BuildGraph(int64_t n);

// The walk: the sum over all nodes of id + c->id.
int64_t Walk(const Node *root);

// What Walk returns for a correct graph of n nodes.
int64_t ExpectedWalk(int64_t n);

}  // namespace persistbench
