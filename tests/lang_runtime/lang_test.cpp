// Helpers of lang_test.h.
#include "lang_test.h"

#include <cstring>

namespace cairn_langtest {
namespace {

template <class T>
void *Array(const cairn_type *type, std::initializer_list<T> v) {
  void *a = cairn_malloc_array(type, v.size());
  char *p = static_cast<char *>(a) + CAIRN_ARRAY_DATA_OFFSET;
  for (T x : v) {
    std::memcpy(p, &x, sizeof x);
    p += sizeof x;
  }
  return a;
}

}  // namespace

std::string Bytes(const void *text) {
  if (text == nullptr) return "<nil>";
  const int64_t n = *static_cast<const int64_t *>(text);
  return std::string(static_cast<const char *>(text) + CAIRN_ARRAY_DATA_OFFSET,
                     static_cast<size_t>(n));
}

void *IntArray(std::initializer_list<int64_t> v) { return Array(&cairn_i64_array_type, v); }
void *FloatArray(std::initializer_list<double> v) { return Array(&cairn_f64_array_type, v); }
void *BoolArray(std::initializer_list<bool> v) { return Array(&cairn_bool_array_type, v); }
void *RefArray(size_t n) { return cairn_malloc_array(&cairn_ref_array_type, n); }

void SetRef(void *ref_array, size_t i, void *v) {
  reinterpret_cast<void **>(static_cast<char *>(ref_array) + CAIRN_ARRAY_DATA_OFFSET)[i] = v;
}

void *GetRef(const void *ref_array, size_t i) {
  return reinterpret_cast<void *const *>(static_cast<const char *>(ref_array) +
                                         CAIRN_ARRAY_DATA_OFFSET)[i];
}

void LangTest::SetUp() { ASSERT_EQ(cairn_init(nullptr), CAIRN_OK) << cairn_last_error(); }

void LangTest::TearDown() { EXPECT_EQ(cairn_verify_heap(10), 0u); }

}  // namespace cairn_langtest
