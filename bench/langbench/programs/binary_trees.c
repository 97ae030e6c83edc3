/* binary-trees in C: the classic benchmark's algorithm, every node from malloc and back to free.
 * usage: binary_trees MAX_DEPTH (the Cairn twin is binary_trees.cairn; same output). */
#include <stdio.h>
#include <stdlib.h>

typedef struct node {
  struct node *left;
  struct node *right;
} node;

static node *bottom_up(long depth) {
  node *n = malloc(sizeof *n);
  if (n == NULL) abort();
  if (depth > 0) {
    n->left = bottom_up(depth - 1);
    n->right = bottom_up(depth - 1);
  } else {
    n->left = n->right = NULL;
  }
  return n;
}

static long check(const node *n) {
  if (n->left == NULL) return 1;
  return 1 + check(n->left) + check(n->right);
}

static void release(node *n) {
  if (n->left != NULL) {
    release(n->left);
    release(n->right);
  }
  free(n);
}

int main(int argc, char **argv) {
  long max_depth = argc > 1 ? atol(argv[1]) : 16;
  long min_depth = 4;
  if (max_depth < min_depth + 2) max_depth = min_depth + 2;

  node *stretch = bottom_up(max_depth + 1);
  printf("stretch tree of depth %ld check: %ld\n", max_depth + 1, check(stretch));
  release(stretch);

  node *long_lived = bottom_up(max_depth);
  long total = 0;
  for (long depth = min_depth; depth <= max_depth; depth += 2) {
    long iterations = 1L << (max_depth - depth + min_depth);
    long sum = 0;
    for (long i = 0; i < iterations; i++) {
      node *t = bottom_up(depth);
      sum += check(t);
      release(t);
    }
    printf("%ld trees of depth %ld check: %ld\n", iterations, depth, sum);
    total += sum;
  }
  printf("long lived tree of depth %ld check: %ld\n", max_depth, check(long_lived));
  release(long_lived);
  printf("checksum %ld\n", total);
  return 0;
}
