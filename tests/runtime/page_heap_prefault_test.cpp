// PageHeap::Prefault: the transient pages beyond the high water mark are faulted in a bounded
// step at a time (page_heap.h), so that no one allocation pays for a collection's worth of them.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <vector>

#include "heap/page_heap.h"

using cairn::heap::kPageSize;
using cairn::heap::PageHeap;
using cairn::heap::Space;

namespace {

// Pages [first, first + n) of the heap that are resident (mincore counts 4 KiB pages).
size_t Resident(const PageHeap &h, size_t first, size_t n) {
  const size_t sys = 4096, per = kPageSize / sys;
  std::vector<unsigned char> v(n * per);
  EXPECT_EQ(mincore(h.PageAddress(first), n * kPageSize, v.data()), 0);
  size_t pages = 0;
  for (size_t i = 0; i < n; i++) pages += (v[i * per] & 1) != 0;
  return pages;
}

TEST(PageHeapPrefault, StepsTowardsTheTargetAtMostMaxStepAtATime) {
  PageHeap h;
  ASSERT_TRUE(h.Reserve(uint64_t{256} << 20).ok());
  size_t first = h.TakePage(Space::kCurrent);  // the high water mark is now first + 1
  ASSERT_NE(first, cairn::heap::kNoPage);
  EXPECT_EQ(Resident(h, first + 1, 1000), 0u);
  EXPECT_EQ(h.Prefault(1000, 128), 128u);  // asked for 1000 beyond the mark: 128 now
  EXPECT_EQ(Resident(h, first + 1, 1000), 128u);
  EXPECT_EQ(h.Prefault(1000, 128), 128u);  // and 128 more, after those
  EXPECT_EQ(Resident(h, first + 1, 1000), 256u);
  EXPECT_EQ(h.Prefault(1000, 10000), 744u);  // the rest of the target
  EXPECT_EQ(h.Prefault(1000, 128), 0u);      // reached: nothing more
  EXPECT_EQ(Resident(h, first + 1, 1000), 1000u);
}

// What Prefault touched beyond the high water mark is given back past the pages the next cycle
// keeps (PageHeap::TrimPrefault, called after every collection: campaign T found a third of a
// dead peak's memory kept so), and not when the excess is small.
TEST(PageHeapPrefault, TrimGivesBackWhatWasTouchedBeyondTheKeep) {
  PageHeap h;
  ASSERT_TRUE(h.Reserve(uint64_t{256} << 20).ok());
  size_t first = h.TakePage(Space::kCurrent);
  ASSERT_NE(first, cairn::heap::kNoPage);
  EXPECT_EQ(h.Prefault(1000, 1000), 1000u);
  EXPECT_EQ(Resident(h, first + 1, 1000), 1000u);
  EXPECT_EQ(h.TrimPrefault(100, 1000), 0u);  // 900 beyond the keep: less than the excess asked
  EXPECT_EQ(h.TrimPrefault(100, 500), 900u);
  EXPECT_EQ(Resident(h, first + 1, 100), 100u);
  EXPECT_EQ(Resident(h, first + 101, 900), 0u);
  EXPECT_EQ(h.TrimPrefault(100, 1), 0u);    // nothing more
  EXPECT_EQ(h.Prefault(1000, 1000), 900u);  // touched again when wanted
  EXPECT_EQ(Resident(h, first + 1, 1000), 1000u);
}

}  // namespace
