/* The same type Tree in another module, with other code and another heap type before it. */
#include "cairn/heap_c.h"

struct Box {
  CAIRN_REF(struct Tree) content;
};
CAIRN_HEAP_TYPE(Box);

struct Tree {
  int64_t key;
  CAIRN_REF(struct Tree) left;
  CAIRN_REF(struct Tree) right;
  double weight;
};
CAIRN_HEAP_TYPE(Tree);

static double weigh(CAIRN_REF(struct Tree) t) {
  return t == 0 ? 0.0 : t->weight + weigh(t->left) + weigh(t->right);
}

CAIRN_REF(struct Box) box_tree(int64_t key) {
  CAIRN_REF(struct Box) b = CAIRN_NEW(Box);
  b->content = CAIRN_NEW(Tree);
  b->content->key = key;
  b->content->weight = weigh(b->content) + 2.0;
  return b;
}
