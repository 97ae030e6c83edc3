// The parser: the tokens of one source file to its syntax tree (ast.h), by recursive descent,
// reporting errors and recovering so that one run finds every independent error of a file.
//
// Grammar (language.md; loosest operator first):
//   module     = { decl (NEWLINE | ';') }
//   decl       = 'import' NAME {'.' NAME}
//              | ('let' | 'var') NAME [':' type] ['=' expr]
//              | 'class' NAME [tparams] [':' type] '{' {member} '}'
//              | ['override'] 'fn' NAME [tparams] '(' params ')' ['->' type] block
//              | 'extern' 'fn' NAME '(' params ')' ['->' type]
//   member     = NAME ':' type | ['override'] 'fn' ...      (separated by NEWLINE, ';' or ',')
//   type       = NAME ['[' type {',' type} ']'] | '[' type ']' | 'fn' '(' [types] ')' ['->' type]
//   stmt       = let/var | 'if' expr block ['else' ('if' ... | block)] | 'while' expr block
//              | 'for' NAME 'in' expr ['..' expr] block | 'break' | 'continue'
//              | 'return' [expr] | 'atomic' block | block | expr [assignop expr]
//   expr       = or:  or = and {'or' and};  and = not {'and' not};  not = 'not' not | cmp
//   cmp        = add [('==' | '!=' | '<' | '<=' | '>' | '>=') add | 'is' type]  (no chains)
//   add        = mul {('+' | '-') mul};  mul = as {('*' | '/' | '%') as}
//   as         = unary {'as' type};  unary = '-' unary | postfix
//   postfix    = primary {'.' NAME | '(' args ')' | '[' args ']'}
//   primary    = literal | NAME | 'self' | '(' expr ')' | '[' [exprs] ']'
//              | 'new' type '{' [NAME ':' expr {(',' | NEWLINE) ...}] '}' | 'new' '[' type ']' '('
//              expr ')' | 'fn' '(' params ')' ['->' type] block
// A statement or declaration ending in '}' needs no separator before the next one
// (`if a < b { return b } return a`). Lists allow a trailing ','.
//
// What the tree promises:
//  1. A file without errors gives a tree without nullptr where ast.h requires a node, except
//     IndexExpr::args[i], which is nullptr when the argument can only be a type (one with a
//     function type in it: `f[fn(int) -> int]`); IndexExpr::type_args[i] is then set.
//  2. A file with errors gives a partial tree: any child may be nullptr where the error was.
//     The checker must not run on it (the driver stops after a phase with errors).
//  3. Every node's span covers its source, parentheses included for a parenthesized
//     expression; BinaryExpr::op_span, UnaryExpr::op_span and AssignStmt::op_span are the
//     operator token; FieldExpr::name.span is the name after the '.'.
//
// Errors: one error per mistake. After an error the parser skips to a synchronization point
// (the next line break or ';' at the current nesting, the '}' closing the current block, a
// keyword that starts a statement or a declaration) or, inside a list, to the next ',' or the
// closing bracket; a second error on the line of the previous one is not reported.
#ifndef CAIRN_FRONTEND_SYNTAX_PARSER_H
#define CAIRN_FRONTEND_SYNTAX_PARSER_H

#include <memory>

#include "source/diagnostics.h"
#include "source/source.h"
#include "syntax/ast.h"

namespace cairn::front {

// Lexes and parses one file. Errors (lexical and syntactic) go to `diags`; the result is never
// nullptr.
std::unique_ptr<ast::Module> parseModule(const SourceFile &file, Diagnostics &diags);

// Lexes and parses one input of the REPL: `input = { (decl | stmt) (NEWLINE | ';') }`, where
// `import`, `class`, `extern`, `fn NAME`, `let` and `var` start declarations and anything else
// a statement (an expression alone included; the checker decides what it may be). Errors go to
// `diags`; the result is never nullptr.
std::unique_ptr<ast::Input> parseInput(const SourceFile &file, Diagnostics &diags);

}  // namespace cairn::front

#endif  // CAIRN_FRONTEND_SYNTAX_PARSER_H
