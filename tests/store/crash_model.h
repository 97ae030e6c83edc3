// What the crash test's child commits, computed the same way by the child and by the parent:
// commit number c writes a pseudo-random set of pages (chosen from c alone), sometimes
// allocating one more page first, stamps c into every page it writes, and sets the root to c.
#ifndef CAIRN_TESTS_STORE_CRASH_MODEL_H
#define CAIRN_TESTS_STORE_CRASH_MODEL_H

#include <cstdint>
#include <cstring>
#include <random>
#include <set>

#include "cairn/store.h"

namespace cairn::test {

inline constexpr uint64_t kCrashMaxPages = 256;

struct CommitPlan {
  bool grow = false;         // allocate page page_count + 1 and write it
  std::set<uint64_t> pages;  // every page written (including the new one)
};

inline CommitPlan PlanCommit(uint64_t c, uint64_t page_count) {
  std::mt19937_64 rng(c * 0x9E3779B97F4A7C15ull + 17);
  CommitPlan plan;
  plan.grow = page_count == 0 || (page_count < kCrashMaxPages && rng() % 3 == 0);
  uint64_t count = page_count + (plan.grow ? 1 : 0);
  if (plan.grow) plan.pages.insert(count);
  uint64_t n = rng() % 32 == 0 ? 1 + rng() % 64 : 1 + rng() % 4;  // mostly small, some large
  for (uint64_t i = 0; i < n; ++i) plan.pages.insert(1 + rng() % count);
  return plan;
}

// The contents commit c gives page p: every 8-byte word says (c, p, word index).
inline void FillPage(uint64_t c, uint64_t p, unsigned char *buf) {
  for (uint64_t i = 0; i < cairn::store::kPageSize / 8; ++i) {
    uint64_t w = (c << 32) ^ (p << 16) ^ i;
    std::memcpy(buf + 8 * i, &w, 8);
  }
}

}  // namespace cairn::test

#endif  // CAIRN_TESTS_STORE_CRASH_MODEL_H
