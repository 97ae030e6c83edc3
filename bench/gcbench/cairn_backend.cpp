// GCBench on Cairn's runtime: typed allocation with a descriptor, atomic allocation for doubles.
#include <cstddef>

#include "backends.h"
#include "cairn/gc.h"

namespace gcbench {
namespace {

constexpr uint32_t kNodeRefs[] = {offsetof(Node, left), offsetof(Node, right)};

constexpr cairn_type MakeNodeType() {
  cairn_type t{};
  t.abi = CAIRN_TYPE_ABI;
  t.name = "gcbench.Node";
  t.size = sizeof(Node);
  t.align = alignof(Node);
  t.nrefs = 2;
  t.refs = kNodeRefs;
  t.fingerprint = cairn_type_fingerprint_compute(&t);
  return t;
}
constexpr cairn_type kNodeType = MakeNodeType();

struct CairnHeap {
  static void Init() {
    if (cairn_init(nullptr) != CAIRN_OK || cairn_register_type(&kNodeType) != CAIRN_OK)
      __builtin_trap();
  }
  static Node *NewNode(Node *left, Node *right) {
    Node *n = static_cast<Node *>(cairn_malloc_typed(&kNodeType));
    n->left = left;
    n->right = right;
    return n;
  }
  static double *NewDoubles(size_t n) {
    return static_cast<double *>(cairn_malloc_atomic(n * sizeof(double)));
  }
  static BackendStats Stats() {
    cairn_stats s;
    cairn_get_stats(&s);
    return BackendStats{s.collections, s.max_pause_ns, s.total_pause_ns};
  }
};

}  // namespace

Result RunCairn(double (*now)()) {
  CairnHeap::Init();
  return Run<CairnHeap>(now);
}

}  // namespace gcbench
