/* The type Tree in one module: builds a tree (the fingerprint test compiles it at -O0 and -O2). */
#include "cairn/heap_c.h"

struct Tree {
  int64_t key;
  CAIRN_REF(struct Tree) left;
  CAIRN_REF(struct Tree) right;
  double weight;
};
CAIRN_HEAP_TYPE(Tree);

CAIRN_REF(struct Tree) tree_build(int64_t lo, int64_t hi) {
  if (lo > hi) return 0;
  int64_t mid = lo + (hi - lo) / 2;
  CAIRN_REF(struct Tree) t = CAIRN_NEW(Tree);
  t->key = mid;
  t->weight = 1.0;
  t->left = tree_build(lo, mid - 1);
  t->right = tree_build(mid + 1, hi);
  return t;
}
