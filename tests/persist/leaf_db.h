// A database of many pages for the heap-budget and mapping-limit tests: its root is an index
// (a reference array) of `n` leaves, each an [int] of kLeafLength elements, so that two leaves
// fill a page (8 + 8 + 499 * 8 = 4008 bytes each, a small object). Leaf k's element j holds
// LeafValue(k, j), except that a modified leaf holds -k in element 1. Which leaves were
// modified is a Mods, written "M:R,M:R..." (leaves with k % M == R) or "-" (none).
//
// Its child scenarios (leaf_db.cpp), all on database "leaves":
//   LeafDb_Write N CHUNK MAX_RESIDENT   builds it, committing every CHUNK leaves (chain)
//   LeafDb_Verify N MODS MAX_RESIDENT   reads every leaf in order and checks it
//   LeafDb_StoreCheck                   the store's own check of the database (no runtime)
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cairn/gc.h"

namespace cairn_ptest {

inline constexpr int64_t kLeafLength = 499;
inline constexpr int64_t kLeavesPerPage = CAIRN_PAGE_SIZE / (16 + kLeafLength * 8);
static_assert(kLeavesPerPage == 2);

inline int64_t LeafValue(int64_t k, int64_t j) { return k * 1009 + j * 7 + 1; }

// A set of modified leaves: those with k % M == R for any (M, R) in the list.
class Mods {
 public:
  explicit Mods(const std::string &spec);  // "M:R,M:R" or "-"
  bool Has(int64_t k) const {
    for (auto [m, r] : p_) {
      if (k % m == r) return true;
    }
    return false;
  }

 private:
  std::vector<std::pair<int64_t, int64_t>> p_;
};

// Checks leaf k (the reference in the index); returns an empty string or what is wrong.
std::string CheckLeaf(const void *leaf, int64_t k, const Mods &mods);

// Applies a modification to leaf k (element 1 := -k).
void ModifyLeaf(void *leaf, int64_t k);

}  // namespace cairn_ptest
