// A readable dump of the syntax tree as S-expressions, for tests and for looking at what the
// parser made (`(fn main () (block (let x (int 1)) (call (name println) (name x))))`).
//
// Declarations:  (import std.list)  (let NAME [: TYPE] VALUE)  (var NAME [: TYPE] [VALUE])
//                (class NAME [tparams] [: SUPER] (field NAME TYPE)... METHOD...)
//                ([override ]fn NAME [tparams] (PARAMS) [-> TYPE] BLOCK)
//                (extern fn NAME (PARAMS) [-> TYPE])          PARAMS: (a int) (b [text]) ...
// Statements:    (block S...)  (= T V)  (+= T V)...  (if C BLOCK [else S])  (while C BLOCK)
//                (for x (range LO HI) BLOCK)  (for x E BLOCK)  (break)  (continue)
//                (return [E])  (atomic BLOCK); an expression statement is its expression
// Expressions:   (int 1) (float 2.5) (text "a\n") (bool true) nil self (name x)
//                (neg E) (not E) (+ A B) (- A B) (* A B) (/ A B) (% A B) (== A B) (!= A B)
//                (< A B) (<= A B) (> A B) (>= A B) (and A B) (or A B) (is E TYPE) (as E TYPE)
//                (field E name) (call F ARGS...) (index E ARGS... :types T...)
//                (new TYPE (name E)...) (new-array TYPE LENGTH) (array E...)
//                (fn-lit (PARAMS) [-> TYPE] BLOCK)
// Types are written as in Cairn: int, [int], Pair[int, text], fn(int, int) -> bool.
// A missing node (after a syntax error) is <error>; a type-only index argument is _ among
// the arguments, and an argument that is not a type is _ among :types.
#ifndef CAIRN_FRONTEND_SYNTAX_AST_DUMP_H
#define CAIRN_FRONTEND_SYNTAX_AST_DUMP_H

#include <string>

#include "syntax/ast.h"

namespace cairn::front {

// One line per declaration.
std::string dumpModule(const ast::Module &module);
std::string dumpDecl(const ast::Decl *decl);
std::string dumpStmt(const ast::Stmt *stmt);
std::string dumpExpr(const ast::Expr *expr);
std::string dumpType(const ast::TypeExpr *type);

}  // namespace cairn::front

#endif  // CAIRN_FRONTEND_SYNTAX_AST_DUMP_H
