// A randomized graph under many collections: mutations between them are mirrored in a model kept
// outside the heap; after each collection the heap graph must equal the model exactly (node by
// node, and by a content checksum), and the verifier must find nothing.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <unordered_map>
#include <vector>

#include "cairn/gc.h"
#include "test_types.h"

using namespace cairn_test;

namespace {

constexpr int64_t kNil = -1;

struct ModelNode {
  int64_t value;
  int64_t left = kNil, right = kNil;
};

class RandomGraph {
 public:
  RandomGraph(uint32_t seed, size_t slots) : rng_(seed), slots_(slots, kNil) {
    roots_ = cairn_malloc_array(&cairn_ref_array_type, slots);
    cairn_add_exact_root(&roots_);
  }
  ~RandomGraph() { cairn_remove_exact_root(&roots_); }

  Node **slots() { return RefArrayData(roots_); }

  // A random node reachable from a slot, walking a few random edges; nullptr if none.
  Node *RandomReachable(int64_t *id_out) {
    size_t s = rng_() % slots_.size();
    if (slots_[s] == kNil) return nullptr;
    Node *n = slots()[s];
    int64_t id = slots_[s];
    for (int steps = rng_() % 6; steps > 0; steps--) {
      bool go_left = rng_() & 1;
      int64_t next = go_left ? model_[id].left : model_[id].right;
      if (next == kNil) break;
      n = go_left ? n->left : n->right;
      id = next;
    }
    EXPECT_EQ(n->id, id);
    *id_out = id;
    return n;
  }

  void Step() {
    int64_t id = kNil, other_id = kNil;
    uint32_t op = rng_() % 16;
    if (op == 0) {  // a new node into a root slot, keeping what was there below it
      size_t s = rng_() % slots_.size();
      Node *n = NewModelNode();
      SetChild(n, n->id, true, slots()[s], slots_[s]);
      slots()[s] = n;
      slots_[s] = n->id;
    } else if (op <= 6) {  // a new node between a reachable node and one of its children
      Node *parent = RandomReachable(&id);
      if (!parent) return;
      HiddenAddress p_before(parent);
      // The allocation may collect; `parent` stays put because the stack holds it (pinned).
      Node *n = NewModelNode();
      EXPECT_EQ(parent, p_before.get());
      bool left = rng_() & 1;
      Node *old_child = left ? parent->left : parent->right;
      SetChild(n, n->id, rng_() & 1, old_child, old_child ? old_child->id : kNil);
      SetChild(parent, id, left, n, n->id);
    } else if (op <= 8) {  // rewire an edge to another reachable node, maybe making a cycle
      Node *a = RandomReachable(&id);
      Node *b = RandomReachable(&other_id);
      bool left = rng_() & 1;
      // Mostly into empty edges, so that the graph grows; sometimes dropping a subtree.
      if (a && ((left ? a->left : a->right) == nullptr || rng_() % 8 == 0))
        SetChild(a, id, left, b, b ? other_id : kNil);
    } else if (op == 9) {  // cut an edge or empty a slot: garbage
      if (rng_() % 4 == 0) {
        size_t s = rng_() % slots_.size();
        slots()[s] = nullptr;
        slots_[s] = kNil;
      } else if (Node *a = RandomReachable(&id)) {
        SetChild(a, id, rng_() & 1, nullptr, kNil);
      }
    } else if (op <= 11) {  // change a value
      if (Node *a = RandomReachable(&id)) {
        a->value = int64_t(rng_());
        model_[id].value = a->value;
      }
    } else {  // garbage of other shapes: atomic blocks, text, an occasional large array
      uint32_t r = rng_() % 100;
      if (r < 2)
        cairn_malloc_array(&cairn_ref_array_type, 2000 + rng_() % 3000);
      else if (r < 50)
        cairn_malloc_atomic(rng_() % 300);
      else
        cairn_malloc_array(&cairn_text_type, rng_() % 200);
    }
  }

