// Runtime errors: each message exactly, on standard error, with status 70 (gtest death tests,
// in a forked copy of the test process). Output before an error, and errors inside
// transactions, are in print_test.cpp and transaction_test.cpp.
#include <cmath>
#include <limits>
#include <string>

#include "../common/heap_test_support.h"
#include "cairn/type_builder.hpp"
#include "lang_test.h"
#include "program.h"

namespace cairn_langtest {
namespace {

constexpr cairn_type kFooType = cairn::PlainType("Foo", 8);

// The statement stops the process with status 70 and exactly this on standard error.
#define EXPECT_RUNTIME_ERROR(statement, stderr_text)                          \
  EXPECT_EXIT(statement, ::testing::ExitedWithCode(CAIRN_EXIT_RUNTIME_ERROR), \
              ::testing::Eq(std::string(stderr_text)))

using ErrorsTest = LangTest;

TEST_F(ErrorsTest, NilDereference) {
  EXPECT_RUNTIME_ERROR(cairn_rt_nil_field(&kLoc2, "partOf", "AtomicPart"),
                       "dir/prog.cairn:41:17: nil dereference: field 'partOf' of AtomicPart\n");
  EXPECT_RUNTIME_ERROR(cairn_rt_nil_method(&kLoc, "describe", "DesignObj"),
                       "t.cairn:3:7: nil dereference: method 'describe' of DesignObj\n");
  EXPECT_RUNTIME_ERROR(cairn_rt_nil(&kLoc, "index of [int]"),
                       "t.cairn:3:7: nil dereference: index of [int]\n");
  EXPECT_RUNTIME_ERROR(cairn_rt_nil(&kLoc, "len"), "t.cairn:3:7: nil dereference: len\n");
}

TEST_F(ErrorsTest, Index) {
  EXPECT_RUNTIME_ERROR(cairn_rt_index(&kLoc, 10, 3),
                       "t.cairn:3:7: index out of range: index 10, length 3\n");
  EXPECT_RUNTIME_ERROR(cairn_rt_index(&kLoc, -1, 0),
                       "t.cairn:3:7: index out of range: index -1, length 0\n");
  EXPECT_RUNTIME_ERROR(cairn_rt_negative_length(&kLoc, -1),
                       "t.cairn:3:7: negative array length: -1\n");
}

TEST_F(ErrorsTest, Cast) {
  void *foo = cairn_malloc_typed(&kFooType);
  EXPECT_RUNTIME_ERROR(cairn_rt_cast(&kLoc, foo, "Bar"),
                       "t.cairn:3:7: failed 'as': Foo is not Bar\n");
  EXPECT_RUNTIME_ERROR(cairn_rt_cast(&kLoc, Text("x"), "Bar"),
                       "t.cairn:3:7: failed 'as': text is not Bar\n");
}

// A failed check of compiled code (cairn_check_site): each kind's message as its own function
// gives it, at the site's position, or at the caller's where one is given (a std function).
TEST_F(ErrorsTest, CheckFailed) {
  auto site = [](uint32_t kind, const char *a = nullptr, const char *b = nullptr) {
    return cairn_check_site{{"c.cairn", 12, 5}, kind, a, b};
  };
  const cairn_check_site nil = site(CAIRN_CHECK_NIL, "index of [int]");
  EXPECT_RUNTIME_ERROR(cairn_rt_check_failed(&nil, 0, 0, nullptr),
                       "c.cairn:12:5: nil dereference: index of [int]\n");
  EXPECT_RUNTIME_ERROR(cairn_rt_check_failed(&nil, 0, 0, &kLoc2),
                       "dir/prog.cairn:41:17: nil dereference: index of [int]\n");
  const cairn_check_site field = site(CAIRN_CHECK_NIL_FIELD, "partOf", "AtomicPart");
  EXPECT_RUNTIME_ERROR(cairn_rt_check_failed(&field, 0, 0, nullptr),
                       "c.cairn:12:5: nil dereference: field 'partOf' of AtomicPart\n");
  const cairn_check_site method = site(CAIRN_CHECK_NIL_METHOD, "describe", "DesignObj");
  EXPECT_RUNTIME_ERROR(cairn_rt_check_failed(&method, 0, 0, nullptr),
                       "c.cairn:12:5: nil dereference: method 'describe' of DesignObj\n");
  const cairn_check_site index = site(CAIRN_CHECK_INDEX);
  EXPECT_RUNTIME_ERROR(cairn_rt_check_failed(&index, -4, 3, nullptr),
                       "c.cairn:12:5: index out of range: index -4, length 3\n");
  const cairn_check_site negative = site(CAIRN_CHECK_NEGATIVE_LENGTH);
  EXPECT_RUNTIME_ERROR(cairn_rt_check_failed(&negative, -2, 0, nullptr),
                       "c.cairn:12:5: negative array length: -2\n");
  void *foo = cairn_malloc_typed(&kFooType);
  const cairn_check_site cast = site(CAIRN_CHECK_CAST, "Bar");
  EXPECT_RUNTIME_ERROR(
      cairn_rt_check_failed(&cast, static_cast<int64_t>(reinterpret_cast<uintptr_t>(foo)), 0,
                            nullptr),
      "c.cairn:12:5: failed 'as': Foo is not Bar\n");
  const cairn_check_site div = site(CAIRN_CHECK_DIV_ZERO);
  EXPECT_RUNTIME_ERROR(cairn_rt_check_failed(&div, 0, 0, nullptr),
                       "c.cairn:12:5: division by zero\n");
  const cairn_check_site exit_status = site(CAIRN_CHECK_EXIT_STATUS);
  EXPECT_EXIT(cairn_rt_check_failed(&exit_status, 300, 0, nullptr),
              ::testing::ExitedWithCode(CAIRN_EXIT_RUNTIME_ERROR),
              "c\\.cairn:12:5: exit status out of range: 300");
  const cairn_check_site unknown = site(99);
  EXPECT_RUNTIME_ERROR(cairn_rt_check_failed(&unknown, 0, 0, nullptr),
                       "c.cairn:12:5: internal error: a failed check of unknown kind 99\n");
}

TEST_F(ErrorsTest, DivisionPanicAndMessage) {
  EXPECT_RUNTIME_ERROR(cairn_rt_div_zero(&kLoc), "t.cairn:3:7: division by zero\n");
  EXPECT_RUNTIME_ERROR(cairn_rt_panic(&kLoc, Text("it broke")), "t.cairn:3:7: panic: it broke\n");
  EXPECT_RUNTIME_ERROR(cairn_rt_panic(&kLoc, Text("")), "t.cairn:3:7: panic: \n");
  EXPECT_RUNTIME_ERROR(cairn_rt_panic(&kLoc, Text(std::string("a\0é", 4))),
                       std::string("t.cairn:3:7: panic: a") + '\0' + "é\n");
  EXPECT_RUNTIME_ERROR(cairn_rt_panic(&kLoc, nullptr), "t.cairn:3:7: panic: nil\n");
  EXPECT_RUNTIME_ERROR(cairn_rt_error(&kLoc, "something else"), "t.cairn:3:7: something else\n");
  EXPECT_RUNTIME_ERROR(cairn_rt_error(nullptr, "no position"), "no position\n");
}

TEST_F(ErrorsTest, Text) {
  EXPECT_RUNTIME_ERROR(cairn_text_concat(&kLoc, nullptr, Text("a")),
                       "t.cairn:3:7: nil dereference: text in '+'\n");
  EXPECT_RUNTIME_ERROR(cairn_text_concat(&kLoc, Text("a"), nullptr),
                       "t.cairn:3:7: nil dereference: text in '+'\n");
  EXPECT_RUNTIME_ERROR(cairn_text_byte(&kLoc, Text("abc"), 3),
                       "t.cairn:3:7: index out of range: index 3, length 3\n");
  EXPECT_RUNTIME_ERROR(cairn_text_byte(&kLoc, Text(""), -1),
                       "t.cairn:3:7: index out of range: index -1, length 0\n");
  EXPECT_RUNTIME_ERROR(cairn_text_byte(&kLoc, nullptr, 0),
                       "t.cairn:3:7: nil dereference: index of text\n");
}

TEST_F(ErrorsTest, FloatToInt) {
  EXPECT_EQ(cairn_float_to_int(&kLoc, 2.9), 2);
  EXPECT_EQ(cairn_float_to_int(&kLoc, -2.9), -2);
  EXPECT_EQ(cairn_float_to_int(&kLoc, -0.5), 0);
  EXPECT_EQ(cairn_float_to_int(&kLoc, -9223372036854775808.0), INT64_MIN);
  EXPECT_EQ(cairn_float_to_int(&kLoc, 9223372036854774784.0), INT64_MAX - 1023);
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_RUNTIME_ERROR(cairn_float_to_int(&kLoc, std::nan("")),
                       "t.cairn:3:7: cannot convert nan to int\n");
  EXPECT_RUNTIME_ERROR(cairn_float_to_int(&kLoc, 1e300),
                       "t.cairn:3:7: cannot convert 1e+300 to int: out of range\n");
  EXPECT_RUNTIME_ERROR(cairn_float_to_int(&kLoc, -1e300),
                       "t.cairn:3:7: cannot convert -1e+300 to int: out of range\n");
  EXPECT_RUNTIME_ERROR(cairn_float_to_int(&kLoc, inf),
                       "t.cairn:3:7: cannot convert inf to int: out of range\n");
  EXPECT_RUNTIME_ERROR(cairn_float_to_int(&kLoc, 9223372036854775808.0),
                       "t.cairn:3:7: cannot convert 9.223372036854776e+18 to int: out of range\n");
  EXPECT_RUNTIME_ERROR(cairn_float_to_int(&kLoc, -9223372036854777856.0),
                       "t.cairn:3:7: cannot convert -9.223372036854778e+18 to int: out of range\n");
}

}  // namespace
}  // namespace cairn_langtest
