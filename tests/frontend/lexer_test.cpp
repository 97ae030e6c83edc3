// The lexer: every literal form, escapes, comments, the statement-termination rules of
// lexer.h (3 and 4) and the lexical errors, by message and position.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "frontend_test_support.h"
#include "lexer/name_chars.h"

namespace cairn::front {
namespace {

using testing::errorList;
using testing::joinLines;

// The tokens of `text` in a compact form: names as themselves, keywords and punctuation as
// spelled, `NL` for Newline, `int:42`, `float:2.5`, `text:"..."` (escaped), `INVALID`. Eof
// is left out. Errors, if any, follow after " | ".
struct Lexed {
  std::string tokens;
  std::string errors;
  std::vector<Token> all;
};

std::string escaped(const std::string &bytes) {
  std::string out;
  for (char c : bytes) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '"' || c == '\\') {
      out += "\\";
      out += c;
    } else if (u < 0x20 || u >= 0x7F) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\x%02X", u);
      out += buffer;
    } else {
      out += c;
    }
  }
  return out;
}

Lexed lex(const std::string &text) {
  SourceManager sm;
  const SourceFile &f = sm.add("lex.cairn", text);
  Diagnostics diags(sm);
  Lexed out;
  out.all = tokenize(f, diags);
  for (const Token &t : out.all) {
    std::string s;
    switch (t.kind) {
      case TokenKind::Eof:
        continue;
      case TokenKind::Newline:
        s = "NL";
        break;
      case TokenKind::Invalid:
        s = "INVALID";
        break;
      case TokenKind::Ident:
        s = t.text;
        break;
      case TokenKind::Int:
        s = "int:" + std::to_string(t.int_value);
        break;
      case TokenKind::Float: {
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, "float:%.17g", t.float_value);
        s = buffer;
        break;
      }
      case TokenKind::Text:
        s = "text:\"" + escaped(t.text) + "\"";
        break;
      default:
        s = std::string(tokenSpelling(t.kind));
        break;
    }
    if (!out.tokens.empty()) out.tokens += " ";
    out.tokens += s;
  }
  out.errors = joinLines(errorList(sm, diags));
  return out;
}

std::string tokens(const std::string &text) {
  Lexed l = lex(text);
  return l.errors.empty() ? l.tokens : l.tokens + " | " + l.errors;
}

std::string errors(const std::string &text) { return lex(text).errors; }

// The sketch's keywords, and no others: `new` is a name (the parser makes it an object or an
// array before a type).
TEST(Lexer, Keywords) {
  EXPECT_EQ(tokens("and as atomic break class continue else extern false fn for if import in is "
                   "let nil not or override return self true var while"),
            "and as atomic break class continue else extern false fn for if import in is let nil "
            "not or override return self true var while");
  Lexed l =
      lex("and as atomic break class continue else extern false fn for if import in is let "
          "nil not or override return self true var while");
  for (const Token &t : l.all) {
    if (t.kind != TokenKind::Eof) {
      EXPECT_TRUE(isKeyword(t.kind)) << tokenSpelling(t.kind);
    }
  }
}

TEST(Lexer, Identifiers) {
  Lexed l = lex("foo _bar x1 Snake_case2 _ int any self_ iff new");
  EXPECT_EQ(l.tokens, "foo _bar x1 Snake_case2 _ int any self_ iff new");
  for (const Token &t : l.all) {
    if (t.kind != TokenKind::Eof) {
      EXPECT_EQ(t.kind, TokenKind::Ident);
    }
  }
}

// Rule 5: a name's text is its NFC, so `café` with U+00E9 and with `e` + U+0301 is one name.
TEST(Lexer, NamesAreInNormalizationFormC) {
  const std::string composed = "caf\xC3\xA9";
  const std::string decomposed = "cafe\xCC\x81";
  Lexed l = lex(decomposed + " " + composed);
  ASSERT_GE(l.all.size(), 2u);
  EXPECT_EQ(l.all[0].text, composed);
  EXPECT_EQ(l.all[1].text, composed);
  EXPECT_EQ(l.errors, "");
}