  // Compares the heap graph with the model; returns the number of nodes reachable.
  size_t Check() {
    std::unordered_map<int64_t, Node *> seen;
    std::vector<std::pair<Node *, int64_t>> work;
    for (size_t s = 0; s < slots_.size(); s++) {
      Node *n = slots()[s];
      EXPECT_EQ(n ? n->id : kNil, slots_[s]) << "slot " << s;
      if (n) work.emplace_back(n, slots_[s]);
    }
    uint64_t heap_sum = 0, model_sum = 0;
    while (!work.empty()) {
      auto [n, id] = work.back();
      work.pop_back();
      auto [it, fresh] = seen.emplace(id, n);
      if (!fresh) {
        EXPECT_EQ(it->second, n) << "two copies of node " << id;
        continue;
      }
      const ModelNode &m = model_.at(id);
      EXPECT_EQ(cairn_type_of(n), &kNodeType);
      EXPECT_EQ(n->id, id);
      EXPECT_EQ(n->value, m.value) << "node " << id;
      EXPECT_EQ(n->left ? n->left->id : kNil, m.left) << "node " << id;
      EXPECT_EQ(n->right ? n->right->id : kNil, m.right) << "node " << id;
      heap_sum +=
          Mix(n->id, n->value, n->left ? n->left->id : kNil, n->right ? n->right->id : kNil);
      model_sum += Mix(id, m.value, m.left, m.right);
      if (n->left) work.emplace_back(n->left, m.left);
      if (n->right) work.emplace_back(n->right, m.right);
    }
    EXPECT_EQ(heap_sum, model_sum);
    return seen.size();
  }

 private:
  static uint64_t Mix(int64_t a, int64_t b, int64_t c, int64_t d) {
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (int64_t v : {a, b, c, d}) h = (h ^ uint64_t(v)) * 0xff51afd7ed558ccdull;
    return h ^ (h >> 29);
  }

  Node *NewModelNode() {
    int64_t id = next_id_++;
    Node *n = NewNode(id);
    n->value = int64_t(rng_());
    model_[id] = ModelNode{n->value};
    return n;
  }

  void SetChild(Node *parent, int64_t pid, bool left, Node *child, int64_t cid) {
    (left ? parent->left : parent->right) = child;
    (left ? model_[pid].left : model_[pid].right) = cid;
  }

  std::mt19937 rng_;
  void *roots_ = nullptr;
  std::vector<int64_t> slots_;
  std::unordered_map<int64_t, ModelNode> model_;
  int64_t next_id_ = 0;
};

}  // namespace

TEST(GcRandomGraph, ManyCollectionsWithMutationsBetweenThem) {
  ASSERT_EQ(cairn_init(nullptr), CAIRN_OK);
  const bool stress = cairn_gc_stress_build();
  const int rounds = stress ? 30 : 150;
  const int steps = stress ? 300 : 3000;
  for (uint32_t seed : {1u, 2u, 3u}) {
    SCOPED_TRACE(seed);
    RandomGraph g(seed, 64);
    cairn_stats s0;
    cairn_get_stats(&s0);
    size_t max_reachable = 0;
    for (int r = 0; r < rounds; r++) {
      for (int i = 0; i < steps; i++) g.Step();
      if (r % 3 == 0)
        CollectScrubbed();
      else
        cairn_collect();
      ASSERT_EQ(cairn_verify_heap(10), 0u) << "round " << r;
      size_t reachable = g.Check();
      if (reachable > max_reachable) max_reachable = reachable;
      if (::testing::Test::HasFailure()) return;
    }
    cairn_stats s1;
    cairn_get_stats(&s1);
    EXPECT_GE(s1.collections - s0.collections, uint64_t(rounds));
    EXPECT_GT(max_reachable, stress ? 300u : 3000u);
    std::printf("seed %u: %llu collections, up to %zu nodes reachable\n", seed,
                static_cast<unsigned long long>(s1.collections - s0.collections), max_reachable);
  }
}
