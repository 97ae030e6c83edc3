// Derived pointers as ambiguous roots (R1 in runtime/src/gc/collector.h): a word one past the end
// of an object keeps it alive, unmoved and scanned, as compiled code at -O2 may hold nothing else
// (a loop walking an array by pointer, compared with one past its end). One past the end is the
// next object's header, or the end of the page's objects, or, for an object that fills its page
// or its large run, the start of the next page. A page-aligned word pins the object before it
// only when that object does end there. (Interior pointers: GcMove.InteriorPointersPin.)
#include <gtest/gtest.h>

#include "cairn/gc.h"
#include "test_types.h"

using namespace cairn_test;

namespace {

constexpr size_t kSlots = 6;

bool Stress() { return cairn_gc_stress_build() != 0; }

size_t Offset(const void *p) { return reinterpret_cast<uintptr_t>(p) % CAIRN_PAGE_SIZE; }

// A reference array of kSlots nodes (ids base + i), which only the array references, allocated
// after them (so that nothing follows it yet); returns one past the end of the array.
__attribute__((noinline)) char *NewNodeArray(int64_t base) {
  Node *nodes[kSlots];
  for (size_t i = 0; i < kSlots; i++) nodes[i] = NewNode(base + int64_t(i));
  void *arr = cairn_malloc_array(&cairn_ref_array_type, kSlots);
  for (size_t i = 0; i < kSlots; i++) RefArrayData(arr)[i] = nodes[i];
  return reinterpret_cast<char *>(RefArrayData(arr) + kSlots);
}

// The reference array of `slots` elements that ends at `end`, checked: not moved (it is where
// `end` says), still a reference array (not a filler), its last kSlots elements alive nodes
// with their ids, the others nil.
void ExpectNodeArrayEndingAt(char *end, size_t slots, int64_t base) {
  void *arr = end - slots * sizeof(void *) - CAIRN_ARRAY_DATA_OFFSET;
  ASSERT_EQ(cairn_in_heap(arr), 1);
  EXPECT_EQ(cairn_type_of(arr), &cairn_ref_array_type);
  ASSERT_EQ(cairn_array_length(arr), slots);
  for (size_t i = 0; i < slots; i++) {
    Node *n = RefArrayData(arr)[i];
    if (i < slots - kSlots) {
      EXPECT_EQ(n, nullptr);
      continue;
    }
    int64_t id = base + int64_t(i - (slots - kSlots));
    ASSERT_NE(n, nullptr);
    EXPECT_EQ(n->id, id);
    EXPECT_EQ(n->value, id * 7 + 1);
  }
}

// Garbage that takes the pages freed by the last collection, so that a freed object is
// overwritten before it is checked.
__attribute__((noinline)) void Churn() {
  for (int i = 0; i < 4000; i++) NewNode(-1);
}

}  // namespace

class GcDerived : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(cairn_init(nullptr), CAIRN_OK); }
};

TEST_F(GcDerived, OnePastTheEndOfASmallObjectIsTheNextObjectsHeaderAndPinsBoth) {
  char *volatile end = NewNodeArray(100);
  // In the stress build a collection precedes this allocation, which then goes to another page.
  HiddenAddress next(NewNode(1));
  if (!Stress()) {
    ASSERT_EQ(next.get(), static_cast<void *>(end + sizeof(void *)));
  }
  CollectScrubbed();
  Churn();
  cairn_collect();
  ExpectNodeArrayEndingAt(end, kSlots, 100);
  if (!Stress()) {
    EXPECT_EQ(static_cast<Node *>(next.get())->id, 1);  // its header: pinned too
  }
  EXPECT_EQ(cairn_verify_heap(10), 0u);
}

TEST_F(GcDerived, OnePastTheEndOfTheLastObjectOnAPagePinsIt) {
  char *volatile end = NewNodeArray(200);
  CollectScrubbed();  // nothing was allocated after it: its end is where its page's objects end
  Churn();
  cairn_collect();
  ExpectNodeArrayEndingAt(end, kSlots, 200);
  EXPECT_EQ(cairn_verify_heap(10), 0u);
}

