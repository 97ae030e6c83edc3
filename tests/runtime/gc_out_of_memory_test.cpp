// Running out of the heap's reservation (cairn/gc.h): a fatal error that says how to reserve
// more, then SIGABRT, or the status set with cairn_set_out_of_memory_exit (no signal).
#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>

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

// The reservation's minimum is 256 MiB (cairn/gc.h): less, or a CAIRN_HEAP_RESERVE_MB that is not
// a positive whole number of MiB, is an error from cairn_init saying so, not an abort and not a
// message about address space that was never asked for.
void InitAndReport(const char *env, uint64_t reserve) {
  setenv("CAIRN_HEAP_RESERVE_MB", env, 1);
  cairn_options options{};
  options.reserve_bytes = reserve;
  const cairn_status s = cairn_init(&options);
  std::fprintf(stderr, "status %d: %s\n", int(s), s == CAIRN_OK ? "ok" : cairn_last_error());
  std::exit(s == CAIRN_OK ? 0 : 3);
}

TEST(GcReserveDeathTest, BelowTheMinimumOrMalformedIsAnErrorThatSaysSo) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(InitAndReport("100", 0), testing::ExitedWithCode(3),
              "below the minimum of 256 MiB: set CAIRN_HEAP_RESERVE_MB");
  EXPECT_EXIT(InitAndReport("", uint64_t(100) << 20), testing::ExitedWithCode(3),
              "a heap reservation of 100 MiB is below the minimum of 256 MiB");
  for (const char *bad : {"0", "abc", "-5", "12x", "99999999999999999999"})
    EXPECT_EXIT(
        InitAndReport(bad, 0), testing::ExitedWithCode(3),
        std::string("CAIRN_HEAP_RESERVE_MB=") + bad + " is not a positive whole number of MiB")
        << bad;
  EXPECT_EXIT(InitAndReport("256", 0), testing::ExitedWithCode(0), "status 0: ok");
}

}  // namespace
