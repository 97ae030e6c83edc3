// Running out of the heap's reservation (cairn/gc.h): a fatal error that says how to reserve
// more, then SIGABRT, or the status set with cairn_set_out_of_memory_exit (no signal).
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <csetjmp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cairn/gc.h"
#include "test_types.h"

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

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CAIRN_TEST_ASAN 1
#endif
#endif
#if !defined(__SANITIZE_ADDRESS__) && !defined(CAIRN_TEST_ASAN)  // ASan's shadow needs more
// A reservation the system cut short (a limit on the process's address space: ulimit -v) is
// said in the out-of-memory message with what was asked for, and in cairn_get_stats: raising
// CAIRN_HEAP_RESERVE_MB alone does nothing then (the message told the user to, and reported the
// cut size as if it were the one set).
void ExhaustACutReservation() {
  struct rlimit limit{uint64_t(3) << 30, uint64_t(3) << 30};
  if (setrlimit(RLIMIT_AS, &limit) != 0) return;
  cairn_options options{};
  options.reserve_bytes = uint64_t(64) << 30;
  if (cairn_init(&options) != CAIRN_OK) return;
  cairn_stats st{};
  cairn_get_stats(&st);
  std::fprintf(stderr, "asked for %llu MiB, reserved less: %d\n",
               static_cast<unsigned long long>(st.requested_bytes >> 20),
               st.reserved_bytes < st.requested_bytes ? 1 : 0);
  void *volatile big = cairn_malloc_atomic(size_t(3) << 30);  // more than the transient arena
  (void)big;
}

TEST(GcOutOfMemoryDeathTest, SaysWhenTheSystemCutTheReservation) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(ExhaustACutReservation(), testing::KilledBySignal(SIGABRT),
              "asked for 65536 MiB, reserved less: 1");
  EXPECT_EXIT(ExhaustACutReservation(), testing::KilledBySignal(SIGABRT),
              "MiB \\(65536 MiB were asked for: the system would not map more, as a limit on the "
              "process's address space does \\(ulimit -v, ulimit -d\\)\\)\\. Set "
              "CAIRN_HEAP_RESERVE_MB higher, and the limit on the process's address space with it");
}
#endif

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

// cairn_has_room_for (cairn/gc.h): 1 for a large object that fits beside what is live (after a
// collection that frees the dead), 0 for one that does not, and 1 for small objects whatever
// the heap holds; a 0 leaves the heap usable. In a child (its own heap of 256 MiB, 128 MiB
// transient), which exits 0 when every expectation held.
// Allocates an object nothing keeps: its address never reaches the caller's frame.
__attribute__((noinline)) void AllocateAndDrop(uint64_t bytes) {
  void *volatile p = cairn_malloc_atomic(bytes);
  (void)p;
}

void RoomForLargeObjects() {
  cairn_options options{};
  options.reserve_bytes = uint64_t(256) << 20;
  if (cairn_init(&options) != CAIRN_OK) std::_Exit(2);
  const uint64_t block = uint64_t(40) << 20;
  if (cairn_has_room_for(block) != 1) std::_Exit(3);
  void *volatile a = cairn_malloc_atomic(block);
  void *volatile b = cairn_malloc_atomic(block);
  AllocateAndDrop(block);                             // 120 of 128 MiB taken, 40 of it dead
  if (cairn_has_room_for(block) != 1) std::_Exit(4);  // after the collection it makes
  void *volatile c = cairn_malloc_atomic(block);      // and the allocation gets the room
  if (cairn_has_room_for(block) != 0) std::_Exit(5);  // 120 MiB live
  if (cairn_has_room_for(64) != 1 || cairn_has_room_for(4096) != 1) std::_Exit(6);
  (void)a;
  (void)b;
  (void)c;
  std::_Exit(0);
}

TEST(GcOutOfMemoryDeathTest, HasRoomForSaysWhetherALargeObjectFits) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(RoomForLargeObjects(), testing::ExitedWithCode(0), "");
}

// C1 of gc/gc_heap.h: small objects kept live until the heap is full. The collection before the
// full heap is found completes (it was "out of memory during a collection", fatal, mid-copy), the
// out-of-memory hook is called with the heap consistent, and a program that jumps back from it,
// drops what it held and collects goes on allocating; the heap verifies throughout. In a child
// with its own 256 MiB heap, which exits 0 when every expectation held.
// The heap-full tests fill a 128 MiB arena 40 bytes at a time: with a collection before every
// allocation (the GC stress build) that is quadratic; the main and sanitizer builds run them.
#ifdef CAIRN_GC_STRESS
#define SKIP_IN_THE_STRESS_BUILD() GTEST_SKIP() << "quadratic with a collection per allocation"
#else
#define SKIP_IN_THE_STRESS_BUILD() (void)0
#endif

namespace {

sigjmp_buf g_full;
std::string g_full_message;
cairn_test::Node *g_kept;  // an exact root: the chain the child fills the heap with

void OnFull(const char *message, void *) {
  g_full_message = message;
  siglongjmp(g_full, 1);
}

void FillWithSmallObjects() {
  cairn_options options{};
  options.reserve_bytes = uint64_t(256) << 20;
  if (cairn_init(&options) != CAIRN_OK) std::_Exit(2);
  cairn_add_exact_root(reinterpret_cast<void **>(&g_kept));
  cairn_set_out_of_memory_hook(OnFull, nullptr);
  static volatile int64_t made = 0;
  if (sigsetjmp(g_full, 1) == 0) {
    for (;;) {
      g_kept = cairn_test::NewNode(made, g_kept);
      made = made + 1;
    }
  }
  if (g_full_message.find("out of memory: the heap is full") != 0 ||
      g_full_message.find("CAIRN_HEAP_RESERVE_MB") == std::string::npos)
    std::_Exit(3);
  if (cairn_verify_heap(10) != 0) std::_Exit(4);
  // Every node made is there, in order.
  int64_t count = 0;
  for (cairn_test::Node *n = g_kept; n != nullptr; n = n->left) {
    if (n->id != made - 1 - count) std::_Exit(5);
    ++count;
  }
  if (count != made || made < 1000000) std::_Exit(6);
  // Dropped: the heap takes as many again.
  g_kept = nullptr;
  cairn_collect();
  for (int64_t i = 0; i < made / 2; ++i) g_kept = cairn_test::NewNode(i, g_kept);
  if (cairn_verify_heap(10) != 0) std::_Exit(7);
  std::_Exit(0);
}

}  // namespace

TEST(GcOutOfMemoryDeathTest, AFullHeapCallsTheHookWithTheHeapConsistent) {
  SKIP_IN_THE_STRESS_BUILD();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(FillWithSmallObjects(), testing::ExitedWithCode(0), "");
}

// Without a hook, small objects that fill the heap end the process with the message (it died in
// the middle of a collection, "out of memory during a collection").
void FillWithoutHook() {
  cairn_options options{};
  options.reserve_bytes = uint64_t(256) << 20;
  if (cairn_init(&options) != CAIRN_OK) std::_Exit(2);
  cairn_add_exact_root(reinterpret_cast<void **>(&g_kept));
  cairn_set_out_of_memory_exit(42);
  for (int64_t i = 0;; ++i) g_kept = cairn_test::NewNode(i, g_kept);
}

TEST(GcOutOfMemoryDeathTest, AFullHeapOfSmallObjectsSaysSoAfterACompleteCollection) {
  SKIP_IN_THE_STRESS_BUILD();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(FillWithoutHook(), testing::ExitedWithCode(42),
              "cairn: fatal: out of memory: the heap is full .*CAIRN_HEAP_RESERVE_MB");
}