// Rule 5: a name that looks like a keyword (`lеt` with U+0435, a Cyrillic `е`) is an error
// naming the letter, and is lexed as the keyword, so parsing goes on as the writer meant.
TEST(Lexer, LookalikeKeywordIsAnError) {
  Lexed l = lex("l\xD0\xB5t x = 1");
  EXPECT_EQ(l.tokens, "let x = int:1");
  EXPECT_EQ(l.errors,
            "1:1: '"
            "l\xD0\xB5t' is not the keyword 'let': '\xD0\xB5' is U+0435, a Cyrillic letter "
            "that looks like the Latin 'e'\n");
  // A name of another script that only contains look-alikes is still a name when it is no
  // keyword, and a keyword needs every letter to look Latin.
  EXPECT_EQ(lex("\xD1\x81\xD0\xBE\xD1\x81 \xD0\xBD\xD0\xB5\xD1\x82").errors, "");  // сос нет
}

TEST(Lexer, Punctuation) {
  EXPECT_EQ(tokens("( ) [ ] { } , ; : . .. -> = == != < <= > >= + - * / % += -= *= /= %="),
            "( ) [ ] { } , ; : . .. -> = == != < <= > >= + - * / % += -= *= /= %=");
  EXPECT_EQ(tokens("a<=b>=c!=d==e->f"), "a <= b >= c != d == e -> f");
  EXPECT_EQ(tokens("x...y"), "x .. . y");
  EXPECT_EQ(tokens("a-->b"), "a - -> b");
}

TEST(Lexer, BitwiseOperators) {
  EXPECT_EQ(tokens("& | ^ ~ << >> >>> &= |= ^= <<= >>= >>>="),
            "& | ^ ~ << >> >>> &= |= ^= <<= >>= >>>=");
  // The longest operator wins: `>>>=` before `>>>`, `>>=`, `>>` and `>=`.
  EXPECT_EQ(tokens("a>>>=b>>>c>>=d>>e>=f>g"), "a >>>= b >>> c >>= d >> e >= f > g");
  EXPECT_EQ(tokens("a<<=b<<c<=d<e"), "a <<= b << c <= d < e");
  EXPECT_EQ(tokens("a&&b||c"), "a & & b | | c");  // two tokens each: the parser reports them
  EXPECT_EQ(tokens("~~x"), "~ ~ x");
}

TEST(Lexer, IntegerLiterals) {
  EXPECT_EQ(tokens("0 42 007"), "int:0 int:42 int:7");
  EXPECT_EQ(tokens("0x2A 0X2a 0xff_FF 0x0"), "int:42 int:42 int:65535 int:0");
  EXPECT_EQ(tokens("1_000_000 1_2_3"), "int:1000000 int:123");
  EXPECT_EQ(tokens("9223372036854775807 0x7FFFFFFFFFFFFFFF"),
            "int:9223372036854775807 int:9223372036854775807");
  // Hex literals name 64 bits: up to 0xFFFFFFFFFFFFFFFF (the parser makes it the int -1).
  Lexed hex = lex("0xFFFFFFFFFFFFFFFF 0x8000000000000000 0x9E37_79B9_7F4A_7C15");
  EXPECT_EQ(hex.errors, "");
  EXPECT_EQ(hex.all[0].int_value, UINT64_MAX);
  EXPECT_TRUE(hex.all[0].hex);
  EXPECT_EQ(hex.all[1].int_value, uint64_t{1} << 63);
  EXPECT_EQ(hex.all[2].int_value, 0x9E3779B97F4A7C15ull);
  EXPECT_FALSE(lex("42").all[0].hex);
}

TEST(Lexer, FloatLiterals) {
  EXPECT_EQ(tokens("3.25 0.5 1e-9 2.5E+3 1e9 1_0.2_5 6.02e23"),
            "float:3.25 float:0.5 float:1.0000000000000001e-09 float:2500 float:1000000000 "
            "float:10.25 float:6.02e+23");
  Lexed l = lex("1e9");
  EXPECT_EQ(l.all[0].kind, TokenKind::Float);
  EXPECT_EQ(l.all[0].text, "1e9");
  EXPECT_EQ(tokens("0e-999 0.000e-400"), "float:0 float:0");  // zero is in range
  EXPECT_EQ(tokens("5e-324 1e-310"), "float:4.9406564584124654e-324 float:9.9999999999999694e-311");
}

