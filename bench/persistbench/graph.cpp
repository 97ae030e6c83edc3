// The benchmark's graph (graph.h).
#include "graph.h"

namespace persistbench {
namespace {

int64_t CrossTarget(int64_t i, int64_t n) { return (i * 7919 + 13) % n; }

// An exact root for the index while the graph is built (the index itself never persists).
class IndexRoot {
 public:
  IndexRoot() { cairn_add_exact_root(&slot_); }
  ~IndexRoot() { cairn_remove_exact_root(&slot_); }
  void *slot_ = nullptr;
};

}  // namespace

__attribute__((noinline)) Node *BuildGraph(int64_t n) {
  static IndexRoot index;  // static storage: not on the stack, not a registered range
  index.slot_ = cairn_malloc_array(&cairn_ref_array_type, n);
  for (int64_t i = 0; i < n; i++) {
    auto *x = static_cast<Node *>(cairn_malloc_typed(&kNodeType));
    x->id = i;
    auto **all =
        reinterpret_cast<Node **>(static_cast<char *>(index.slot_) + CAIRN_ARRAY_DATA_OFFSET);
    all[i] = x;
  }
  auto **all =
      reinterpret_cast<Node **>(static_cast<char *>(index.slot_) + CAIRN_ARRAY_DATA_OFFSET);
  for (int64_t i = 0; i < n; i++) {
    if (2 * i + 1 < n) all[i]->a = all[2 * i + 1];
    if (2 * i + 2 < n) all[i]->b = all[2 * i + 2];
    all[i]->c = all[CrossTarget(i, n)];
  }
  Node *root = all[0];
  index.slot_ = nullptr;
  return root;
}

int64_t Walk(const Node *x) {
  int64_t sum = 0;
  while (x) {
    sum += x->id + x->c->id;
    if (x->b) sum += Walk(x->b);
    x = x->a;
  }
  return sum;
}

int64_t ExpectedWalk(int64_t n) {
  int64_t sum = 0;
  for (int64_t i = 0; i < n; i++) sum += i + CrossTarget(i, n);
  return sum;
}

}  // namespace persistbench
