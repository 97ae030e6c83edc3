// One mutator thread: any other thread that calls the runtime gets a clear fatal error.
#include <gtest/gtest.h>

#include <thread>

#include "cairn/gc.h"
#include "test_types.h"

TEST(GcThreadDeathTest, AllocationFromAnotherThreadIsAClearError) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  ASSERT_EQ(cairn_init(nullptr), CAIRN_OK);
  EXPECT_DEATH(
      {
        std::thread t([] { cairn_malloc_typed(&cairn_test::kNodeType); });
        t.join();
      },
      "cairn_malloc_typed was called from thread [0-9]+, which is not the mutator thread");
}

TEST(GcThread, InitFromASecondThreadIsMisuse) {
  ASSERT_EQ(cairn_init(nullptr), CAIRN_OK);
  cairn_status s = CAIRN_OK;
  std::string message;
  std::thread t([&] {
    s = cairn_init(nullptr);
    message = cairn_last_error();
  });
  t.join();
  EXPECT_EQ(s, CAIRN_MISUSE);
  EXPECT_NE(message.find("one mutator thread"), std::string::npos);
}