TEST(Lexer, FloatLiteralsOutOfRange) {
  // Too large and too small (a nonzero literal that would round to 0.0) are both errors.
  Lexed big = lex("1e400");
  EXPECT_NE(big.errors.find("float literal 1e400 is out of range for float"), std::string::npos);
  Lexed tiny = lex("1e-400 2e-324");
  EXPECT_NE(tiny.errors.find("float literal 1e-400 is out of range for float"), std::string::npos);
  EXPECT_NE(tiny.errors.find("float literal 2e-324 is out of range for float"), std::string::npos);
}

TEST(Lexer, DotAfterNumber) {
  EXPECT_EQ(tokens("1..5"), "int:1 .. int:5");
  EXPECT_EQ(tokens("0..len(a)"), "int:0 .. len ( a )");
  EXPECT_EQ(tokens("1.5..2"), "float:1.5 .. int:2");
  EXPECT_EQ(tokens("t.0"), "t . int:0");
  EXPECT_EQ(tokens("1.foo"), "int:1 . foo");
  // A float with no digit after its point is an error, not an int and a '.' (which at a line's
  // end would continue the statement: `let x = 1.` then `println(x)` was `1.println(x)`).
  EXPECT_EQ(errors("let x = 1.\nprintln(x)\n"),
            "1:10: expected a digit after '.' in number literal, found end of line\n");
  EXPECT_EQ(errors("f(1.)"), "1:4: expected a digit after '.' in number literal, found ')'\n");
  EXPECT_EQ(errors("2.e5"), "1:2: expected a digit after '.' in number literal, found 'e'\n");
  EXPECT_EQ(errors("1.e"), "");  // `1` then a field `e` (the checker's error)
}

