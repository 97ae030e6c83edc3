// Diagnostics: the registry, message formatting, rendering with the source line and caret,
// colour, the error limit, and name suggestions.
#include "source/diagnostics.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <set>
#include <string>

namespace cairn::front {
namespace {

TEST(Diagnostics, FormatMessage) {
  EXPECT_EQ(formatMessage("expected {0}, found {1}", {"')'", "'}'"}), "expected ')', found '}'");
  EXPECT_EQ(formatMessage("{1}{0}{1}", {"a", "b"}), "bab");
  EXPECT_EQ(formatMessage("a {{0} b", {"x"}), "a {0} b");
  EXPECT_EQ(formatMessage("\\u{{...}", {}), "\\u{...}");
  EXPECT_EQ(formatMessage("missing {3}", {"x"}), "missing {3}");
  EXPECT_EQ(formatMessage("no args {", {}), "no args {");
  EXPECT_EQ(formatMessage("{9}", {"0", "1", "2", "3", "4", "5", "6", "7", "8", "nine"}), "nine");
}

TEST(Diagnostics, RegistryMessagesFollowTheStyle) {
  std::set<std::string> names;
  for (const DiagKindInfo &k : allDiagKinds()) {
    EXPECT_TRUE(names.insert(k.name).second) << "duplicate kind " << k.name;
    const std::string format = k.format;
    ASSERT_FALSE(format.empty()) << k.name;
    EXPECT_FALSE(std::isupper(static_cast<unsigned char>(format[0]))) << k.name;
    EXPECT_NE(format.back(), '.') << k.name;
  }
  EXPECT_EQ(std::string(diagKindInfo(DiagId::ExpectedToken).name), "ExpectedToken");
  EXPECT_EQ(diagKindInfo(DiagId::UnterminatedText).severity, Severity::Error);
}

TEST(Diagnostics, RenderWithCaretUnderTheSpan) {
  SourceManager sm;
  sm.add("prog.cairn", "fn main() {\n    let n: int = \"seven\"\n}\n");
  Diagnostics diags(sm);
  diags.report(DiagId::ExpectedToken, Span{0, 29, 36}, {"int", "text"})
      .withHint("use parse_int(...)")
      .withNote(Span{0, 3, 7}, "in this function");
  ASSERT_EQ(diags.all().size(), 1u);
  EXPECT_EQ(diags.render(diags.all()[0], false),
            "prog.cairn:2:18: error: expected int, found text\n"
            "   2 |     let n: int = \"seven\"\n"
            "     |                  ^~~~~~~\n"
            "hint: use parse_int(...)\n"
            "note: prog.cairn:1:4: in this function\n");
}

// print() shows a file's diagnostics in source order, whatever the order they were reported in
// (the checker reports main's signature after its body), files in the order they first came.
TEST(Diagnostics, PrintedInSourceOrderWithinAFile) {
  SourceManager sm;
  sm.add("a.cairn", "x\ny\nz\n");
  sm.add("b.cairn", "p\nq\n");
  Diagnostics diags(sm);
  diags.report(DiagId::UnexpectedChar, Span{0, 4, 5}, {"'z'"});
  diags.report(DiagId::UnexpectedChar, Span{1, 2, 3}, {"'q'"});
  diags.report(DiagId::UnexpectedChar, Span{0, 0, 1}, {"'x'"});
  diags.report(DiagId::UnexpectedChar, Span{1, 0, 1}, {"'p'"});
  diags.report(DiagId::UnexpectedChar, Span{0, 2, 3}, {"'y'"});
  std::FILE *f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  diags.print(f, false);
  std::rewind(f);
  std::string out, firsts;
  for (int c; (c = std::fgetc(f)) != EOF;) out += char(c);
  std::fclose(f);
  for (size_t at = 0; (at = out.find("unexpected character '", at)) != std::string::npos; at++)
    firsts += out[at + 22];
  EXPECT_EQ(firsts, "xyzpq") << out;
}

TEST(Diagnostics, RenderExpandsTabsInBothLines) {
  SourceManager sm;
  sm.add("t.cairn", "\tx\t= @\n");
  Diagnostics diags(sm);
  diags.report(DiagId::UnexpectedChar, Span{0, 5, 6}, {"'@'"});
  EXPECT_EQ(diags.render(diags.all()[0], false),
            "t.cairn:1:6: error: unexpected character '@'\n"
            "   1 |     x   = @\n"
            "     |           ^\n");
}

// The column counts characters, not bytes (source.h), and the caret stands under its character
// whatever the bytes before it.
TEST(Diagnostics, RenderCountsCharactersAndStopsAtTheLineEnd) {
  SourceManager sm;
  // "é" is two bytes; the span runs past the end of its line.
  sm.add("u.cairn", "let \xC3\xA9 = \"ab\ncd\"\n");
  Diagnostics diags(sm);
  diags.report(DiagId::UnterminatedText, Span{0, 9, 17});
  EXPECT_EQ(diags.render(diags.all()[0], false),
            "u.cairn:1:9: error: unterminated text literal\n"
            "   1 | let \xC3\xA9 = \"ab\n"
            "     |         ^~~\n");
}

// A wide character (a CJK ideograph) takes two columns on a terminal and a combining mark none
// (source/utf8.h, U2): the caret and its underline are measured so (they were one column each,
// the caret four columns left of a name after two ideographs; found by a hostile review).
TEST(Diagnostics, RenderMeasuresWideCharactersAndMarks) {
  SourceManager sm;
  // `let 名前 = 1; e\u0301 + 変数`: 変数 is at bytes 22..27, characters 18..19, display
  // columns 18..21 (0-based).
  sm.add("w.cairn", "let \xE5\x90\x8D\xE5\x89\x8D = 1; e\xCC\x81 + \xE5\xA4\x89\xE6\x95\xB0\n");
  Diagnostics diags(sm);
  diags.report(DiagId::UnknownName, Span{0, 22, 28}, {"\xE5\xA4\x89\xE6\x95\xB0"});
  EXPECT_EQ(diags.render(diags.all()[0], false),
            "w.cairn:1:18: error: unknown name '\xE5\xA4\x89\xE6\x95\xB0'\n"
            "   1 | let \xE5\x90\x8D\xE5\x89\x8D = 1; e\xCC\x81 + \xE5\xA4\x89\xE6\x95\xB0\n"
            "     | " +
                std::string(18, ' ') + "^~~~\n");
}

// Bytes that look like UTF-8 but are not (an overlong '/', a surrogate) are shown as '?', as any
// byte that is not part of a character is (they were echoed raw).
TEST(Diagnostics, RenderMalformedSequencesAsQuestionMarks) {
  SourceManager sm;
  sm.add("m.cairn", std::string("a\xC0\xAF b\xED\xA0\x80 @\n"));
  Diagnostics diags(sm);
  diags.report(DiagId::UnexpectedChar, Span{0, 9, 10}, {"'@'"});
  EXPECT_EQ(diags.render(diags.all()[0], false),
            "m.cairn:1:10: error: unexpected character '@'\n"
            "   1 | a?? b??? @\n" +
                std::string("     | ") + std::string(9, ' ') + "^\n");
}

TEST(Diagnostics, RenderEmptySpanAndLongLineNumbers) {
  SourceManager sm;
  std::string text;
  for (int i = 0; i < 120; ++i) text += "x\n";
  sm.add("long.cairn", text);
  Diagnostics diags(sm);
  diags.report(DiagId::ExpectedToken, Span{0, 2 * 119 + 1, 2 * 119 + 1}, {"')'", "end of line"});
  EXPECT_EQ(diags.render(diags.all()[0], false),
            "long.cairn:120:2: error: expected ')', found end of line\n"
            "   120 | x\n"
            "       |  ^\n");
}

// A long line (a 30 MB one-line file printed itself three times over) is shown as an excerpt
// around the position, and a long argument of the message is cut.
TEST(Diagnostics, RenderLongLineAsAnExcerpt) {
  SourceManager sm;
  const std::string before(1000, 'a'), after(5000, 'b');
  sm.add("wide.cairn", before + " @ " + after + "\n");
  Diagnostics diags(sm);
  diags.report(DiagId::UnexpectedChar, Span{0, 1001, 1002}, {"'@'"});
  EXPECT_EQ(diags.render(diags.all()[0], false),
            "wide.cairn:1:1002: error: unexpected character '@'\n"
            "   1 | ..." +
                std::string(59, 'a') + " @ " + std::string(98, 'b') + "...\n" + "     | " +
                std::string(3 + 60, ' ') + "^\n");

  // At the start of the line: no leading "...", and a span past the excerpt stops at its end.
  diags.report(DiagId::ExpectedToken, Span{0, 0, 1000}, {std::string(5000, 'x'), "y"});
  EXPECT_EQ(diags.render(diags.all()[1], false), "wide.cairn:1:1: error: expected " +
                                                     std::string(200, 'x') + "..., found y\n" +
                                                     "   1 | " + std::string(160, 'a') + "...\n" +
                                                     "     | ^" + std::string(159, '~') + "\n");
}

// Bytes that are not UTF-8, and control characters, are shown as '?', one column each (an emoji
// takes two).
TEST(Diagnostics, RenderBinaryBytesAsQuestionMarks) {
  SourceManager sm;
  sm.add("bin.cairn", std::string("x\xA6\x1B[2J\xF0\x9F\x98\x80 @\n"));
  Diagnostics diags(sm);
  diags.report(DiagId::UnexpectedChar, Span{0, 11, 12}, {"'@'"});
  EXPECT_EQ(diags.render(diags.all()[0], false),
            "bin.cairn:1:9: error: unexpected character '@'\n"
            "   1 | x??[2J\xF0\x9F\x98\x80 @\n" +
                std::string("     | ") + std::string(9, ' ') + "^\n");
}

// Bidirectional controls (U+202E here, U+2067) and C1 controls (U+0085) are shown as '?' too: one
// would reorder the shown line around it, the other a terminal may act on.
TEST(Diagnostics, RenderInvisibleControlsAsQuestionMarks) {
  SourceManager sm;
  sm.add("bidi.cairn", std::string("a\xE2\x80\xAE"
                                   "b\xE2\x81\xA7"
                                   "c\xC2\x85"
                                   "d\xC3\xA9 @\n"));
  Diagnostics diags(sm);
  diags.report(DiagId::UnexpectedChar, Span{0, 15, 16}, {"'@'"});
  EXPECT_EQ(diags.render(diags.all()[0], false),
            "bidi.cairn:1:10: error: unexpected character '@'\n"
            "   1 | a?b?c?d\xC3\xA9 @\n" +
                std::string("     | ") + std::string(9, ' ') + "^\n");
}

// The direction marks U+200E and U+200F reorder the line as the controls do (campaign K).
TEST(Diagnostics, RenderDirectionMarksAsQuestionMarks) {
  SourceManager sm;
  sm.add("marks.cairn", std::string("a\xE2\x80\x8E"
                                    "b\xE2\x80\x8F"
                                    "c @\n"));
  Diagnostics diags(sm);
  diags.report(DiagId::UnexpectedChar, Span{0, 10, 11}, {"'@'"});
  EXPECT_EQ(diags.render(diags.all()[0], false),
            "marks.cairn:1:7: error: unexpected character '@'\n"
            "   1 | a?b?c @\n" +
                std::string("     | ") + std::string(6, ' ') + "^\n");
}

TEST(Diagnostics, RenderWithoutPosition) {
  SourceManager sm;
  Diagnostics diags(sm);
  diags.report(DiagId::CannotReadFile, Span{}, {"x.cairn", "No such file or directory"})
      .withNote(Span{}, "looked in the current directory");
  EXPECT_EQ(diags.render(diags.all()[0], false),
            "cairn: error: cannot read 'x.cairn': No such file or directory\n"
            "note: looked in the current directory\n");
}

TEST(Diagnostics, ColorOnlyWhenAsked) {
  SourceManager sm;
  sm.add("c.cairn", "x @\n");
  Diagnostics diags(sm);
  diags.report(DiagId::UnexpectedChar, Span{0, 2, 3}, {"'@'"});
  const std::string plain = diags.render(diags.all()[0], false);
  const std::string colored = diags.render(diags.all()[0], true);
  EXPECT_EQ(plain.find('\033'), std::string::npos);
  EXPECT_NE(colored.find("\033[1;31merror:\033[0m"), std::string::npos);
  EXPECT_NE(colored.find("\033[1;32m^\033[0m"), std::string::npos);
}

TEST(Diagnostics, ErrorLimitKeepsCountingIntoTheOverflowSlot) {
  SourceManager sm;
  sm.add("l.cairn", "abc\n");
  Diagnostics diags(sm);
  diags.setErrorLimit(2);
  for (int i = 0; i < 5; ++i) {
    Diagnostic &d = diags.report(DiagId::UnexpectedChar, Span{0, 0, 1}, {std::to_string(i)});
    d.withHint("still writable");  // the overflow slot is a valid reference too
    EXPECT_EQ(d.message, "unexpected character " + std::to_string(i));
  }
  EXPECT_EQ(diags.errorCount(), 5u);
  EXPECT_TRUE(diags.hasErrors());
  ASSERT_EQ(diags.all().size(), 2u);

  std::FILE *out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  diags.print(out, false);
  std::rewind(out);
  std::string printed;
  char buffer[256];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, out)) > 0) printed.append(buffer, n);
  std::fclose(out);
  EXPECT_NE(printed.find("unexpected character 0"), std::string::npos);
  EXPECT_NE(printed.find("unexpected character 1"), std::string::npos);
  EXPECT_EQ(printed.find("unexpected character 2"), std::string::npos);
  EXPECT_NE(printed.find("3 more errors not shown\n"), std::string::npos);
}

