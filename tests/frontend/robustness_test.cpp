// Robustness: the lexer and parser never crash and never loop forever, whatever the input:
// every prefix of valid programs, random soups of tokens, random bytes. (A fuzzer will go
// further; these run in every build.)
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "frontend_test_support.h"

namespace cairn::front {
namespace {

using testing::Parsed;

const char *const kPrograms[] = {
    R"(import std.list
let limit = 1000
var visits: int = 0
class DesignObj {
    id: int; kind: text
    fn describe() -> text { return self.kind + " #" + str(self.id) }
}
class AtomicPart : DesignObj {
    to: List[Connection], x: int
    override fn describe() -> text { return "atomic \u{263A} " + str(self.id) }
}
class Pair[A, B] { first: A; second: B }
fn max[T](a: T, b: T) -> T { if a < b { return b } return a }
extern fn clock_gettime_ns() -> int
)",
    R"(fn main() {
    let p = new AtomicPart { id: 7, x: 1, y: 2 }
    var n: int = 0
    let a = new [int](10)
    if p.x < p.y and not done { n += 1 } else if x is AtomicPart { n -= 1 }
    else { return }
    while n < 10 { n = n * 2 % 7 / 1 }
    for i in 0..len(a) { a[i] = -i * i }
    for c in p.to { break; continue }
    let f = fn(a: int, b: int) -> bool { return a < b }
    let m = max[int](1, -9223372036854775808) as float
    atomic { d.root = [1, 2, 3,]; let q = d.root as [int] }
    foo(1,
        2,
    )
    /* a /* nested */ comment */ { let inner = 0x2A + 1_000 + 2.5e-3 }
}
)",
};

// Parses `text`; the test fails (or times out) if that crashes or hangs.
size_t parseCount(const std::string &text) {
  Parsed p(text);
  (void)p.dump();  // the dump walks whatever tree came out, nullptr children and all
  return p.diags().errorCount();
}

TEST(Robustness, ValidProgramsHaveNoErrors) {
  for (const char *program : kPrograms)
    EXPECT_EQ(parseCount(program), 0u) << Parsed(program).errorText();
}

TEST(Robustness, EveryPrefixOfValidPrograms) {
  for (const char *program : kPrograms) {
    const std::string text = program;
    for (size_t n = 0; n <= text.size(); ++n) parseCount(text.substr(0, n));
  }
}

TEST(Robustness, EverySuffixOfValidPrograms) {
  for (const char *program : kPrograms) {
    const std::string text = program;
    for (size_t n = 0; n <= text.size(); ++n) parseCount(text.substr(n));
  }
}

TEST(Robustness, ProgramsWithOneTokenDeleted) {
  // Delete each space-separated word once: mistakes of the kind people make.
  for (const char *program : kPrograms) {
    const std::string text = program;
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find_first_of(" \n", start);
      if (end == std::string::npos) end = text.size();
      parseCount(text.substr(0, start) + text.substr(end));
      start = end + 1;
    }
  }
}

TEST(Robustness, RandomTokenSoups) {
  static const char *const kPieces[] = {
      "fn",       "class",  "let",
      "var",      "if",     "else",
      "while",    "for",    "in",
      "return",   "break",  "continue",
      "atomic",   "import", "extern",
      "override", "new",    "and",
      "or",       "not",    "is",
      "as",       "true",   "nil",
      "self",     "x",      "Foo",
      "int",      "42",     "0x",
      "1e",       "2.5",    "\"t\"",
      "\"",       "\\",     "(",
      ")",        "[",      "]",
      "{",        "}",      ",",
      ";",        ":",      ".",
      "..",       "->",     "=",
      "==",       "!=",     "<",
      ">=",       "+",      "-",
      "*",        "/",      "%",
      "+=",       "\n",     "\n",
      "\n",       " ",      "//",
      "/*",       "*/",     "@",
      "é",        "\t",     "-9223372036854775808",
  };
  std::mt19937 rng(20260423);
  std::uniform_int_distribution<size_t> piece(0, std::size(kPieces) - 1);
  std::uniform_int_distribution<int> length(1, 200);
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    const int n = length(rng);
    for (int i = 0; i < n; ++i) {
      text += kPieces[piece(rng)];
      if (rng() % 2) text += ' ';
    }
    parseCount(text);
  }
}

TEST(Robustness, RandomBytes) {
  std::mt19937 rng(7);
  for (int round = 0; round < 2000; ++round) {
    std::string text(rng() % 300, '\0');
    for (char &c : text) c = static_cast<char>(rng() % 256);
    parseCount(text);
  }
}

TEST(Robustness, DeepAndLongInputs) {
  const std::vector<std::string> openers = {
      "(", "[",      "{",    "fn main() {", "f(", "new P {x:",          "not ",
      "-", "if x {", "a.b.", "x as ",       "[[", "class C { fn m() {", "/*"};
  for (const std::string &o : openers) {
    std::string text;
    for (int i = 0; i < 20000; ++i) text += o;
    parseCount(text);
    parseCount("fn main() { x = " + text + " }");
  }
  std::string chain = "fn main() { x = 1";
  for (int i = 0; i < 100000; ++i) chain += i % 2 ? " + 1" : " * 1";
  parseCount(chain + " }");
  std::string calls = "fn main() { f";
  for (int i = 0; i < 100000; ++i) calls += "()";
  parseCount(calls + " }");
  std::string elses = "fn main() { if a { }";
  for (int i = 0; i < 100000; ++i) elses += " else if a { }";
  parseCount(elses + " }");
  std::string many = "fn main() {\n";
  for (int i = 0; i < 20000; ++i) many += "  x = = 1\n";
  EXPECT_GT(parseCount(many + "}"), 1000u);
}

}  // namespace
}  // namespace cairn::front
