// Free pages' memory goes back to the system after a collection when more pages are free than
// the next collection cycle can use (GcHeap::AfterCollection, PageHeap::ReturnFreeMemory,
// docs/gc.md "Memory given back"): a program whose live data shrank does not keep its peak's
// memory; a program in a steady state makes no such system call; pages given back read as zero
// when they are used again.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>

#include "cairn/gc.h"
#include "test_types.h"

using namespace cairn_test;

namespace {

// Bytes of this process in memory (/proc/self/statm: pages, second field).
uint64_t ResidentBytes() {
  FILE *f = std::fopen("/proc/self/statm", "r");
  unsigned long long size = 0, resident = 0;
  if (f) {
    if (std::fscanf(f, "%llu %llu", &size, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return resident * uint64_t(sysconf(_SC_PAGESIZE));
}

constexpr size_t kArrays = 1000;
constexpr size_t kLength = 8192;  // 64 KiB of integers each: 64 MB in all, large objects
const size_t kNodes = cairn_gc_stress_build() ? 2000 : 400000;  // small ones too: ~16 MB

void *g_arrays = nullptr;  // [ [int] ] of kArrays
void *g_chain = nullptr;   // a chain of kNodes Nodes
void **const g_slots[] = {&g_arrays, &g_chain};

int64_t *Data(void *array) {
  return reinterpret_cast<int64_t *>(static_cast<char *>(array) + CAIRN_ARRAY_DATA_OFFSET);
}
void **Refs(void *array) {
  return reinterpret_cast<void **>(static_cast<char *>(array) + CAIRN_ARRAY_DATA_OFFSET);
}

// Fills the globals with kArrays arrays of non-zero integers and a chain of kNodes nodes.
__attribute__((noinline)) void MakePeak() {
  g_arrays = cairn_malloc_array(&cairn_ref_array_type, kArrays);
  for (size_t i = 0; i < kArrays; i++) {
    void *a = cairn_malloc_array(&cairn_i64_array_type, kLength);
    for (size_t k = 0; k < kLength; k++) Data(a)[k] = int64_t(k) | 1;
    Refs(g_arrays)[i] = a;
  }
  Node *head = nullptr;
  for (size_t i = 0; i < kNodes; i++) {
    Node *n = NewNode(int64_t(i) + 1, head);
    n->value = -1;
    head = n;
  }
  g_chain = head;
}

TEST(GcReturnMemory, APeakThatDiesGivesItsMemoryBackAndTheMemoryReadsZeroWhenReused) {
  ASSERT_EQ(cairn_init(nullptr), CAIRN_OK);
  cairn_add_exact_roots(g_slots, 2);
  MakePeak();
  cairn_collect();  // the peak is live: nothing to give back
  cairn_stats live;
  cairn_get_stats(&live);
  const uint64_t peak_rss = ResidentBytes();
  g_arrays = nullptr;
  g_chain = nullptr;
  ScrubStack();
  cairn_collect();
  cairn_collect();
  cairn_stats after;
  cairn_get_stats(&after);
  const uint64_t rss = ResidentBytes();
  std::printf("peak RSS %.1f MB, after %.1f MB, pages returned %llu\n", double(peak_rss) / 1e6,
              double(rss) / 1e6, static_cast<unsigned long long>(after.pages_returned));
  const uint64_t peak_bytes = kArrays * kLength * 8;
  EXPECT_GE((after.pages_returned - live.pages_returned) * CAIRN_PAGE_SIZE, peak_bytes / 2);
  EXPECT_LT(rss + peak_bytes / 2, peak_rss);  // the kernel has the memory back
  EXPECT_EQ(cairn_verify_heap(10), 0u);

  // Pages given back are taken again without being cleared by the collector: they must read as
  // zero (the old arrays' integers were all odd).
  for (size_t i = 0; i < kArrays; i++) {
    void *a = cairn_malloc_array(&cairn_i64_array_type, kLength);
    for (size_t k = 0; k < kLength; k++) ASSERT_EQ(Data(a)[k], 0) << i << " " << k;
  }
  for (size_t i = 0; i < kNodes; i++) {
    auto *n = static_cast<Node *>(cairn_malloc_typed(&kNodeType));
    ASSERT_EQ(n->left, nullptr);
    ASSERT_EQ(n->value, 0);
  }
  EXPECT_EQ(cairn_verify_heap(10), 0u);
}

TEST(GcReturnMemory, ASteadyStateGivesNothingBack) {
  ASSERT_EQ(cairn_init(nullptr), CAIRN_OK);
  cairn_add_exact_roots(g_slots, 2);
  // 4 MB live, replaced piece by piece: collections come and go, the free pages stay in use.
  const size_t slots = 64, length = 8192;
  g_arrays = cairn_malloc_array(&cairn_ref_array_type, slots);
  const int rounds = cairn_gc_stress_build() ? 300 : 5000;
  for (int r = 0; r < 200; r++)
    Refs(g_arrays)[size_t(r) % slots] = cairn_malloc_array(&cairn_i64_array_type, length);
  cairn_stats before, after;
  cairn_get_stats(&before);
  for (int r = 0; r < rounds; r++) {
    Refs(g_arrays)[size_t(r) % slots] = cairn_malloc_array(&cairn_i64_array_type, length);
    for (int k = 0; k < 20; k++) NewNode(k);
  }
  cairn_get_stats(&after);
  std::printf(
      "%llu collections, %llu MB allocated, %llu pages returned\n",
      static_cast<unsigned long long>(after.collections - before.collections),
      static_cast<unsigned long long>((after.bytes_allocated - before.bytes_allocated) >> 20),
      static_cast<unsigned long long>(after.pages_returned - before.pages_returned));
  EXPECT_GE(after.collections, before.collections + (cairn_gc_stress_build() ? 300 : 20));
  EXPECT_EQ(after.pages_returned, before.pages_returned);
  g_arrays = nullptr;
}

}  // namespace
