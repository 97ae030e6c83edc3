// Every code example of /work/shared/design/language.md, made into a complete program (the
// `...` placeholders filled in, notation such as `-> bool` after a call turned into code),
// parses without errors.
#include <gtest/gtest.h>

#include <string>

#include "frontend_test_support.h"

namespace cairn::front {
namespace {

using testing::Parsed;

void expectParses(const std::string &text) {
  Parsed p(text);
  EXPECT_FALSE(p.diags().hasErrors()) << p.errorText() << "in:\n" << text;
}

// language.md, Declarations.
TEST(LanguageExamples, Declarations) {
  expectParses(
      R"(import std.list                 // a module is a file; std.list is <stdlib>/list.cairn
import oo7.schema               // oo7/schema.cairn under a source root

let limit = 1000                // module-level constant (value types and text only)
var visits = 0                  // module-level variable: a root of the program

class DesignObj {
    id: int
    kind: text
    buildDate: int

    fn describe() -> text { return self.kind + " #" + str(self.id) }
}

class AtomicPart : DesignObj {
    x: int
    y: int
    to: List[Connection]
    partOf: CompositePart

    override fn describe() -> text { return "atomic " + str(self.id) }
    fn swapXY() { let t = self.x; self.x = self.y; self.y = t }
}

class Pair[A, B] { first: A; second: B }

fn max[T](a: T, b: T) -> T { if a < b { return b } return a }

extern fn clock_gettime_ns() -> int    // a C function with the C ABI, resolved at link time

fn main() { println(max[int](limit, visits)) }               // the entry point of a program's main module
)");
}

// language.md, Statements and expressions.
TEST(LanguageExamples, StatementsAndExpressions) {
  expectParses(R"(fn main() {
    let p = new AtomicPart { id: 7, x: 1, y: 2 }   // unnamed fields start as 0, 0.0, false or nil
    var n: int = 0                                  // `let` binds once; `var` may be reassigned
    let a = new [int](10)                           // array of 10 zeros; `[1, 2, 3]` is a literal
    let lit = [1, 2, 3]
    let done = false
    if p.x < p.y and not done { println(1) } else if p.x == p.y { println(2) } else { println(3) }
    while n < 10 { n = n + 1 }
    for i in 0..len(a) { a[i] = i * i }             // half-open range
    for c in p.to { println(c) }                    // arrays, and any class with len() and get(i)
    while true { break; continue }
    let x: any = p
    let is_part = x is AtomicPart            // type test, false for nil
    let part = x as AtomicPart            // checked downcast: a runtime error if x is not one (nil stays nil)
    print(n); println(n)       // any value; objects print as Type#address, text as its bytes
    len(a); str(n)             // length of text/array; decimal or textual form of a value
    panic("message")           // a runtime error
    args(); exit(0)         // the program's arguments as [text]; end with a status (aborts an open transaction)
    return
}

fn f() -> int { let e = 1; return e }
)");
}

// language.md, function values.
TEST(LanguageExamples, FunctionValues) {
  expectParses(R"(fn less(a: int, b: int) -> bool { return a < b }

fn sort(a: [int], before: fn(int, int) -> bool) { }

fn main() {
    let byValue = fn(a: int, b: int) -> bool { return a < b }
    let named: fn(int, int) -> bool = less
    sort([3, 1, 2], byValue)
    sort([3, 1, 2], fn(a: int, b: int) -> bool {
        return a > b
    })
}
)");
}

// language.md, Persistence.
TEST(LanguageExamples, Persistence) {
  expectParses(R"(class Module { id: int }

fn main() {
    let d = Database.create("oo7")      // error if it exists
    let d2 = Database.open("oo7")       // error if it does not exist; several may be open at once
    let e: bool = Database.exists("oo7"); Database.drop("oo7"); let names: [text] = Database.names()

    atomic {                             // begin; on normal exit commit; on a runtime error abort
        d.root = new Module { id: 1 }    // the root is `any`; reading it back needs `as`
        let m = d.root as Module
    }

    let t = Transaction.begin()          // the explicit form, as in the ODMG/PM3 interface
    t.commit(); t.abort(); t.chain(); t.checkpoint(); t.isOpen()
}
)");
}

// The operator list of language.md, all in one expression.
TEST(LanguageExamples, Operators) {
  Parsed p("fn main() { let v = a or b and not c == d + e * -f.g[h](i) }");
  ASSERT_FALSE(p.diags().hasErrors()) << p.errorText();
  EXPECT_EQ(p.dump(),
            "(fn main () (block (let v (or (name a) (and (name b) (not (== (name c) (+ (name d) "
            "(* (name e) (neg (call (index (field (name f) g) (name h) :types h) (name "
            "i))))))))))))");
}

}  // namespace
}  // namespace cairn::front
