// GCBench (Boehm, Ellis and Kovac), written once against a thin typed-allocation interface and
// instantiated for each collector (cairn_backend.cpp, boehm_backend.cpp).
//
// The program: build and drop a "stretch" tree of depth 18; keep a long-lived tree of depth 16
// and an array of 500,000 doubles alive throughout; then, for depths 4, 6, ..., 16, build
// 2 * size(18) / size(depth) trees top-down (Populate) and as many bottom-up (MakeTree), each
// dropped at once; finally check that the long-lived data is intact.
//
// A backend is a class with:
//   static void Init();
//   static Node *NewNode(Node *left, Node *right);  // zeroed, typed (two references)
//   static double *NewDoubles(size_t n);            // pointer-free
//   static BackendStats Stats();
#pragma once

#include <cstddef>
#include <cstdint>

namespace gcbench {

struct Node {
  Node *left;
  Node *right;
  int32_t i, j;
};

struct BackendStats {
  uint64_t collections = 0;
  uint64_t max_pause_ns = 0;
  uint64_t total_pause_ns = 0;
};

struct Result {
  double seconds = 0;
  BackendStats stats;
  bool ok = false;
};

inline constexpr int kStretchTreeDepth = 18;
inline constexpr int kLongLivedTreeDepth = 16;
inline constexpr size_t kArraySize = 500000;
inline constexpr int kMinTreeDepth = 4;
inline constexpr int kMaxTreeDepth = 16;

constexpr long TreeSize(int depth) { return (1L << (depth + 1)) - 1; }
constexpr long NumIters(int depth) { return 2 * TreeSize(kStretchTreeDepth) / TreeSize(depth); }

// The recursive builders are not inlined (for either collector): inlined into Run, their spill
// slots would keep stale references to the dropped stretch tree alive in Run's frame, which both
// conservative collectors would then have to honour.
template <class Heap>
__attribute__((noinline)) void Populate(int depth, Node *node) {
  if (depth <= 0) return;
  depth--;
  node->left = Heap::NewNode(nullptr, nullptr);
  node->right = Heap::NewNode(nullptr, nullptr);
  Populate<Heap>(depth, node->left);
  Populate<Heap>(depth, node->right);
}

template <class Heap>
__attribute__((noinline)) Node *MakeTree(int depth) {
  if (depth <= 0) return Heap::NewNode(nullptr, nullptr);
  Node *left = MakeTree<Heap>(depth - 1);
  Node *right = MakeTree<Heap>(depth - 1);
  return Heap::NewNode(left, right);
}

template <class Heap>
long CountNodes(const Node *n) {
  return n ? 1 + CountNodes<Heap>(n->left) + CountNodes<Heap>(n->right) : 0;
}

template <class Heap>
__attribute__((noinline)) void TimeConstruction(int depth) {
  const long iters = NumIters(depth);
  for (long i = 0; i < iters; i++) {
    Node *temp = Heap::NewNode(nullptr, nullptr);
    Populate<Heap>(depth, temp);
  }
  for (long i = 0; i < iters; i++) MakeTree<Heap>(depth);
}

// Runs the benchmark; `now` returns monotonic seconds.
template <class Heap>
Result Run(double (*now)()) {
  Result r;
  double t0 = now();
  MakeTree<Heap>(kStretchTreeDepth);  // the stretch tree, dropped at once
  asm volatile("" : : : "memory");

  Node *long_lived = Heap::NewNode(nullptr, nullptr);
  Populate<Heap>(kLongLivedTreeDepth, long_lived);
  double *array = Heap::NewDoubles(kArraySize);
  for (size_t i = 1; i < kArraySize / 2; i++) array[i] = 1.0 / double(i);

  for (int d = kMinTreeDepth; d <= kMaxTreeDepth; d += 2) TimeConstruction<Heap>(d);

  r.ok =
      CountNodes<Heap>(long_lived) == TreeSize(kLongLivedTreeDepth) && array[1000] == 1.0 / 1000.0;
  r.seconds = now() - t0;
  r.stats = Heap::Stats();
  return r;
}

}  // namespace gcbench
