// The parent side of the persistence tests: a fixture with a fresh store directory per test and
// a way to run child scenarios on it (spawn.h).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "spawn.h"

namespace cairn_ptest {

class PersistTest : public ::testing::Test {
 protected:
  // Runs child scenario `name` on this test's store.
  ChildResult Run(const std::string &name, const std::vector<std::string> &args = {},
                  const std::vector<std::string> &env = {}, double timeout_s = 300) {
    ChildResult r = RunChild(name, dir_.Sub("store"), args, env, timeout_s);
    std::printf("[child] %-36s %s in %.2f s\n", name.c_str(), r.ok() ? "ok" : "FAILED", r.seconds);
    return r;
  }
  const std::string &dir() const { return dir_.path(); }
  std::string store() const { return dir_.Sub("store"); }

 private:
  TempDir dir_;
};

// The numeric value of KEY=VALUE in a child's output (0 if absent).
inline uint64_t ValueOf(const ChildResult &r, const std::string &key) {
  return std::strtoull(r.Value(key).c_str(), nullptr, 10);
}

}  // namespace cairn_ptest

// A child scenario that must succeed; its output is shown when it does not. `r` (often a Run
// call) is evaluated once.
#define ASSERT_CHILD_OK(r)                             \
  do {                                                 \
    const ::cairn_ptest::ChildResult &child_r_ = (r);  \
    ASSERT_TRUE(child_r_.ok()) << child_r_.Describe(); \
  } while (0)
#define EXPECT_CHILD_OK(r)                             \
  do {                                                 \
    const ::cairn_ptest::ChildResult &child_r_ = (r);  \
    EXPECT_TRUE(child_r_.ok()) << child_r_.Describe(); \
  } while (0)