TEST(Lexer, TextLiterals) {
  EXPECT_EQ(tokens(R"("hello" "")"), R"(text:"hello" text:"")");
  EXPECT_EQ(tokens(R"("a\nb\tc\"d\\e\rf")"), R"(text:"a\nb\x09c\"d\\e\x0Df")");
  Lexed nul = lex(R"("a\0b")");
  EXPECT_EQ(nul.all[0].text, std::string("a\0b", 3));
  Lexed u = lex(R"("\u{263A}\u{41}\u{1F600}\u{7f}\u{10FFFF}\u{0}")");
  EXPECT_EQ(u.errors, "");
  EXPECT_EQ(u.all[0].text, std::string("\xE2\x98\xBA"
                                       "A"
                                       "\xF0\x9F\x98\x80"
                                       "\x7F"
                                       "\xF4\x8F\xBF\xBF",
                                       13) +
                               std::string(1, '\0'));
  // Bytes of the source pass through: text is a byte string.
  EXPECT_EQ(lex("\"caf\xC3\xA9 \t\"").all[0].text, "caf\xC3\xA9 \t");
}

TEST(Lexer, TextErrors) {
  EXPECT_EQ(errors("let s = \"abc\nlet t = 1\n"), "1:9: unterminated text literal\n");
  EXPECT_EQ(tokens("s = \"abc\nx"), "s = text:\"abc\" NL x | 1:5: unterminated text literal\n");
  EXPECT_EQ(errors("\"abc"), "1:1: unterminated text literal\n");
  EXPECT_EQ(errors("\"abc\\"), "1:1: unterminated text literal\n");
  // Closed on a later line (the next quote ends it, and the rest of its line pairs its
  // quotes): one error, the lines between are the literal's.
  EXPECT_EQ(errors("\"ab\\\ncd\""), "1:1: a text literal cannot span lines\n");
  EXPECT_EQ(tokens("s = \"ab\ncd\" + x"),
            "s = text:\"ab\\ncd\" + x | 1:5: a text literal cannot span lines\n");
  // Left unclosed, before a line with a literal of its own: the quotes after the first one of
  // that line do not pair, so the first literal ends with its line.
  EXPECT_EQ(errors("f(\"abc)\nf(\"def\")\n"), "1:3: unterminated text literal\n");
  EXPECT_EQ(tokens(R"("a\qb")"), R"(text:"ab" | 1:3: unknown escape '\q' in text literal)"
                                 "\n");
  EXPECT_EQ(errors(R"("\é")"), "1:2: unknown escape '\\\xC3\xA9' in text literal\n");
  EXPECT_EQ(errors("\"\\u{D800}\""),
            "1:2: expected a unicode scalar value in escape '\\u{...}', found U+D800\n");
  EXPECT_EQ(errors("\"\\u{DFFF}\""),
            "1:2: expected a unicode scalar value in escape '\\u{...}', found U+DFFF\n");
  EXPECT_EQ(errors("\"\\u{110000}\""),
            "1:2: expected a unicode scalar value in escape '\\u{...}', found U+110000\n");
  EXPECT_EQ(errors("\"\\u263A\""),
            "1:2: expected '{' after '\\u' in escape '\\u{...}', found '2'\n");
  EXPECT_EQ(errors("\"\\u{}\""),
            "1:2: expected 1 to 6 hex digits in escape '\\u{...}', found '}'\n");
  EXPECT_EQ(errors("\"\\u{1234567}\""),
            "1:2: expected 1 to 6 hex digits in escape '\\u{...}', found 7 digits\n");
  EXPECT_EQ(errors("\"\\u{12\""), "1:2: expected '}' in escape '\\u{...}', found '\"'\n");
  EXPECT_EQ(errors("\"\\u{12x}\""), "1:2: expected '}' in escape '\\u{...}', found 'x'\n");
  // After an escape error the literal goes on, and so does the line.
  EXPECT_EQ(tokens(R"("a\qb\zc" + x)"),
            "text:\"abc\" + x | 1:3: unknown escape '\\q' in text literal\n"
            "1:6: unknown escape '\\z' in text literal\n");
}

TEST(Lexer, IntegerOutOfRange) {
  EXPECT_EQ(tokens("99999999999999999999"),
            "int:0 | 1:1: integer literal 99999999999999999999 is out of range for int\n");
  EXPECT_EQ(errors("x = 9223372036854775808"),
            "1:5: integer literal 9223372036854775808 is out of range for int\n");
  EXPECT_EQ(errors("0x1_0000_0000_0000_0000"),
            "1:1: integer literal 0x1_0000_0000_0000_0000 is out of range for int\n");
  // 2^63 directly after '-' is let through for the parser to fold into INT64_MIN...
  Lexed min = lex("-9223372036854775808");
  EXPECT_EQ(min.errors, "");
  EXPECT_EQ(min.all[1].int_value, uint64_t{1} << 63);
  EXPECT_EQ(lex("- 0x8000000000000000").errors, "");
  // ... but nothing larger.
  EXPECT_EQ(errors("-9223372036854775809"),
            "1:2: integer literal 9223372036854775809 is out of range for int\n");
}

TEST(Lexer, FloatOutOfRange) {
  EXPECT_EQ(errors("1e999"), "1:1: float literal 1e999 is out of range for float\n");
  EXPECT_EQ(errors("1.5e308"), "");
}

TEST(Lexer, MalformedNumbers) {
  EXPECT_EQ(errors("1__0"), "1:2: expected a digit after '_' in number literal, found '_'\n");
  EXPECT_EQ(errors("1_ + 2"), "1:2: expected a digit after '_' in number literal, found ' '\n");
  EXPECT_EQ(errors("0x"),
            "1:3: expected a hex digit after '0x' in number literal, found end of file\n");
  EXPECT_EQ(errors("0x_1"), "1:3: expected a hex digit after '0x' in number literal, found '_'\n");
  EXPECT_EQ(errors("1e"), "1:3: expected a digit after 'e' in number literal, found end of file\n");
  EXPECT_EQ(errors("2.5E+)"), "1:6: expected a digit after 'E+' in number literal, found ')'\n");
  EXPECT_EQ(tokens("12abc + 1"), "int:0 + int:1 | 1:3: invalid suffix 'abc' on number literal\n");
  EXPECT_EQ(errors("0x1G"), "1:4: invalid suffix 'G' on number literal\n");
  EXPECT_EQ(errors("1else"), "1:2: invalid suffix 'else' on number literal\n");
  EXPECT_EQ(errors("1_x"),  // one error per literal
            "1:2: expected a digit after '_' in number literal, found 'x'\n");
}

TEST(Lexer, Comments) {
  EXPECT_EQ(tokens("a // comment ( [ {\nb"), "a NL b");
  EXPECT_EQ(tokens("a /* x */ b"), "a b");
  EXPECT_EQ(tokens("a /* outer /* inner */ still comment */ b"), "a b");
  EXPECT_EQ(tokens("a /* one\ntwo */ b"), "a NL b");  // a comment spanning lines is a line break
  EXPECT_EQ(tokens("a /**/ b // end"), "a b");
  EXPECT_EQ(tokens("x / y /= z"), "x / y /= z");
  EXPECT_EQ(errors("a /* never /* closed */ \n b"), "1:3: unterminated comment\n");
  EXPECT_EQ(tokens("a /* open"), "a | 1:3: unterminated comment\n");
}

TEST(Lexer, ByteOrderMarkSkipped) {
  Lexed l =
      lex("\xEF\xBB\xBF"
          "fn main");
  EXPECT_EQ(l.tokens, "fn main");
  EXPECT_EQ(l.errors, "");
  EXPECT_EQ(l.all[0].span.begin, 3u);
  EXPECT_EQ(errors("x \xEF\xBB\xBF"),
            "1:3: unexpected character U+FEFF (a byte order mark, or zero-width no-break space)\n");
}

TEST(Lexer, BidirectionalControlNamed) {
  EXPECT_EQ(errors("x \xE2\x80\xAE"),
            "1:3: unexpected character U+202E (a bidirectional control, which changes the order "
            "the line is shown in)\n");
}

// Names are letters, digits and '_', Unicode's too (name_chars.h, N1): XID_Start begins one,
// XID_Continue goes on; a default-ignorable code point is neither.
TEST(Lexer, UnicodeNames) {
  EXPECT_EQ(tokens("caf\xC3\xA9 = \xCF\x80"), "caf\xC3\xA9 = \xCF\x80");            // café = π
  EXPECT_EQ(tokens("\xE5\x90\x8D\xE5\x89\x8D.x"), "\xE5\x90\x8D\xE5\x89\x8D . x");  // 名前.x
  // A mark goes on a name (x + U+0301 has no composed form), as does another script's digit
  // (x + U+0661); e + U+0301 is é, U+00E9, in NFC (rule 5).
  EXPECT_EQ(tokens("x\xCC\x81 x\xD9\xA1"), "x\xCC\x81 x\xD9\xA1");
  EXPECT_EQ(tokens("e\xCC\x81"), "\xC3\xA9");
  EXPECT_EQ(errors("\xCC\x81x"), "1:1: unexpected character '\xCC\x81' (U+0301)\n");
  EXPECT_EQ(errors("a\xE3\x85\xA4 b"),
            "1:2: unexpected character U+3164 (a Hangul filler, which shows as a space or as "
            "nothing)\n");
  EXPECT_EQ(errors("1\xC3\xA9"), "1:2: invalid suffix '\xC3\xA9' on number literal\n");
  // Every default-ignorable code point is said to show as nothing (U+034F, U+E0041 had no word).
  EXPECT_EQ(errors("a\xCD\x8F b"),
            "1:2: unexpected character U+034F (a character that shows as nothing)\n");
  EXPECT_EQ(errors("a\xF3\xA0\x81\x81 b"),
            "1:2: unexpected character U+E0041 (a character that shows as nothing)\n");
}

TEST(NameChars, Classes) {
  EXPECT_TRUE(isNameStart('a') && isNameStart('_') && !isNameStart('1'));
  EXPECT_TRUE(isNameContinue('1') && !isNameContinue('-'));
  EXPECT_TRUE(isNameStart(0xE9) && isNameStart(0x540D) && isNameStart(0x3C0));  // é 名 π
  EXPECT_FALSE(isNameStart(0x301));  // a combining mark continues a name
  EXPECT_TRUE(isNameContinue(0x301));
  EXPECT_FALSE(isNameStart(0x661));  // an Arabic-Indic digit too
  EXPECT_TRUE(isNameContinue(0x661));
  EXPECT_FALSE(isNameStart(0x3164) || isNameContinue(0x3164));  // default-ignorable
  EXPECT_FALSE(isNameContinue(0xFE0F) || isNameContinue(0x200D));
  EXPECT_FALSE(isNameStart(0xD7) || isNameStart(0x263A) || isNameStart(0x1F600));
  EXPECT_FALSE(isNameStart(0x10FFFF));
  EXPECT_TRUE(isNameStart(0x20000));  // CJK extension B
}

TEST(NameChars, RunStart) {
  const std::string line = "x = caf\xC3\xA9.na\xCC\x81";
  EXPECT_EQ(nameRunStart(line, line.size()), 10u);  // after the '.'
  EXPECT_EQ(nameRunStart(line, 9), 4u);             // "café"
  EXPECT_EQ(nameRunStart(line, 3), 3u);             // after " =": none
  EXPECT_EQ(nameRunStart("\xA9\xA9", 2), 2u);       // stray continuation bytes
  EXPECT_EQ(nameCharAt("\xC3\xA9", 0, true), 2u);
  EXPECT_EQ(nameCharAt("\xC3", 0, true), 0u);
}

TEST(Lexer, UnexpectedCharacters) {
  EXPECT_EQ(tokens("a @ b"), "a INVALID b | 1:3: unexpected character '@'\n");
  EXPECT_EQ(tokens("a @#$ b"), "a INVALID b | 1:3: unexpected character '@'\n");  // one per run
  EXPECT_EQ(errors("a @ # b"), "1:3: unexpected character '@'\n1:5: unexpected character '#'\n");
  EXPECT_EQ(errors("if !done"), "1:4: unexpected character '!'\n");
  EXPECT_EQ(errors("'c'"), "1:1: unexpected character '''\n");  // one for the whole 'c'
  EXPECT_EQ(tokens("'c' x"), "INVALID x | 1:1: unexpected character '''\n");
  EXPECT_EQ(errors("a \xE2\x98\xBA b"), "1:3: unexpected character '\xE2\x98\xBA' (U+263A)\n");
  EXPECT_EQ(errors(std::string("a \x01 b")), "1:3: unexpected character U+0001\n");
  EXPECT_EQ(errors(std::string("a \0 b", 5)), "1:3: unexpected character U+0000\n");
  EXPECT_EQ(errors("a \xFF b"), "1:3: unexpected character byte 0xFF (not UTF-8)\n");
  EXPECT_EQ(errors("a \xC3"), "1:3: unexpected character byte 0xC3 (not UTF-8)\n");
}

// C's `++` and `--` (after an operand, at the end of what it is in): one Invalid token and one
// error, with a line break after it, so the next line is not taken for its operand. `a--b` is
// a - -b, and `--x` is - -x.
TEST(Lexer, IncrementAndDecrement) {
  const std::string inc = "unexpected '++': there is no increment or decrement operator\n";
  const std::string dec = "unexpected '--': there is no increment or decrement operator\n";
  EXPECT_EQ(tokens("i++\nlet j = 1"), "i INVALID NL let j = int:1 | 1:2: " + inc);
  EXPECT_EQ(tokens("i--\nx"), "i INVALID NL x | 1:2: " + dec);
  EXPECT_EQ(tokens("f(i--)"), "f ( i INVALID ) | 1:4: " + dec);
  EXPECT_EQ(tokens("i-- // down"), "i INVALID | 1:2: " + dec);
  EXPECT_EQ(tokens("++i"), "INVALID i | 1:1: " + inc);
  EXPECT_EQ(tokens("a--b"), "a - - b");
  EXPECT_EQ(tokens("--x"), "- - x");
  EXPECT_EQ(tokens("a - -1"), "a - - int:1");
  SourceManager sm;
  Diagnostics diags(sm);
  tokenize(sm.add("i.cairn", "n++; m--"), diags);
  ASSERT_EQ(diags.all().size(), 2u);
  EXPECT_EQ(diags.all()[0].hint, "write 'x += 1'");
  EXPECT_EQ(diags.all()[1].hint, "write 'x -= 1'");
}

TEST(Lexer, Hints) {
  SourceManager sm;
  Diagnostics diags(sm);
  tokenize(sm.add("h.cairn", "!x 'q' 'ab"), diags);
  // Text in single quotes is one error over the whole of it; one left open, one for the quote.
  ASSERT_EQ(diags.all().size(), 3u);
  EXPECT_EQ(diags.all()[0].hint, "use 'not' to negate a condition ('!=' is not-equal)");
  EXPECT_EQ(diags.all()[1].hint, "text literals are written in double quotes: \"text\"");
  EXPECT_EQ(diags.all()[1].span.begin, 3u);
  EXPECT_EQ(diags.all()[1].span.end, 6u);
  EXPECT_EQ(diags.all()[2].span.begin, 7u);
  EXPECT_EQ(diags.all()[2].span.end, 8u);
}

TEST(Lexer, TypographicQuotes) {
  // Text in a word processor's quotes is one error over the whole of it (each quote is three
  // bytes of UTF-8); a quote that is not closed on its line, one for the quote alone.
  SourceManager sm;
  Diagnostics diags(sm);
  tokenize(sm.add("q.cairn", "a = \u201Chi\u201D + \u2018x\u2019\nb = \u201Dy"), diags);
  ASSERT_EQ(diags.all().size(), 3u);
  for (const Diagnostic &d : diags.all())
    EXPECT_EQ(d.hint, "text literals are written in straight double quotes: \"text\"");
  EXPECT_EQ(diags.all()[0].span.begin, 4u);
  EXPECT_EQ(diags.all()[0].span.end, 12u);
  EXPECT_EQ(diags.all()[1].span.begin, 15u);
  EXPECT_EQ(diags.all()[1].span.end, 22u);
  EXPECT_EQ(diags.all()[2].span.begin, 27u);
  EXPECT_EQ(diags.all()[2].span.end, 30u);
}

// Rule 3a: a line break is a token only after what could end a statement.
TEST(Lexer, NewlineAfterWhatCanEndAStatement) {
  EXPECT_EQ(tokens("a\nb"), "a NL b");
  EXPECT_EQ(tokens("1\n2.5\n\"t\"\ntrue\nfalse\nnil\nself\nx"),
            "int:1 NL float:2.5 NL text:\"t\" NL true NL false NL nil NL self NL x");
  EXPECT_EQ(tokens("f()\ng[1]\n{}\nx"), "f ( ) NL g [ int:1 ] NL { } NL x");
  EXPECT_EQ(tokens("return\nbreak\ncontinue\nx"), "return NL break NL continue NL x");
  EXPECT_EQ(tokens("a +\nb"), "a + b");
  EXPECT_EQ(tokens("a and\nb or\nnot\nc"), "a and b or not c");
  EXPECT_EQ(tokens("let x =\n1"), "let x = int:1");
  EXPECT_EQ(tokens("fn f() ->\nint"), "fn f ( ) -> int");
  EXPECT_EQ(tokens("a,\nb"), "a , b");
  EXPECT_EQ(tokens("x {\ny\n}"), "x { y NL }");
  EXPECT_EQ(tokens("a\n\n\n// c\n\n/* d */\nb"), "a NL b");
  EXPECT_EQ(tokens("a\r\nb\r\nc"), "a NL b NL c");
  EXPECT_EQ(tokens("a\n\n"), "a");  // Eof ends the statement
  EXPECT_EQ(tokens("\n\na"), "a");
  EXPECT_EQ(tokens("}\nelse {"), "} NL else {");
}

// Rule 3b: inside ( and [ lines join, until a { opens.
TEST(Lexer, NewlinesInsideBrackets) {
  EXPECT_EQ(tokens("foo(\n a,\n b\n)\nx"), "foo ( a , b ) NL x");
  EXPECT_EQ(tokens("[\n1,\n2\n]"), "[ int:1 , int:2 ]");
  EXPECT_EQ(tokens("f(fn() {\n a\n b\n})\nx"), "f ( fn ( ) { a NL b NL } ) NL x");
  EXPECT_EQ(tokens("f(new P {\n x: 1,\n y: 2\n})"), "f ( new P { x : int:1 , y : int:2 NL } )");
  EXPECT_EQ(tokens("{ f(a\n) }"), "{ f ( a ) }");
  EXPECT_EQ(tokens("a[(\n{\nb\n}\n)]"), "a [ ( { b NL } ) ]");
}

// Rule 4: an unclosed ( or [ is closed by a statement keyword, with the line break before it.
TEST(Lexer, StatementKeywordClosesOpenParentheses) {
  EXPECT_EQ(tokens("foo(a, b\nlet x = 1\ny"), "foo ( a , b NL let x = int:1 NL y");
  EXPECT_EQ(tokens("foo(a,\nreturn"), "foo ( a , NL return");
  EXPECT_EQ(tokens("{ f(\nif x {\n} }"), "{ f ( NL if x { } }");
  EXPECT_EQ(tokens("[1, 2 while"), "[ int:1 , int:2 while");
  // Mismatched closers close up to their opener.
  EXPECT_EQ(tokens("{ f(a }\nb"), "{ f ( a } NL b");
  EXPECT_EQ(tokens(") ]\nb"), ") ] NL b");
}

TEST(Lexer, SpansAndLineBreakFlags) {
  Lexed l = lex("let xy = \"a\\n\"\n  + 12");
  ASSERT_EQ(l.tokens, "let xy = text:\"a\\n\" NL + int:12");
  auto span = [&](size_t i) {
    return std::to_string(l.all[i].span.begin) + "-" + std::to_string(l.all[i].span.end);
  };
  EXPECT_EQ(span(0), "0-3");
  EXPECT_EQ(span(1), "4-6");
  EXPECT_EQ(span(2), "7-8");
  EXPECT_EQ(span(3), "9-14");   // the literal with its quotes
  EXPECT_EQ(span(4), "14-15");  // the line break
  EXPECT_EQ(span(5), "17-18");
  EXPECT_EQ(span(6), "19-21");
  EXPECT_EQ(span(7), "21-21");  // Eof
  EXPECT_FALSE(l.all[3].newline_before);
  EXPECT_TRUE(l.all[5].newline_before);
  for (const Token &t : l.all) EXPECT_TRUE(t.span.valid());
}

TEST(Lexer, EofIsLastAndStandsBeforeTheFinalLineBreak) {
  Lexed l = lex("a\n");
  ASSERT_EQ(l.all.size(), 2u);  // a Eof
  EXPECT_EQ(l.all[1].kind, TokenKind::Eof);
  EXPECT_EQ(l.all[1].span.begin, 1u);
  EXPECT_TRUE(l.all[1].newline_before);
  EXPECT_EQ(lex("").all.size(), 1u);
  EXPECT_EQ(lex("   \n\n").all.back().kind, TokenKind::Eof);
}

TEST(Lexer, NextKeepsReturningEof) {
  SourceManager sm;
  Diagnostics diags(sm);
  Lexer lexer(sm.add("e.cairn", "x"), diags);
  EXPECT_EQ(lexer.next().kind, TokenKind::Ident);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(lexer.next().kind, TokenKind::Eof);
}

TEST(Lexer, TokenNamesInMessages) {
  Token name;
  name.kind = TokenKind::Ident;
  name.text = "foo";
  EXPECT_EQ(describeToken(name), "identifier 'foo'");
  EXPECT_EQ(describeKind(TokenKind::RBrace), "'}'");
  EXPECT_EQ(describeKind(TokenKind::KwElse), "'else'");
  EXPECT_EQ(describeKind(TokenKind::Newline), "end of line");
  EXPECT_EQ(describeKind(TokenKind::Eof), "end of file");
  EXPECT_EQ(describeKind(TokenKind::Int), "number");
  EXPECT_EQ(describeKind(TokenKind::Float), "number");
  EXPECT_EQ(describeKind(TokenKind::Text), "text literal");
  EXPECT_EQ(describeKind(TokenKind::PercentEq), "'%='");
  EXPECT_EQ(keywordKind("while"), TokenKind::KwWhile);
  EXPECT_EQ(keywordKind("While"), TokenKind::Ident);
}

}  // namespace
}  // namespace cairn::front
