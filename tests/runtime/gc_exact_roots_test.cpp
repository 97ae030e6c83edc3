// Exact roots registered in bulk, as the compiler plugin's module constructors register the
// reference slots of a module's globals: before main (and before cairn_init), from any thread,
// counted, and kept up to date through collections that move their objects.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "cairn/gc.h"
#include "test_types.h"

using namespace cairn_test;

namespace {

// A module's globals: data segments are not scanned, so only their registration as exact roots
// keeps what they reference alive.
Node *g_chain;  // the only reference to a chain of nodes
struct {
  int64_t tag;
  Node *left;
  Node *right;
} g_pair;  // two references to trees

void **const kGlobalSlots[] = {reinterpret_cast<void **>(&g_chain),
                               reinterpret_cast<void **>(&g_pair.left),
                               reinterpret_cast<void **>(&g_pair.right)};
constexpr size_t kGlobalSlotCount = sizeof kGlobalSlots / sizeof kGlobalSlots[0];

int g_initialized_at_registration = -1;

// What the plugin's constructor does: priority 101, before ordinary constructors and main.
__attribute__((constructor(101))) void RegisterGlobals() {
  cairn_add_exact_roots(kGlobalSlots, kGlobalSlotCount);
  g_initialized_at_registration = cairn_is_initialized();
}

// Smaller in the GC stress build, which collects (and verifies) at every allocation.
const int kChainLength = cairn_gc_stress_build() ? 200 : 2000;
const int kTreeDepth = cairn_gc_stress_build() ? 4 : 8;  // 15 or 255 nodes per tree
const int kGarbage = cairn_gc_stress_build() ? 50 : 3000;
const int kRounds = cairn_gc_stress_build() ? 5 : 30;

__attribute__((noinline)) Node *NewTree(int depth, int64_t *next_id) {
  if (depth == 0) return nullptr;
  Node *left = NewTree(depth - 1, next_id);
  Node *right = NewTree(depth - 1, next_id);
  return NewNode((*next_id)++, left, right);
}

// Sums the ids of a tree and counts its nodes.
int64_t TreeSum(const Node *n, int64_t *count) {
  if (n == nullptr) return 0;
  ++*count;
  EXPECT_EQ(n->value, n->id * 7 + 1);
  return n->id + TreeSum(n->left, count) + TreeSum(n->right, count);
}

__attribute__((noinline)) void BuildGlobals() {
  Node *head = nullptr;
  for (int i = kChainLength - 1; i >= 0; i--) head = NewNode(i, head);
  g_chain = head;
  int64_t id = 0;
  g_pair.left = NewTree(kTreeDepth, &id);
  g_pair.right = NewTree(kTreeDepth, &id);
}

// Garbage that reuses the pages the last collection freed, so a stale address would show.
__attribute__((noinline)) void AllocateGarbage() {
  for (int i = 0; i < kGarbage; i++) NewNode(-1);
}

__attribute__((noinline)) void StoreNewNode(void **slot, int64_t id) { *slot = NewNode(id); }

// Checks the chain from g_chain; returns how many of its nodes are not where `old` says they
// were, and records where they are now.
__attribute__((noinline)) size_t CheckChain(std::vector<HiddenAddress> &old) {
  size_t moved = 0, i = 0;
  for (Node *p = g_chain; p != nullptr; p = p->left, i++) {
    if (i >= size_t(kChainLength)) break;
    EXPECT_EQ(p->id, int64_t(i));
    EXPECT_EQ(p->value, int64_t(i) * 7 + 1);
    EXPECT_EQ(cairn_type_of(p), &kNodeType);
    if (i < old.size()) {
      if (old[i].get() != p) moved++;
      old[i] = HiddenAddress(p);
    } else {
      old.emplace_back(p);
    }
  }
  EXPECT_EQ(i, size_t(kChainLength));
  return moved;
}

__attribute__((noinline)) void CheckTrees() {
  const int64_t nodes = (int64_t{1} << kTreeDepth) - 1;
  int64_t count = 0;
  EXPECT_EQ(TreeSum(g_pair.left, &count), nodes * (nodes - 1) / 2);
  EXPECT_EQ(TreeSum(g_pair.right, &count), nodes * (3 * nodes - 1) / 2);
  EXPECT_EQ(count, 2 * nodes);
}

class GcExactRoots : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(cairn_init(nullptr), CAIRN_OK); }
};

}  // namespace

