// GCBench on Cairn's runtime: typed allocation with a descriptor, atomic allocation for doubles.
#include <cstddef>

#include "backends.h"
#include "cairn/gc.h"
#include "cairn/type_builder.hpp"

namespace gcbench {
namespace {

constexpr cairn_field kNodeFields[] = {
    cairn::Field("left", offsetof(Node, left), CAIRN_KIND_REF),
    cairn::Field("right", offsetof(Node, right), CAIRN_KIND_REF),
    cairn::Field("i", offsetof(Node, i), CAIRN_KIND_I32),
    cairn::Field("j", offsetof(Node, j), CAIRN_KIND_I32),
};
constexpr cairn_type kNodeType = cairn::PlainType<kNodeFields>("gcbench.Node", sizeof(Node));

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
