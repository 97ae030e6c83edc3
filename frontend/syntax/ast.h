// The syntax tree of one Cairn source file, as the parser builds it: no types, no resolved
// names (the checker, frontend/check/, makes the semantic tree from it). Every node has the span
// of the source it came from. Nodes are owned by their parent through unique_ptr; the tree is
// immutable once parsed (generic declarations are checked once per instantiation, from the
// same tree).
//
// Node kinds are tagged with an enum and reached with `as<T>()` (no RTTI: the front end links
// LLVM, which is built without it).
#ifndef CAIRN_FRONTEND_SYNTAX_AST_H
#define CAIRN_FRONTEND_SYNTAX_AST_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "source/source.h"

namespace cairn::front::ast {

struct Node {
  Span span;
};

// An identifier with its own span.
struct Ident {
  std::string name;
  Span span;
};

// --- Types ----------------------------------------------------------------------------------

enum class TypeKind {
  Named,  // int, float, bool, text, any, C, C[T, U], A (a type parameter)
  Array,  // [T]
  Fn,     // fn(T, U) -> R   (ret == nullptr: no result)
};

struct TypeExpr : Node {
  TypeKind kind;
  explicit TypeExpr(TypeKind k) : kind(k) {}
  virtual ~TypeExpr() = default;
  template <class T>
  T *as() {
    return static_cast<T *>(this);
  }
  template <class T>
  const T *as() const {
    return static_cast<const T *>(this);
  }
};
using TypeExprPtr = std::unique_ptr<TypeExpr>;

struct NamedType : TypeExpr {
  NamedType() : TypeExpr(TypeKind::Named) {}
  Ident name;
  std::vector<TypeExprPtr> args;  // `C[T, U]`; empty for a plain name
};

struct ArrayType : TypeExpr {
  ArrayType() : TypeExpr(TypeKind::Array) {}
  TypeExprPtr elem;
};

struct FnType : TypeExpr {
  FnType() : TypeExpr(TypeKind::Fn) {}
  std::vector<TypeExprPtr> params;
  TypeExprPtr ret;  // nullptr: no result
};

// --- Expressions ----------------------------------------------------------------------------

enum class ExprKind {
  IntLit,
  FloatLit,
  TextLit,
  BoolLit,
  NilLit,
  Self,
  Name,
  Unary,
  Binary,
  Is,
  As,
  Field,     // base.name
  Call,      // callee(args); a method call is Call whose callee is a Field
  Index,     // base[args]: indexing, or type arguments of a generic function (`max[int]`)
  New,       // new T { name: value, ... }
  NewArray,  // new [T](length)
  ArrayLit,  // [a, b, c]
  FnLit,     // fn(a: int) -> int { ... }
};

struct Expr : Node {
  ExprKind kind;
  explicit Expr(ExprKind k) : kind(k) {}
  virtual ~Expr() = default;
  template <class T>
  T *as() {
    return static_cast<T *>(this);
  }
  template <class T>
  const T *as() const {
    return static_cast<const T *>(this);
  }
};
using ExprPtr = std::unique_ptr<Expr>;

struct IntLit : Expr {
  IntLit() : Expr(ExprKind::IntLit) {}
  // The value; decimal literals above INT64_MAX are an error in the lexer, except
  // 9223372036854775808 directly under unary minus, which the parser folds into INT64_MIN. Hex
  // literals up to 0xFFFFFFFFFFFFFFFF are the int with those bits (0x8000000000000000 is
  // INT64_MIN, 0xFFFFFFFFFFFFFFFF is -1).
  int64_t value = 0;
};

struct FloatLit : Expr {
  FloatLit() : Expr(ExprKind::FloatLit) {}
  double value = 0;
};

struct TextLit : Expr {
  TextLit() : Expr(ExprKind::TextLit) {}
  std::string value;  // the bytes, escapes decoded (\u{...} as UTF-8)
};

struct BoolLit : Expr {
  BoolLit() : Expr(ExprKind::BoolLit) {}
  bool value = false;
};

struct NilLit : Expr {
  NilLit() : Expr(ExprKind::NilLit) {}
};

struct SelfExpr : Expr {
  SelfExpr() : Expr(ExprKind::Self) {}
};

struct NameExpr : Expr {
  NameExpr() : Expr(ExprKind::Name) {}
  Ident name;
};

enum class UnaryOp { Neg, Not, Complement };  // -x, not x, ~x

struct UnaryExpr : Expr {
  UnaryExpr() : Expr(ExprKind::Unary) {}
  UnaryOp op;
  Span op_span;
  ExprPtr operand;
};

enum class BinaryOp {
  Or,
  And,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  Add,
  Sub,
  Mul,
  Div,
  Mod,
  BitAnd,
  BitOr,
  BitXor,
  Shl,
  Shr,
  Ushr,  // & | ^ << >> >>>
};

struct BinaryExpr : Expr {
  BinaryExpr() : Expr(ExprKind::Binary) {}
  BinaryOp op;
  Span op_span;  // the operator token (runtime errors of / and % point here)
  ExprPtr lhs, rhs;
};

struct IsExpr : Expr {
  IsExpr() : Expr(ExprKind::Is) {}
  ExprPtr value;
  TypeExprPtr type;
};

struct AsExpr : Expr {
  AsExpr() : Expr(ExprKind::As) {}
  ExprPtr value;
  TypeExprPtr type;
};

struct FieldExpr : Expr {
  FieldExpr() : Expr(ExprKind::Field) {}
  ExprPtr base;
  Ident name;  // its span is what a nil dereference error points at
};

struct CallExpr : Expr {
  CallExpr() : Expr(ExprKind::Call) {}
  ExprPtr callee;
  std::vector<ExprPtr> args;
};

struct IndexExpr : Expr {
  IndexExpr() : Expr(ExprKind::Index) {}
  ExprPtr base;
  // Usually one index. For `f[T, U]` (type arguments) each argument was parsed as an
  // expression; `type_args` holds the same arguments parsed as types when that was possible
  // (an element is nullptr where the argument is not a type), so the checker can take either.
  std::vector<ExprPtr> args;
  std::vector<TypeExprPtr> type_args;
};

struct FieldInit {
  Ident name;
  ExprPtr value;
};

struct NewExpr : Expr {
  NewExpr() : Expr(ExprKind::New) {}
  TypeExprPtr type;  // a class (possibly generic: `new Pair[int, text] { ... }`)
  std::vector<FieldInit> fields;
};

struct NewArrayExpr : Expr {
  NewArrayExpr() : Expr(ExprKind::NewArray) {}
  TypeExprPtr elem;  // T of `new [T](n)`
  ExprPtr length;
};

struct ArrayLitExpr : Expr {
  ArrayLitExpr() : Expr(ExprKind::ArrayLit) {}
  std::vector<ExprPtr> elems;
};

struct Param {
  Ident name;
  TypeExprPtr type;
};

struct Block;

struct FnLitExpr : Expr {
  FnLitExpr() : Expr(ExprKind::FnLit) {}
  std::vector<Param> params;
  TypeExprPtr ret;  // nullptr: no result
  std::unique_ptr<Block> body;
};

// --- Statements -----------------------------------------------------------------------------

enum class StmtKind {
  Let,     // let x [: T] = e    /  var x [: T] [= e]
  Assign,  // target = e, target += e, ...
  Expr,    // an expression evaluated for its effect (a call)
  If,
  While,
  For,
  Break,
  Continue,
  Return,
  Atomic,  // atomic { ... }
  Block,   // { ... } as a statement
};

struct Stmt : Node {
  StmtKind kind;
  explicit Stmt(StmtKind k) : kind(k) {}
  virtual ~Stmt() = default;
  template <class T>
  T *as() {
    return static_cast<T *>(this);
  }
  template <class T>
  const T *as() const {
    return static_cast<const T *>(this);
  }
};
using StmtPtr = std::unique_ptr<Stmt>;

struct Block : Stmt {
  Block() : Stmt(StmtKind::Block) {}
  std::vector<StmtPtr> stmts;
};

struct LetStmt : Stmt {
  LetStmt() : Stmt(StmtKind::Let) {}
  bool is_var = false;
  Ident name;
  TypeExprPtr type;  // nullptr: inferred from init
  ExprPtr init;      // nullptr only for `var x: T` (starts as 0, 0.0, false or nil)
};

// `=` is Assign; the compound forms name the operator (Add for `+=`, Shl for `<<=`, ...).
enum class AssignOp { Assign, Add, Sub, Mul, Div, Mod, BitAnd, BitOr, BitXor, Shl, Shr, Ushr };

struct AssignStmt : Stmt {
  AssignStmt() : Stmt(StmtKind::Assign) {}
  AssignOp op = AssignOp::Assign;
  Span op_span;
  ExprPtr target;  // a name, a field (e.f) or an index (a[i])
  ExprPtr value;
};

struct ExprStmt : Stmt {
  ExprStmt() : Stmt(StmtKind::Expr) {}
  ExprPtr expr;
};

struct IfStmt : Stmt {
  IfStmt() : Stmt(StmtKind::If) {}
  ExprPtr cond;
  std::unique_ptr<Block> then_block;
  StmtPtr else_stmt;  // nullptr, a Block, or an IfStmt (`else if`)
};

struct WhileStmt : Stmt {
  WhileStmt() : Stmt(StmtKind::While) {}
  ExprPtr cond;
  std::unique_ptr<Block> body;
};

// for x in lo..hi { }    (range_end != nullptr: a half-open int range, iterable is lo)
// for x in e { }         (an array, or a class with len() and get(i))
struct ForStmt : Stmt {
  ForStmt() : Stmt(StmtKind::For) {}
  Ident var;
  ExprPtr iterable;
  ExprPtr range_end;
  std::unique_ptr<Block> body;
};

struct BreakStmt : Stmt {
  BreakStmt() : Stmt(StmtKind::Break) {}
};

struct ContinueStmt : Stmt {
  ContinueStmt() : Stmt(StmtKind::Continue) {}
};

struct ReturnStmt : Stmt {
  ReturnStmt() : Stmt(StmtKind::Return) {}
  ExprPtr value;  // nullptr: `return` alone
};

struct AtomicStmt : Stmt {
  AtomicStmt() : Stmt(StmtKind::Atomic) {}
  std::unique_ptr<Block> body;
};

// --- Declarations ---------------------------------------------------------------------------

enum class DeclKind { Import, Global, Class, Fn };

struct Decl : Node {
  DeclKind kind;
  explicit Decl(DeclKind k) : kind(k) {}
  virtual ~Decl() = default;
  template <class T>
  T *as() {
    return static_cast<T *>(this);
  }
  template <class T>
  const T *as() const {
    return static_cast<const T *>(this);
  }
};
using DeclPtr = std::unique_ptr<Decl>;

// import a.b.c
struct ImportDecl : Decl {
  ImportDecl() : Decl(DeclKind::Import) {}
  std::vector<Ident> path;  // {"std", "list"}
};

// Module-level `let NAME [: T] = e` (a constant) or `var NAME [: T] [= e]` (a root).
struct GlobalDecl : Decl {
  GlobalDecl() : Decl(DeclKind::Global) {}
  bool is_var = false;
  Ident name;
  TypeExprPtr type;
  ExprPtr init;
};

struct FnDecl : Decl {
  FnDecl() : Decl(DeclKind::Fn) {}
  Ident name;
  std::vector<Ident> type_params;  // fn max[T](...)
  std::vector<Param> params;
  TypeExprPtr ret;              // nullptr: no result
  std::unique_ptr<Block> body;  // nullptr for `extern fn`
  bool is_extern = false;
  bool is_override = false;  // methods only
};

struct FieldDecl {
  Ident name;
  TypeExprPtr type;
  Span span;
};

struct ClassDecl : Decl {
  ClassDecl() : Decl(DeclKind::Class) {}
  Ident name;
  std::vector<Ident> type_params;  // class Pair[A, B]
  TypeExprPtr super;               // `: Base` (possibly `: Base[T]`); nullptr: none
  std::vector<FieldDecl> fields;
  std::vector<std::unique_ptr<FnDecl>> methods;
};

// One source file.
struct Module {
  uint32_t file = Span::kNoFile;
  std::vector<DeclPtr> decls;
};

// One input of the REPL (parseInput): declarations and statements in the order they were
// typed. Exactly one of `decl` and `stmt` is set in each item. A module-level `let`/`var` is a
// declaration (a session variable); an expression on its own is an ExprStmt.
struct InputItem {
  DeclPtr decl;
  StmtPtr stmt;
};
struct Input {
  uint32_t file = Span::kNoFile;
  std::vector<InputItem> items;
  // Types the input uses without declaring or running anything: the checker resolves them in
  // the session's scope (after the input's classes), so their descriptors are made with the
  // input's code. Never parsed; the REPL's :open puts a database's stored array types and
  // generic instances here.
  std::vector<TypeExprPtr> types_used;
};

}  // namespace cairn::front::ast

#endif  // CAIRN_FRONTEND_SYNTAX_AST_H