TEST(Diagnostics, NoLimitByDefault) {
  SourceManager sm;
  Diagnostics diags(sm);
  for (int i = 0; i < 100; ++i) diags.report(DiagId::UnterminatedComment, Span{});
  EXPECT_EQ(diags.all().size(), 100u);
}

TEST(Diagnostics, NearestName) {
  const std::vector<std::string> names = {"println", "print", "len", "str", "Database"};
  EXPECT_EQ(nearestName("printn", names), "println");  // one deletion... or print + 'n'
  EXPECT_EQ(nearestName("pritn", names), "print");     // a transposition
  EXPECT_EQ(nearestName("lne", names), "len");         // a transposition, len/3 = 1
  EXPECT_EQ(nearestName("xyz", names), "");
  EXPECT_EQ(nearestName("Databse", names), "Database");
  EXPECT_EQ(nearestName("databaes", names), "Database");   // case and a transposition: 2
  EXPECT_EQ(nearestName("xyzabase", names), "");           // distance 3 > 8/3
  EXPECT_EQ(nearestName("ab", {"xb", "ax"}), "xb");        // ties: the first candidate
  EXPECT_EQ(nearestName("a", {"b"}), "b");                 // max(1, len/3) = 1
  EXPECT_EQ(nearestName("abcdef", {"abcfed"}), "abcfed");  // distance 2 = 6/3
  EXPECT_EQ(nearestName("anything", {}), "");
}

}  // namespace
}  // namespace cairn::front
