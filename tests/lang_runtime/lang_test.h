// What the language runtime's tests share: making texts and arrays, reading texts back, source
// positions, a fixture for tests that run in the test process, and programs that run in a
// process of their own (see program.h).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "cairn/lang.h"

namespace cairn_langtest {

// The source positions the tests' runtime errors name.
inline constexpr cairn_loc kLoc{"t.cairn", 3, 7};
inline constexpr cairn_loc kLoc2{"dir/prog.cairn", 41, 17};

inline void *Text(std::string_view s) {
  return cairn_text_new(s.data(), static_cast<int64_t>(s.size()));
}
// A text's bytes ("<nil>" for nil).
std::string Bytes(const void *text);

void *IntArray(std::initializer_list<int64_t> v);
void *FloatArray(std::initializer_list<double> v);
void *BoolArray(std::initializer_list<bool> v);
// An [any] of n nils.
void *RefArray(size_t n);
void SetRef(void *ref_array, size_t i, void *v);
void *GetRef(const void *ref_array, size_t i);

// str(v) of a reference, as a std::string.
inline std::string StrRef(void *v) { return Bytes(cairn_str_ref(v)); }

// Tests in the test process: the heap is set up, and verified after each test.
class LangTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
};

}  // namespace cairn_langtest
