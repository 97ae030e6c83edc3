// A chain of test nodes (persist_types.h) along `left`, checked in a child scenario (child.h).
#pragma once

#include <cstdint>

#include "child.h"
#include "persist_types.h"

namespace cairn_ptest {

// The nodes first, first - 1, ..., last along `left` from p, each with NewNode's value, and
// nothing after them.
inline void CheckChain(const Node *p, int64_t first, int64_t last) {
  for (int64_t i = first; i >= last; i--, p = p->left) {
    CK(p != nullptr) << "node " << i << " is missing";
    CK_EQ(p->id, i);
    CK_EQ(p->value, i * 7 + 1);
  }
  CK(p == nullptr);
}

}  // namespace cairn_ptest
