// GCBench on the Boehm-Demers-Weiser collector (Debian's libgc), in its default configuration:
// typed allocation (GC_malloc_explicitly_typed with a bitmap descriptor) for nodes, atomic
// allocation for doubles. Pauses are timed from GC_EVENT_START to GC_EVENT_END.
#define GC_THREADS 1  // only to ask GC_get_parallel how many markers run
#include <gc/gc.h>
#include <gc/gc_typed.h>

#include <ctime>

#include "backends.h"

namespace gcbench {
namespace {

GC_descr node_descr;
uint64_t pause_start, max_pause, total_pause;

uint64_t MonoNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

void OnEvent(GC_EventType e) {
  if (e == GC_EVENT_START) pause_start = MonoNs();
  if (e == GC_EVENT_END) {
    uint64_t p = MonoNs() - pause_start;
    total_pause += p;
    if (p > max_pause) max_pause = p;
  }
}

struct BoehmHeap {
  static void Init() {
    GC_INIT();
    GC_set_on_collection_event(OnEvent);
    GC_word bitmap[GC_BITMAP_SIZE(Node)] = {0};
    GC_set_bit(bitmap, GC_WORD_OFFSET(Node, left));
    GC_set_bit(bitmap, GC_WORD_OFFSET(Node, right));
    node_descr = GC_make_descriptor(bitmap, GC_WORD_LEN(Node));
  }
  static Node *NewNode(Node *left, Node *right) {
    Node *n = static_cast<Node *>(GC_malloc_explicitly_typed(sizeof(Node), node_descr));
    n->left = left;
    n->right = right;
    return n;
  }
  static double *NewDoubles(size_t n) {
    return static_cast<double *>(GC_malloc_atomic(n * sizeof(double)));
  }
  static BackendStats Stats() { return BackendStats{GC_get_gc_no(), max_pause, total_pause}; }
};

}  // namespace

Result RunBoehm(double (*now)()) {
  BoehmHeap::Init();
  return Run<BoehmHeap>(now);
}

int BoehmMarkers() { return GC_get_parallel() ? int(GC_get_parallel()) + 1 : 1; }

}  // namespace gcbench