TEST(GcExactRootsBeforeInit, RegistrationBeforeMainSetsUpNoHeap) {
  // Registering must not set up the heap with default options behind the program's back.
  EXPECT_EQ(g_initialized_at_registration, 0);
}

TEST_F(GcExactRoots, GlobalsHoldingTheOnlyReferencesSurviveCollectionsAndFollowMoves) {
  BuildGlobals();
  std::vector<HiddenAddress> old;
  CheckChain(old);
  size_t moved_total = 0;
  for (int round = 0; round < kRounds; round++) {
    AllocateGarbage();
    CollectScrubbed();
    ASSERT_EQ(cairn_verify_heap(10), 0u) << "round " << round;
    moved_total += CheckChain(old);
    CheckTrees();
    if (HasFailure()) return;
  }
  // Objects only roots reach move at every collection, except those on a page that a stale
  // stack word happens to pin (a page holds about 200 nodes; in the Debug stress build, with
  // its bigger frames, about half the nodes were seen pinned): moves must be seen in most
  // rounds, so that "follows moves" is tested.
  EXPECT_GT(moved_total, size_t(kRounds) * size_t(kChainLength) / 5);
  g_chain = nullptr;
  g_pair = {};
}

TEST_F(GcExactRoots, ASlotAddedTwiceStaysUntilRemovedTwice) {
  auto *slot = new void *(nullptr);
  void **const slots[] = {slot};
  cairn_add_exact_roots(slots, 1);
  cairn_add_exact_root(slot);
  StoreNewNode(slot, 42);
  cairn_remove_exact_roots(slots, 1);
  AllocateGarbage();
  CollectScrubbed();  // still a root: its object is kept and the slot follows it
  ASSERT_EQ(cairn_verify_heap(10), 0u);
  EXPECT_EQ(static_cast<Node *>(*slot)->id, 42);
  const HiddenAddress second(*slot);
  cairn_remove_exact_root(slot);
  CollectScrubbed();  // no longer a root: the slot is left as it was
  EXPECT_EQ(*slot, second.get());
  cairn_remove_exact_roots(slots, 1);  // not a root: nothing happens
  delete slot;
}

TEST_F(GcExactRoots, RemovingFromTheMiddleKeepsTheOthers) {
  constexpr int kSlots = 64;
  std::vector<void *> values(kSlots, nullptr);
  std::vector<void **> slots;
  for (void *&v : values) slots.push_back(&v);
  cairn_add_exact_roots(slots.data(), kSlots);
  for (int i = 0; i < kSlots; i++) StoreNewNode(slots[i], i);
  std::vector<void **> odd;
  for (int i = 1; i < kSlots; i += 2) odd.push_back(slots[i]);
  cairn_remove_exact_roots(odd.data(), odd.size());
  for (int i = 1; i < kSlots; i += 2) values[i] = nullptr;
  CollectScrubbed();
  ASSERT_EQ(cairn_verify_heap(10), 0u);
  for (int i = 0; i < kSlots; i += 2) EXPECT_EQ(static_cast<Node *>(values[i])->id, i);
  cairn_remove_exact_roots(slots.data(), kSlots);
}

TEST_F(GcExactRoots, AnyThreadMayAddAndRemoveRoots) {
  auto *slot = new void *(nullptr);
  std::thread([slot] { cairn_add_exact_root(slot); }).join();
  StoreNewNode(slot, 7);
  CollectScrubbed();
  ASSERT_EQ(cairn_verify_heap(10), 0u);
  EXPECT_EQ(static_cast<Node *>(*slot)->id, 7);
  std::thread([slot] {
    void **const slots[] = {slot};
    cairn_remove_exact_roots(slots, 1);
  }).join();
  delete slot;
}

TEST(GcExactRootsDeathTest, ANullSlotIsAClearError) {
  void *value = nullptr;
  void **const slots[] = {&value, nullptr};
  EXPECT_DEATH(cairn_add_exact_roots(slots, 2),
               "cairn_add_exact_roots: slot 1 of 2 is NULL; pass the addresses of the slots");
}
