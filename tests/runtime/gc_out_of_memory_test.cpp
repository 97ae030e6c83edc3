// Running out of the heap's reservation (cairn/gc.h): a fatal error that says how to reserve
// more, then SIGABRT, or the status set with cairn_set_out_of_memory_exit (no signal).
#include <gtest/gtest.h>

#include <csignal>

#include "cairn/gc.h"

namespace {

// Fills a 256 MiB reservation (128 MiB of it transient) with 1 MiB blocks kept live by the stack
// (ambiguous roots).
void ExhaustTheHeap() {
  cairn_options options{};
  options.reserve_bytes = uint64_t(256) << 20;  // the least the heap takes; half transient
  if (cairn_init(&options) != CAIRN_OK) return;
  void *volatile keep[512];
  for (int i = 0; i < 512; ++i) keep[i] = cairn_malloc_atomic(size_t(1) << 20);
  (void)keep;
}

TEST(GcOutOfMemoryDeathTest, AbortsWithAMessageByDefault) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(ExhaustTheHeap(), testing::KilledBySignal(SIGABRT),
              "cairn: fatal: out of memory.*CAIRN_HEAP_RESERVE_MB");
}

TEST(GcOutOfMemoryDeathTest, ExitsWithTheStatusSet) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        cairn_set_out_of_memory_exit(42);
        ExhaustTheHeap();
      },
      testing::ExitedWithCode(42), "cairn: fatal: out of memory.*CAIRN_HEAP_RESERVE_MB");
}

}  // namespace