TEST_F(GcDerived, OnePastTheEndOfALargeObjectThatFillsItsRunPinsIt) {
  // 8 (header) + 8 (length) + 2046 * 8 = 16384 bytes: exactly two pages.
  constexpr size_t n = 2046;
  int64_t *volatile end;
  {
    void *arr = cairn_malloc_array(&cairn_i64_array_type, n);
    auto *data = reinterpret_cast<int64_t *>(static_cast<char *>(arr) + CAIRN_ARRAY_DATA_OFFSET);
    for (size_t i = 0; i < n; i++) data[i] = int64_t(i) * 3;
    end = data + n;
  }
  ASSERT_EQ(Offset(end), 0u) << "the array does not end at a page boundary";
  CollectScrubbed();
  Churn();
  cairn_collect();
  void *arr = reinterpret_cast<char *>(end) - n * 8 - CAIRN_ARRAY_DATA_OFFSET;
  ASSERT_EQ(cairn_in_heap(arr), 1);
  EXPECT_EQ(cairn_type_of(arr), &cairn_i64_array_type);
  ASSERT_EQ(cairn_array_length(arr), n);
  for (size_t i = 0; i < n; i++) ASSERT_EQ(end[int64_t(i) - int64_t(n)], int64_t(i) * 3) << i;
  EXPECT_EQ(cairn_verify_heap(10), 0u);
}

namespace {

// Allocates pointer-free blocks until the next small object can end exactly at the end of a
// page, then a reference array that does, whose last kSlots elements are nodes. Sets *slots and
// returns one past its end, or null if that could not be arranged (the stress build collects
// before every allocation, and the mutator then allocates elsewhere).
__attribute__((noinline)) char *NodeArrayEndingAPage(int64_t base, size_t *slots) {
  for (int attempt = 0; attempt < 50; attempt++) {
    char *probe = static_cast<char *>(cairn_malloc_atomic(8));  // 16 bytes with its header
    size_t left = CAIRN_PAGE_SIZE - Offset(probe + 8);
    // The array (header, length, references) must be a small object, with room for the nodes.
    if (left == CAIRN_PAGE_SIZE || left < 16 + 8 * kSlots) continue;
    if (left > 2048) {
      cairn_malloc_atomic(left - 1024 - 8);  // leaves 1024 bytes
      left = 1024;
    }
    *slots = (left - 16) / 8;
    void *arr = cairn_malloc_array(&cairn_ref_array_type, *slots);
    char *end = reinterpret_cast<char *>(RefArrayData(arr) + *slots);
    if (Offset(end) != 0) continue;  // a collection came between
    for (size_t i = 0; i < kSlots; i++)
      RefArrayData(arr)[*slots - kSlots + i] = NewNode(base + int64_t(i));
    return end;
  }
  return nullptr;
}

// A node held by an exact root only (so it may move), first on a page of its own (no stale word
// on the stack points into the page); *before is its address. Returns the start of the page
// after its own: a page-aligned word that is not one past its end.
__attribute__((noinline)) uintptr_t NodeNotEndingItsPage(void **slot, HiddenAddress *before) {
  do {
    *slot = NewNode(5);
  } while (Offset(*slot) != sizeof(uintptr_t));
  *before = HiddenAddress(*slot);
  return reinterpret_cast<uintptr_t>(*slot) - sizeof(uintptr_t) + CAIRN_PAGE_SIZE;
}

}  // namespace

TEST_F(GcDerived, OnePastTheEndOfAnObjectThatFillsItsPageIsTheNextPageAndPinsIt) {
  size_t slots = 0;
  char *volatile end = NodeArrayEndingAPage(300, &slots);
  if (!end) GTEST_SKIP() << "could not place an object at the end of a page";
  ASSERT_EQ(Offset(end), 0u);
  CollectScrubbed();
  Churn();
  cairn_collect();
  ExpectNodeArrayEndingAt(end, slots, 300);
  EXPECT_EQ(cairn_verify_heap(10), 0u);
}

TEST_F(GcDerived, AWordAtTheNextPageDoesNotPinAnObjectThatEndsEarlier) {
  void **slot = new void *(nullptr);
  cairn_add_exact_root(slot);
  HiddenAddress before;
  volatile uintptr_t next_page = NodeNotEndingItsPage(slot, &before);
  CollectScrubbed();
  EXPECT_NE(*slot, before.get()) << "an object that does not end at the page boundary was pinned";
  EXPECT_EQ(static_cast<Node *>(*slot)->id, 5);
  EXPECT_EQ(next_page % CAIRN_PAGE_SIZE, 0u);
  cairn_remove_exact_root(slot);
  delete slot;
}
