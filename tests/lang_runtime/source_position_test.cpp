// The line-table reader (runtime/src/lang/source_position.h) on this test binary itself: the
// line of a call in this file (DWARF 5, GCC's default) and in a file compiled with -gdwarf-4
// (source_position_dwarf4.cpp), and no position for addresses outside the executable's code.
#include "lang/source_position.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>

namespace cairn_langtest {

uintptr_t Dwarf4CallSite(int *line);  // source_position_dwarf4.cpp

namespace {

using cairn::lang::FindCairnPosition;
using cairn::lang::FindSourcePosition;
using cairn::lang::FormatPosition;
using cairn::lang::SourcePosition;

// The address of the call instruction that called it (its return address minus 1).
__attribute__((noinline)) uintptr_t CallSite() {
  return reinterpret_cast<uintptr_t>(__builtin_return_address(0)) - 1;
}

std::string File(const SourcePosition &p) {
  std::string f(p.directory);
  if (!f.empty() && f.back() != '/') f += '/';
  return f.append(p.name);
}

bool EndsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

TEST(SourcePositionTest, FindsTheLineOfACallInThisFile) {
  const int line = __LINE__ + 1;
  const uintptr_t at = CallSite();
  SourcePosition p;
  ASSERT_TRUE(FindSourcePosition(at, &p));
  EXPECT_TRUE(EndsWith(File(p), "tests/lang_runtime/source_position_test.cpp")) << File(p);
  EXPECT_EQ(p.line, uint32_t(line));
  EXPECT_GT(p.column, 0u);
}

TEST(SourcePositionTest, ReadsADwarf4LineTable) {
  int line = 0;
  const uintptr_t at = Dwarf4CallSite(&line);
  SourcePosition p;
  ASSERT_TRUE(FindSourcePosition(at, &p));
  EXPECT_TRUE(EndsWith(File(p), "source_position_dwarf4.cpp")) << File(p);
  EXPECT_EQ(p.line, uint32_t(line));
}

TEST(SourcePositionTest, NoPositionOutsideTheExecutablesCode) {
  SourcePosition p;
  EXPECT_FALSE(FindSourcePosition(0, &p));
  EXPECT_FALSE(FindSourcePosition(16, &p));
  // A shared library's code (libc's).
  EXPECT_FALSE(FindSourcePosition(reinterpret_cast<uintptr_t>(&std::fputs), &p));
  // Data, not code.
  static int data = 0;
  EXPECT_FALSE(FindSourcePosition(reinterpret_cast<uintptr_t>(&data), &p));
}

TEST(SourcePositionTest, NoCairnFrameInACppProgram) {
  SourcePosition p;
  EXPECT_FALSE(FindCairnPosition(0, cairn::lang::FaultFrame::kToucher, &p));
  EXPECT_FALSE(FindCairnPosition(CallSite(), cairn::lang::FaultFrame::kCaller, &p));
}

TEST(SourcePositionTest, FormatsAsTheCompilersRuntimeErrorsDo) {
  char out[64];
  SourcePosition p;
  p.name = "a.cairn";
  p.line = 12;
  p.column = 5;
  EXPECT_EQ(FormatPosition(p, out, sizeof out), 14u);
  EXPECT_STREQ(out, "a.cairn:12:5: ");
  p.directory = "lib";
  p.name = "b.cairn";
  FormatPosition(p, out, sizeof out);
  EXPECT_STREQ(out, "lib/b.cairn:12:5: ");
  // Cut short, NUL-terminated.
  EXPECT_EQ(FormatPosition(p, out, 5), 4u);
  EXPECT_STREQ(out, "lib/");
}

}  // namespace
}  // namespace cairn_langtest
