// A database of many pages for the heap-budget and mapping-limit tests: its root is an index
// (a reference array) of `n` leaves, each an [int] of kLeafLength elements, so that two leaves
// fill a page (8 + 8 + 499 * 8 = 4008 bytes each, a small object). Leaf k's element j holds
// LeafValue(k, j), except that a "modified" leaf (k % mod == rem) holds -k in element 1.
//
// Its child scenarios (leaf_db.cpp), all on database "leaves":
//   LeafDb_Write N CHUNK MAX_RESIDENT     builds it, committing every CHUNK leaves (chain)
//   LeafDb_Verify N MOD REM MAX_RESIDENT  reads every leaf in order and checks it
//   LeafDb_StoreCheck                     the store's own check of the database (no runtime)
#pragma once

#include <cstdint>
#include <string>

#include "cairn/gc.h"

namespace cairn_ptest {

inline constexpr int64_t kLeafLength = 499;
inline constexpr int64_t kLeavesPerPage = CAIRN_PAGE_SIZE / (16 + kLeafLength * 8);
static_assert(kLeavesPerPage == 2);

inline int64_t LeafValue(int64_t k, int64_t j) { return k * 1009 + j * 7 + 1; }

inline bool LeafModified(int64_t k, int64_t mod, int64_t rem) {
  return mod > 0 && k % mod == rem;
}

// Checks leaf k (the reference in the index); returns an empty string or what is wrong.
std::string CheckLeaf(const void *leaf, int64_t k, int64_t mod, int64_t rem);

// Applies a modification to leaf k (element 1 := -k).
void ModifyLeaf(void *leaf, int64_t k);

}  // namespace cairn_ptest
