// The parser on valid input, through the tree's dump: every construct and every precedence
// level, and the spans the checker and the runtime errors point with.
#include <gtest/gtest.h>

#include <string>

#include "frontend_test_support.h"

namespace cairn::front {
namespace {

using testing::dumpBody;
using testing::dumpExprOf;
using testing::dumpProgram;
using testing::Parsed;

// --- Declarations -------------------------------------------------------------------------

TEST(Parser, Imports) {
  EXPECT_EQ(dumpProgram("import std.list\nimport oo7.schema\nimport single"),
            "(import std.list)\n(import oo7.schema)\n(import single)");
}

TEST(Parser, Globals) {
  EXPECT_EQ(dumpProgram("let limit = 1000\nvar visits = 0\nvar names: [text]\n"
                        "let greeting: text = \"hi\"; var x: int = 1"),
            "(let limit (int 1000))\n(var visits (int 0))\n(var names : [text])\n"
            "(let greeting : text (text \"hi\"))\n(var x : int (int 1))");
}

TEST(Parser, Functions) {
  EXPECT_EQ(dumpProgram("fn main() {}"), "(fn main () (block))");
  EXPECT_EQ(dumpProgram("fn add(a: int, b: int) -> int { return a + b }"),
            "(fn add ((a int) (b int)) -> int (block (return (+ (name a) (name b)))))");
  EXPECT_EQ(dumpProgram("fn max[T](a: T, b: T) -> T { if a < b { return b } return a }"),
            "(fn max [T] ((a T) (b T)) -> T (block (if (< (name a) (name b)) (block (return "
            "(name b)))) (return (name a))))");
  EXPECT_EQ(dumpProgram("fn pair[A, B,](a: A, b: B,) -> Pair[A, B] { }"),
            "(fn pair [A B] ((a A) (b B)) -> Pair[A, B] (block))");
  EXPECT_EQ(dumpProgram("fn apply(f: fn(int) -> int, g: fn(int), h: fn() -> fn(int) -> int) {}"),
            "(fn apply ((f fn(int) -> int) (g fn(int)) (h fn() -> fn(int) -> int)) (block))");
  EXPECT_EQ(dumpProgram("fn long(\n  a: int,\n  b: int\n) -> int {\n  return a\n}"),
            "(fn long ((a int) (b int)) -> int (block (return (name a))))");
}

TEST(Parser, ExternFunctions) {
  EXPECT_EQ(dumpProgram("extern fn clock_gettime_ns() -> int\nextern fn srand(seed: int)"),
            "(extern fn clock_gettime_ns () -> int)\n(extern fn srand ((seed int)))");
  Parsed p("extern fn f(a: int) -> float");
  const auto *fn = p.module().decls[0]->as<ast::FnDecl>();
  EXPECT_TRUE(fn->is_extern);
  EXPECT_EQ(fn->body, nullptr);
  EXPECT_EQ(p.text(fn->span), "extern fn f(a: int) -> float");
}

TEST(Parser, Classes) {
  EXPECT_EQ(dumpProgram("class DesignObj {\n"
                        "    id: int\n"
                        "    kind: text\n"
                        "\n"
                        "    fn describe() -> text { return self.kind }\n"
                        "}"),
            "(class DesignObj (field id int) (field kind text) (fn describe () -> text (block "
            "(return (field self kind)))))");
  EXPECT_EQ(dumpProgram("class AtomicPart : DesignObj {\n"
                        "    to: List[Connection]\n"
                        "    override fn describe() -> text { return \"atomic\" }\n"
                        "    fn swapXY() { let t = self.x; self.x = self.y; self.y = t }\n"
                        "}"),
            "(class AtomicPart : DesignObj (field to List[Connection]) (override fn describe () "
            "-> text (block (return (text \"atomic\")))) (fn swapXY () (block (let t (field self "
            "x)) (= (field self x) (field self y)) (= (field self y) (name t)))))");
  EXPECT_EQ(dumpProgram("class Pair[A, B] { first: A; second: B }"),
            "(class Pair [A B] (field first A) (field second B))");
  EXPECT_EQ(dumpProgram("class P { x: int, y: int, }"), "(class P (field x int) (field y int))");
  EXPECT_EQ(dumpProgram("class Box[T] : Base[T] {}"), "(class Box [T] : Base[T])");
  EXPECT_EQ(dumpProgram("class Empty {}\nclass E2 {\n}"), "(class Empty)\n(class E2)");
  Parsed p("class C {\n  override fn m() {}\n  fn n() {}\n}");
  const auto *cls = p.module().decls[0]->as<ast::ClassDecl>();
  ASSERT_EQ(cls->methods.size(), 2u);
  EXPECT_TRUE(cls->methods[0]->is_override);
  EXPECT_FALSE(cls->methods[1]->is_override);
  EXPECT_EQ(p.text(cls->methods[0]->span), "override fn m() {}");
  EXPECT_EQ(p.text(cls->span), "class C {\n  override fn m() {}\n  fn n() {}\n}");
}

TEST(Parser, DeclarationsEndingInBraceNeedNoSeparator) {
  EXPECT_EQ(dumpProgram("class A {} class B {} fn f() {} fn g() {}"),
            "(class A)\n(class B)\n(fn f () (block))\n(fn g () (block))");
  EXPECT_EQ(dumpProgram("import a; let b = 1; fn c() {}"),
            "(import a)\n(let b (int 1))\n(fn c () (block))");
}

TEST(Parser, Types) {
  auto type = [](const std::string &t) { return dumpProgram("var v: " + t); };
  EXPECT_EQ(type("int"), "(var v : int)");
  EXPECT_EQ(type("[int]"), "(var v : [int])");
  EXPECT_EQ(type("[[text]]"), "(var v : [[text]])");
  EXPECT_EQ(type("Pair[int, [text]]"), "(var v : Pair[int, [text]])");
  EXPECT_EQ(type("Map[text, List[Pair[int, int]]]"), "(var v : Map[text, List[Pair[int, int]]])");
  EXPECT_EQ(type("fn(int, int) -> bool"), "(var v : fn(int, int) -> bool)");
  EXPECT_EQ(type("fn(int)"), "(var v : fn(int))");
  EXPECT_EQ(type("fn()"), "(var v : fn())");
  EXPECT_EQ(type("[fn(int) -> int]"), "(var v : [fn(int) -> int])");
  EXPECT_EQ(type("fn([int]) -> fn(int) -> int"), "(var v : fn([int]) -> fn(int) -> int)");
  Parsed p("var v: Pair[int, fn(int) -> bool]");
  const auto *g = p.module().decls[0]->as<ast::GlobalDecl>();
  EXPECT_EQ(p.text(g->type->span), "Pair[int, fn(int) -> bool]");
  const auto *named = g->type->as<ast::NamedType>();
  EXPECT_EQ(p.text(named->name.span), "Pair");
  EXPECT_EQ(p.text(named->args[1]->span), "fn(int) -> bool");
}

// --- Statements ---------------------------------------------------------------------------

TEST(Parser, LetAndVar) {
  EXPECT_EQ(dumpBody("let x = 1\nvar n: int = 0\nvar m: float\nvar k = 2\nlet t: text = \"a\""),
            "(let x (int 1)) (var n : int (int 0)) (var m : float) (var k (int 2)) "
            "(let t : text (text \"a\"))");
}

TEST(Parser, Assignments) {
  EXPECT_EQ(dumpBody("x = 1\nx += 2\nx -= 3\nx *= 4\nx /= 5\nx %= 6"),
            "(= (name x) (int 1)) (+= (name x) (int 2)) (-= (name x) (int 3)) "
            "(*= (name x) (int 4)) (/= (name x) (int 5)) (%= (name x) (int 6))");
  EXPECT_EQ(dumpBody("a[i] = i * i\np.x.y = f(1)\nd.root = new M { id: 1 }"),
            "(= (index (name a) (name i) :types i) (* (name i) (name i))) "
            "(= (field (field (name p) x) y) (call (name f) (int 1))) "
            "(= (field (name d) root) (new M (id (int 1))))");
  // The checker decides what is assignable; any expression parses as a target.
  EXPECT_EQ(dumpBody("f() = 1"), "(= (call (name f)) (int 1))");
}

TEST(Parser, ExpressionStatements) {
  EXPECT_EQ(dumpBody("println(x)\nt.commit(); t.abort()\nf"),
            "(call (name println) (name x)) (call (field (name t) commit)) "
            "(call (field (name t) abort)) (name f)");
}

TEST(Parser, If) {
  EXPECT_EQ(dumpBody("if a { f() }"), "(if (name a) (block (call (name f))))");
  EXPECT_EQ(dumpBody("if a { } else { g() }"),
            "(if (name a) (block) else (block (call (name g))))");
  EXPECT_EQ(dumpBody("if a { } else if b { } else if c { } else { }"),
            "(if (name a) (block) else (if (name b) (block) else (if (name c) (block) else "
            "(block))))");
  // `else` at the start of the next line.
  EXPECT_EQ(dumpBody("if a {\n}\nelse if b {\n}\n\nelse {\n}"),
            "(if (name a) (block) else (if (name b) (block) else (block)))");
  EXPECT_EQ(dumpBody("if p.x < p.y and not done { }"),
            "(if (and (< (field (name p) x) (field (name p) y)) (not (name done))) (block))");
  // No ambiguity with object construction: that always starts with `new`.
  EXPECT_EQ(dumpBody("if x == y { z }"), "(if (== (name x) (name y)) (block (name z)))");
}

TEST(Parser, Loops) {
  EXPECT_EQ(dumpBody("while n < 10 { n = n + 1 }"),
            "(while (< (name n) (int 10)) (block (= (name n) (+ (name n) (int 1)))))");
  EXPECT_EQ(dumpBody("for i in 0..len(a) { a[i] = i }"),
            "(for i (range (int 0) (call (name len) (name a))) (block (= (index (name a) (name "
            "i) :types i) (name i))))");
  EXPECT_EQ(dumpBody("for i in lo + 1..hi * 2 { }"),
            "(for i (range (+ (name lo) (int 1)) (* (name hi) (int 2))) (block))");
  EXPECT_EQ(dumpBody("for c in p.to { }"), "(for c (field (name p) to) (block))");
  EXPECT_EQ(dumpBody("while true { break; continue }"),
            "(while (bool true) (block (break) (continue)))");
}

TEST(Parser, Return) {
  EXPECT_EQ(dumpBody("return"), "(return)");
  EXPECT_EQ(dumpBody("return 1 + 2"), "(return (+ (int 1) (int 2)))");
  EXPECT_EQ(dumpBody("if a { return }"), "(if (name a) (block (return)))");
  EXPECT_EQ(dumpBody("return; x"), "(return) (name x)");
  EXPECT_EQ(dumpBody("return\nx"), "(return) (name x)");
}

TEST(Parser, AtomicAndNestedBlocks) {
  EXPECT_EQ(dumpBody("atomic {\n  d.root = x\n}"),
            "(atomic (block (= (field (name d) root) (name x))))");
  EXPECT_EQ(dumpBody("{ let a = 1 }\n{ }"), "(block (let a (int 1))) (block)");
}

TEST(Parser, StatementsAfterABraceNeedNoSeparator) {
  EXPECT_EQ(dumpBody("if a { } x = 1"), "(if (name a) (block)) (= (name x) (int 1))");
  EXPECT_EQ(dumpBody("while a { } for i in x { } atomic { } return"),
            "(while (name a) (block)) (for i (name x) (block)) (atomic (block)) (return)");
}

// --- Expressions: every precedence level --------------------------------------------------

TEST(Parser, Literals) {
  EXPECT_EQ(dumpExprOf("42"), "(int 42)");
  EXPECT_EQ(dumpExprOf("0x2A"), "(int 42)");
  EXPECT_EQ(dumpExprOf("3.25"), "(float 3.25)");
  EXPECT_EQ(dumpExprOf("1e9"), "(float 1e+09)");
  EXPECT_EQ(dumpExprOf("\"a\\n\\\"b\\\"\""), "(text \"a\\n\\\"b\\\"\")");
  EXPECT_EQ(dumpExprOf("true"), "(bool true)");
  EXPECT_EQ(dumpExprOf("false"), "(bool false)");
  EXPECT_EQ(dumpExprOf("nil"), "nil");
  EXPECT_EQ(dumpExprOf("self"), "self");
  EXPECT_EQ(dumpExprOf("x"), "(name x)");
}

TEST(Parser, Int64MinIsFolded) {
  EXPECT_EQ(dumpExprOf("-9223372036854775808"), "(int -9223372036854775808)");
  EXPECT_EQ(dumpExprOf("- 9223372036854775808"), "(int -9223372036854775808)");
  EXPECT_EQ(dumpExprOf("-0x8000000000000000"), "(int -9223372036854775808)");
  EXPECT_EQ(dumpExprOf("a - -9223372036854775808"), "(- (name a) (int -9223372036854775808))");
  EXPECT_EQ(dumpExprOf("-9223372036854775807"), "(neg (int 9223372036854775807))");
  EXPECT_EQ(dumpExprOf("-9223372036854775808 as float"), "(as (int -9223372036854775808) float)");
  Parsed p("fn main() { let x = -9223372036854775808 }");
  const auto *let = p.module().decls[0]->as<ast::FnDecl>()->body->stmts[0]->as<ast::LetStmt>();
  EXPECT_EQ(p.text(let->init->span), "-9223372036854775808");
}

TEST(Parser, OrAndNot) {
  EXPECT_EQ(dumpExprOf("a or b and c"), "(or (name a) (and (name b) (name c)))");
  EXPECT_EQ(dumpExprOf("a and b or c"), "(or (and (name a) (name b)) (name c))");
  EXPECT_EQ(dumpExprOf("a or b or c"), "(or (or (name a) (name b)) (name c))");
  EXPECT_EQ(dumpExprOf("not a and b"), "(and (not (name a)) (name b))");
  EXPECT_EQ(dumpExprOf("not a == b"), "(not (== (name a) (name b)))");
  EXPECT_EQ(dumpExprOf("not not x"), "(not (not (name x)))");
  EXPECT_EQ(dumpExprOf("a and not b or not c"),
            "(or (and (name a) (not (name b))) (not (name c)))");
}

TEST(Parser, Comparisons) {
  EXPECT_EQ(dumpExprOf("a == b"), "(== (name a) (name b))");
  EXPECT_EQ(dumpExprOf("a != b"), "(!= (name a) (name b))");
  EXPECT_EQ(dumpExprOf("a < b"), "(< (name a) (name b))");
  EXPECT_EQ(dumpExprOf("a <= b"), "(<= (name a) (name b))");
  EXPECT_EQ(dumpExprOf("a > b"), "(> (name a) (name b))");
  EXPECT_EQ(dumpExprOf("a >= b"), "(>= (name a) (name b))");
  EXPECT_EQ(dumpExprOf("a + b == c * d"), "(== (+ (name a) (name b)) (* (name c) (name d)))");
  EXPECT_EQ(dumpExprOf("x is AtomicPart"), "(is (name x) AtomicPart)");
  EXPECT_EQ(dumpExprOf("x.y is List[int] and z"),
            "(and (is (field (name x) y) List[int]) (name z))");
  EXPECT_EQ(dumpExprOf("(a < b) == c"), "(== (< (name a) (name b)) (name c))");
}

TEST(Parser, Arithmetic) {
  EXPECT_EQ(dumpExprOf("a + b * c"), "(+ (name a) (* (name b) (name c)))");
  EXPECT_EQ(dumpExprOf("a * b + c"), "(+ (* (name a) (name b)) (name c))");
  EXPECT_EQ(dumpExprOf("a - b - c"), "(- (- (name a) (name b)) (name c))");
  EXPECT_EQ(dumpExprOf("a / b % c * d"), "(* (% (/ (name a) (name b)) (name c)) (name d))");
  EXPECT_EQ(dumpExprOf("(a + b) * c"), "(* (+ (name a) (name b)) (name c))");
  EXPECT_EQ(dumpExprOf("a - -b"), "(- (name a) (neg (name b)))");
  EXPECT_EQ(dumpExprOf("\"a\" + str(1)"), "(+ (text \"a\") (call (name str) (int 1)))");
}

TEST(Parser, AsAndUnaryMinus) {
  EXPECT_EQ(dumpExprOf("a * b as float"), "(* (name a) (as (name b) float))");
  EXPECT_EQ(dumpExprOf("a as float * b"), "(* (as (name a) float) (name b))");
  EXPECT_EQ(dumpExprOf("-x as float"), "(as (neg (name x)) float)");
  EXPECT_EQ(dumpExprOf("x as A as B"), "(as (as (name x) A) B)");
  EXPECT_EQ(dumpExprOf("d.root as Module"), "(as (field (name d) root) Module)");
  EXPECT_EQ(dumpExprOf("- -x"), "(neg (neg (name x)))");
  EXPECT_EQ(dumpExprOf("-a.b"), "(neg (field (name a) b))");
  EXPECT_EQ(dumpExprOf("-f(x)[1]"), "(neg (index (call (name f) (name x)) (int 1) :types _))");
}

TEST(Parser, Postfix) {
  EXPECT_EQ(dumpExprOf("a.b.c"), "(field (field (name a) b) c)");
  EXPECT_EQ(dumpExprOf("a.m(1, 2)"), "(call (field (name a) m) (int 1) (int 2))");
  EXPECT_EQ(dumpExprOf("f()()"), "(call (call (name f)))");
  EXPECT_EQ(dumpExprOf("a[1][2]"), "(index (index (name a) (int 1) :types _) (int 2) :types _)");
  EXPECT_EQ(dumpExprOf("Database.open(\"oo7\").root"),
            "(field (call (field (name Database) open) (text \"oo7\")) root)");
  EXPECT_EQ(dumpExprOf("f(\n  1,\n  2,\n)"), "(call (name f) (int 1) (int 2))");
}

TEST(Parser, IndexArgumentsAlsoParsedAsTypes) {
  EXPECT_EQ(dumpExprOf("a[i + 1]"), "(index (name a) (+ (name i) (int 1)) :types _)");
  EXPECT_EQ(dumpExprOf("max[int](1, 2)"),
            "(call (index (name max) (name int) :types int) (int 1) (int 2))");
  EXPECT_EQ(dumpExprOf("f[[int]]"), "(index (name f) (array (name int)) :types [int])");
  EXPECT_EQ(dumpExprOf("box[Pair[int, text]]"),
            "(index (name box) (index (name Pair) (name int) (name text) :types int text) "
            ":types Pair[int, text])");
  EXPECT_EQ(dumpExprOf("m[a, b]"), "(index (name m) (name a) (name b) :types a b)");
  EXPECT_EQ(dumpExprOf("m[a.b, 1]"), "(index (name m) (field (name a) b) (int 1) :types _ _)");
  // A function type is only a type: no expression argument.
  EXPECT_EQ(dumpExprOf("apply[fn(int) -> int](g)"),
            "(call (index (name apply) _ :types fn(int) -> int) (name g))");
  EXPECT_EQ(dumpExprOf("f[[fn()], int]"), "(index (name f) _ (name int) :types [fn()] int)");
  Parsed p("fn main() { f[fn(int)] }");
  const auto *index =
      p.module().decls[0]->as<ast::FnDecl>()->body->stmts[0]->as<ast::ExprStmt>()->expr.get();
  ASSERT_EQ(index->kind, ast::ExprKind::Index);
  EXPECT_EQ(index->as<ast::IndexExpr>()->args[0], nullptr);
  EXPECT_EQ(index->as<ast::IndexExpr>()->type_args[0]->kind, ast::TypeKind::Fn);
}

TEST(Parser, ArrayLiterals) {
  EXPECT_EQ(dumpExprOf("[1, 2, 3]"), "(array (int 1) (int 2) (int 3))");
  EXPECT_EQ(dumpExprOf("[]"), "(array)");
  EXPECT_EQ(dumpExprOf("[1, 2,]"), "(array (int 1) (int 2))");
  EXPECT_EQ(dumpExprOf("[\n  1,\n  2\n]"), "(array (int 1) (int 2))");
  EXPECT_EQ(dumpExprOf("[[1], []]"), "(array (array (int 1)) (array))");
}

TEST(Parser, New) {
  EXPECT_EQ(dumpExprOf("new AtomicPart { id: 7, x: 1, y: 2 }"),
            "(new AtomicPart (id (int 7)) (x (int 1)) (y (int 2)))");
  EXPECT_EQ(dumpExprOf("new P {}"), "(new P)");
  EXPECT_EQ(dumpExprOf("new Pair[int, text] { first: 1, second: \"a\", }"),
            "(new Pair[int, text] (first (int 1)) (second (text \"a\")))");
  EXPECT_EQ(dumpExprOf("new P {\n  x: 1\n  y: 2,\n  z: 3,\n}"),
            "(new P (x (int 1)) (y (int 2)) (z (int 3)))");
  EXPECT_EQ(dumpExprOf("new [int](10)"), "(new-array int (int 10))");
  EXPECT_EQ(dumpExprOf("new [[text]](n + 1)"), "(new-array [text] (+ (name n) (int 1)))");
  EXPECT_EQ(dumpExprOf("new P { x: 1 }.x"), "(field (new P (x (int 1))) x)");
  EXPECT_EQ(dumpExprOf("f(new P {\n  x: 1,\n  y: 2\n})"),
            "(call (name f) (new P (x (int 1)) (y (int 2))))");
}

TEST(Parser, FunctionLiterals) {
  EXPECT_EQ(dumpExprOf("fn(a: int, b: int) -> bool { return a < b }"),
            "(fn-lit ((a int) (b int)) -> bool (block (return (< (name a) (name b)))))");
  EXPECT_EQ(dumpExprOf("fn() { }"), "(fn-lit () (block))");
  EXPECT_EQ(dumpBody("sort(a, fn(x: int, y: int) -> bool {\n  return x < y\n})"),
            "(call (name sort) (name a) (fn-lit ((x int) (y int)) -> bool (block (return (< "
            "(name x) (name y))))))");
  EXPECT_EQ(dumpBody("fn(x: int) { }(1)"), "(call (fn-lit ((x int)) (block)) (int 1))");
}

TEST(Parser, LineContinuation) {
  EXPECT_EQ(dumpExprOf("a +\n  b"), "(+ (name a) (name b))");
  EXPECT_EQ(dumpExprOf("a and\n  b or\n  c"), "(or (and (name a) (name b)) (name c))");
  EXPECT_EQ(dumpExprOf("f(a,\n  g(b,\n    c))"),
            "(call (name f) (name a) (call (name g) (name b) (name c)))");
}

// --- Spans --------------------------------------------------------------------------------

TEST(Parser, Spans) {
  Parsed p("fn main() {\n  let v = (a + b) / c.d\n  x[i] += 1\n}");
  ASSERT_FALSE(p.diags().hasErrors()) << p.errorText();
  const auto *body = p.module().decls[0]->as<ast::FnDecl>()->body.get();
  EXPECT_EQ(p.text(body->span), "{\n  let v = (a + b) / c.d\n  x[i] += 1\n}");
  const auto *let = body->stmts[0]->as<ast::LetStmt>();
  EXPECT_EQ(p.text(let->span), "let v = (a + b) / c.d");
  EXPECT_EQ(p.text(let->name.span), "v");
  const auto *div = let->init->as<ast::BinaryExpr>();
  EXPECT_EQ(p.text(div->span), "(a + b) / c.d");
  EXPECT_EQ(p.text(div->op_span), "/");
  EXPECT_EQ(p.text(div->lhs->span), "(a + b)");  // parentheses included
  EXPECT_EQ(p.text(div->lhs->as<ast::BinaryExpr>()->op_span), "+");
  const auto *field = div->rhs->as<ast::FieldExpr>();
  EXPECT_EQ(p.text(field->span), "c.d");
  EXPECT_EQ(p.text(field->name.span), "d");
  const auto *assign = body->stmts[1]->as<ast::AssignStmt>();
  EXPECT_EQ(p.text(assign->span), "x[i] += 1");
  EXPECT_EQ(p.text(assign->op_span), "+=");
  EXPECT_EQ(p.text(assign->target->span), "x[i]");
  EXPECT_EQ(p.module().file, p.file().id());
}

TEST(Parser, SpansOfOtherNodes) {
  Parsed p(
      "fn main() {\n"
      "  if not a is B { }\n"
      "  for i in 0..n { }\n"
      "  let f = fn(x: int) -> int { return -x }\n"
      "  let o = new P { q: 1 }\n"
      "  g(1, 2)\n"
      "}");
  ASSERT_FALSE(p.diags().hasErrors()) << p.errorText();
  const auto &stmts = p.module().decls[0]->as<ast::FnDecl>()->body->stmts;
  const auto *ifs = stmts[0]->as<ast::IfStmt>();
  EXPECT_EQ(p.text(ifs->span), "if not a is B { }");
  EXPECT_EQ(p.text(ifs->cond->span), "not a is B");
  EXPECT_EQ(p.text(ifs->cond->as<ast::UnaryExpr>()->op_span), "not");
  EXPECT_EQ(p.text(ifs->cond->as<ast::UnaryExpr>()->operand->span), "a is B");
  EXPECT_EQ(p.text(stmts[1]->span), "for i in 0..n { }");
  EXPECT_EQ(p.text(stmts[1]->as<ast::ForStmt>()->var.span), "i");
  const auto *fn = stmts[2]->as<ast::LetStmt>()->init->as<ast::FnLitExpr>();
  EXPECT_EQ(p.text(fn->span), "fn(x: int) -> int { return -x }");
  EXPECT_EQ(p.text(fn->params[0].type->span), "int");
  EXPECT_EQ(p.text(stmts[3]->as<ast::LetStmt>()->init->span), "new P { q: 1 }");
  EXPECT_EQ(p.text(stmts[4]->span), "g(1, 2)");
}

}  // namespace
}  // namespace cairn::front
