// Source files: line tables, line/column of offsets, line texts, loading, descriptions.
#include "source/source.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace cairn::front {
namespace {

TEST(Source, LineColOfOffsets) {
  SourceManager sm;
  const SourceFile &f = sm.add("a.cairn", "ab\ncd\n\nefg");
  EXPECT_EQ(f.id(), 0u);
  auto lc = [&](uint32_t offset) {
    const LineCol x = f.lineCol(offset);
    return std::to_string(x.line) + ":" + std::to_string(x.col);
  };
  EXPECT_EQ(lc(0), "1:1");
  EXPECT_EQ(lc(1), "1:2");
  EXPECT_EQ(lc(2), "1:3");  // the newline itself belongs to its line
  EXPECT_EQ(lc(3), "2:1");
  EXPECT_EQ(lc(6), "3:1");
  EXPECT_EQ(lc(7), "4:1");
  EXPECT_EQ(lc(10), "4:4");   // the end of the text
  EXPECT_EQ(lc(999), "4:4");  // clamped
}

// Columns count characters (source.h): a UTF-8 sequence is one, a byte that is not part of one
// is one; on long lines too, past the checkpoints of the count (one per 256 bytes), asked in
// any order.
TEST(Source, ColumnsCountCharacters) {
  SourceManager sm;
  std::string line;
  for (int i = 0; i < 1000; ++i) line += "\xC3\xA9";  // é, 2 bytes each
  const std::string text = "x\n" + line + "y\xFFz\n\xE5\x90\x8D = 1\nplain";
  const SourceFile &f = sm.add("u.cairn", text);
  auto lc = [&](size_t offset) {
    const LineCol x = f.lineCol(static_cast<uint32_t>(offset));
    return std::to_string(x.line) + ":" + std::to_string(x.col);
  };
  const size_t y = 2 + 2000;
  EXPECT_EQ(lc(y + 2), "2:1003");  // z, after y and the byte 0xFF
  EXPECT_EQ(lc(2 + 2 * 300), "2:301");
  EXPECT_EQ(lc(y), "2:1001");
  EXPECT_EQ(lc(2), "2:1");
  EXPECT_EQ(lc(y + 4 + 3), "3:2");  // after 名
  EXPECT_EQ(lc(text.size() - 1), "4:5");
  EXPECT_EQ(lc(0), "1:1");
}

TEST(Source, LineTextWithoutLineBreak) {
  SourceManager sm;
  const SourceFile &f = sm.add("a.cairn", "first\r\nsecond\n\nlast");
  EXPECT_EQ(f.lineText(1), "first");
  EXPECT_EQ(f.lineText(2), "second");
  EXPECT_EQ(f.lineText(3), "");
  EXPECT_EQ(f.lineText(4), "last");
  EXPECT_EQ(f.lineText(0), "");
  EXPECT_EQ(f.lineText(5), "");
}

// A lone CR ends a line in a file without LFs (classic Mac OS); in a file with LFs it is a byte
// of its line (a raw CR in a text literal stays one).
TEST(Source, ALoneCarriageReturnEndsALineInAFileWithoutLineFeeds) {
  SourceManager sm;
  const SourceFile &f = sm.add("m.cairn", "one\rtwo\rthree\r");
  EXPECT_EQ(f.lineText(1), "one");
  EXPECT_EQ(f.lineText(2), "two");
  EXPECT_EQ(f.lineText(3), "three");
  EXPECT_EQ(f.lineCol(4).line, 2u);
  EXPECT_EQ(f.lineCol(8).line, 3u);
  EXPECT_EQ(f.text().size(), 14u);  // offsets are the file's
  const SourceFile &mixed = sm.add("x.cairn", "a\rb\nc\r\n");
  EXPECT_EQ(mixed.lineText(1), "a\rb");
  EXPECT_EQ(mixed.lineText(2), "c");
  EXPECT_EQ(mixed.text(), "a\rb\nc\r\n");
}

TEST(Source, EmptyFile) {
  SourceManager sm;
  const SourceFile &f = sm.add("e.cairn", "");
  EXPECT_EQ(f.lineCol(0).line, 1u);
  EXPECT_EQ(f.lineCol(0).col, 1u);
  EXPECT_EQ(f.lineText(1), "");
}

TEST(Source, DescribeSpans) {
  SourceManager sm;
  sm.add("one.cairn", "x");
  const SourceFile &two = sm.add("dir/two.cairn", "let a = 1\nlet b = 2\n");
  EXPECT_EQ(two.id(), 1u);
  EXPECT_EQ(sm.size(), 2u);
  EXPECT_EQ(sm.describe(Span{1, 14, 15}), "dir/two.cairn:2:5");
  EXPECT_EQ(sm.describe(Span{}), "<unknown>");
  EXPECT_EQ(sm.describe(Span{7, 0, 0}), "<unknown>");
}

TEST(Source, LoadFromDisk) {
  const std::string path = ::testing::TempDir() + "cairn_source_test.cairn";
  {
    std::ofstream out(path, std::ios::binary);
    out << "fn main() {}\n";
  }
  SourceManager sm;
  std::string error;
  SourceFile *f = sm.load(path, &error);
  ASSERT_NE(f, nullptr) << error;
  EXPECT_EQ(f->text(), "fn main() {}\n");
  EXPECT_EQ(f->path(), path);
  std::remove(path.c_str());

  EXPECT_EQ(sm.load(path + ".missing", &error), nullptr);
  EXPECT_EQ(error, "No such file or directory");
  EXPECT_EQ(sm.size(), 1u);
}

TEST(Source, SpanCover) {
  const Span a{0, 4, 6}, b{0, 10, 12};
  EXPECT_EQ(Span::cover(a, b).begin, 4u);
  EXPECT_EQ(Span::cover(b, a).end, 12u);
  EXPECT_EQ(Span::cover(Span{}, b).begin, 10u);
}

}  // namespace
}  // namespace cairn::front
