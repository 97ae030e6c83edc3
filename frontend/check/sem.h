// The semantic tree: what the checker makes of the syntax tree and what lowering turns into
// LLVM IR. Every name is resolved, every expression has its type, every implicit operation
// (an upcast, a text comparison, a virtual call) is explicit, and generic code appears once
// per instance (K2 in types.h).
//
// Invariants:
//   S1. Expression nodes are well typed: an operand's type is what its node needs (int for an
//       index, bool for a condition, ...); lowering does not check again.
//   S2. Every function of the program (instances of generic ones, literals, methods) is one
//       sem::Function in Program::functions, reachable or not; extern functions have no body.
//   S3. A Span on a node that can fail at run time (field access, call on an object, index,
//       division, as, panic, database calls) is where the runtime error points.
#ifndef CAIRN_FRONTEND_CHECK_SEM_H
#define CAIRN_FRONTEND_CHECK_SEM_H

#include <memory>
#include <string>
#include <vector>

#include "check/intrinsics.h"
#include "check/types.h"

namespace cairn::front::sem {

enum class ExprKind {
  IntConst,
  FloatConst,
  BoolConst,
  TextConst,  // a text literal (heap text made at program start)
  Nil,
  Local,         // a local variable or parameter (self is parameter 0 of a method)
  Global,        // a module-level let/var
  FuncRef,       // a named function used as a value
  Unary,         // Neg (int/float), Not (bool), Complement (int)
  Binary,        // arithmetic, comparisons, and/or (see BinOp)
  Is,            // value is cls/array/text type
  As,            // checked downcast
  Field,         // object.field
  Index,         // array[i] or text[i]
  CallDirect,    // a function (or a method called non-virtually: never today)
  CallVirtual,   // object.method(args) through the descriptor's method table
  CallIndirect,  // a function value called
  Builtin,       // print, str, len, ... (see Builtin)
  New,           // new C { ... }
  NewArray,      // new [T](n)
  ArrayLit,      // [a, b, c]
  DbRoot,        // d.root
};

enum class BinOp {
  Add,
  Sub,
  Mul,
  Div,
  Mod,  // int or float (see operand_type)
  BitAnd,
  BitOr,
  BitXor,  // int
  Shl,
  Shr,
  Ushr,    // int; the count is taken mod 64 (Shr: arithmetic)
  Concat,  // text + text
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,  // on operand_type
  And,
  Or,  // short-circuit
};

enum class Builtin {
  Print,  // args printed with spaces between
  Println,
  Str,
  Len,  // of text or array
  Panic,
  Args,
  Exit,
  IntOfFloat,  // int(f)
  FloatOfInt,  // float(i)
  DbCreate,
  DbOpen,
  DbUpgrade,
  DbExists,
  DbDrop,
  DbNames,
  DbName,
  TxnBegin,
  TxnCommit,
  TxnAbort,
  TxnChain,
  TxnCheckpoint,
  TxnIsOpen,
  Hash,       // hash(e) of any value (args[0]'s type says which rule)
  Compare,    // compare(a, b) of two ints, floats, bools or texts (classes: a CallVirtual)
  Intrinsic,  // a standard library intrinsic (BuiltinCall::intrinsic, check/intrinsics.h)
};

struct Expr {
  ExprKind kind;
  const Type *type = nullptr;
  Span span;
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

struct IntConst : Expr {
  IntConst() : Expr(ExprKind::IntConst) {}
  int64_t value = 0;
};
struct FloatConst : Expr {
  FloatConst() : Expr(ExprKind::FloatConst) {}
  double value = 0;
};
struct BoolConst : Expr {
  BoolConst() : Expr(ExprKind::BoolConst) {}
  bool value = false;
};
struct TextConst : Expr {
  TextConst() : Expr(ExprKind::TextConst) {}
  std::string value;
};
struct Nil : Expr {
  Nil() : Expr(ExprKind::Nil) {}
};
struct Local : Expr {
  Local() : Expr(ExprKind::Local) {}
  LocalVar *var = nullptr;
};
struct Global : Expr {
  Global() : Expr(ExprKind::Global) {}
  GlobalInfo *global = nullptr;
};
struct FuncRef : Expr {
  FuncRef() : Expr(ExprKind::FuncRef) {}
  FuncInfo *func = nullptr;
};
enum class UnOp { Neg, Not, Complement };

struct Unary : Expr {
  Unary() : Expr(ExprKind::Unary) {}
  UnOp op = UnOp::Neg;
  ExprPtr operand;
};
struct Binary : Expr {
  Binary() : Expr(ExprKind::Binary) {}
  BinOp op;
  const Type *operand_type = nullptr;  // the operands' common type (after upcasts)
  ExprPtr lhs, rhs;
};
struct Is : Expr {
  Is() : Expr(ExprKind::Is) {}
  ExprPtr value;
  const Type *target = nullptr;
};
struct As : Expr {
  As() : Expr(ExprKind::As) {}
  ExprPtr value;
  const Type *target = nullptr;
  bool needs_check = true;  // false for an upcast
};
struct Field : Expr {
  Field() : Expr(ExprKind::Field) {}
  ExprPtr object;
  const FieldInfo *field = nullptr;
};
struct Index : Expr {
  Index() : Expr(ExprKind::Index) {}
  ExprPtr base;  // an array or a text
  ExprPtr index;
};
struct CallDirect : Expr {
  CallDirect() : Expr(ExprKind::CallDirect) {}
  FuncInfo *func = nullptr;
  std::vector<ExprPtr> args;
};
struct CallVirtual : Expr {
  CallVirtual() : Expr(ExprKind::CallVirtual) {}
  ExprPtr object;
  FuncInfo *method = nullptr;  // the statically found method (its slot and signature)
  ClassInfo *static_class = nullptr;
  std::vector<ExprPtr> args;
};
struct CallIndirect : Expr {
  CallIndirect() : Expr(ExprKind::CallIndirect) {}
  ExprPtr callee;
  std::vector<ExprPtr> args;
};
struct BuiltinCall : Expr {
  BuiltinCall() : Expr(ExprKind::Builtin) {}
  Builtin builtin;
  const Intrinsic *intrinsic = nullptr;  // Builtin::Intrinsic
  std::vector<ExprPtr> args;
};
struct FieldInit {
  const FieldInfo *field = nullptr;
  ExprPtr value;
};
struct New : Expr {
  New() : Expr(ExprKind::New) {}
  ClassInfo *cls = nullptr;
  std::vector<FieldInit> inits;
};
struct NewArray : Expr {
  NewArray() : Expr(ExprKind::NewArray) {}
  ExprPtr length;
};
struct ArrayLit : Expr {
  ArrayLit() : Expr(ExprKind::ArrayLit) {}
  std::vector<ExprPtr> elems;
};
struct DbRoot : Expr {
  DbRoot() : Expr(ExprKind::DbRoot) {}
  ExprPtr db;
};

// --- Statements ------------------------------------------------------------------------------

enum class StmtKind {
  Let,
  Assign,
  Expr,
  If,
  While,
  ForRange,
  ForArray,
  ForObject,
  Break,
  Continue,
  Return,
  Atomic,
  Block
};

struct Stmt {
  StmtKind kind;
  Span span;
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
struct Let : Stmt {
  Let() : Stmt(StmtKind::Let) {}
  LocalVar *var = nullptr;
  ExprPtr init;  // nullptr: zero
};
// target: a Local, Global, Field, Index (of an array) or DbRoot expression.
struct Assign : Stmt {
  Assign() : Stmt(StmtKind::Assign) {}
  ExprPtr target;
  ExprPtr value;  // for compound forms, already `target op value`
};
struct ExprStmt : Stmt {
  ExprStmt() : Stmt(StmtKind::Expr) {}
  ExprPtr expr;
};
struct If : Stmt {
  If() : Stmt(StmtKind::If) {}
  ExprPtr cond;
  std::unique_ptr<Block> then_block;
  StmtPtr else_stmt;
};
struct While : Stmt {
  While() : Stmt(StmtKind::While) {}
  ExprPtr cond;
  std::unique_ptr<Block> body;
};
struct ForRange : Stmt {
  ForRange() : Stmt(StmtKind::ForRange) {}
  LocalVar *var = nullptr;
  ExprPtr lo, hi;
  std::unique_ptr<Block> body;
};
struct ForArray : Stmt {
  ForArray() : Stmt(StmtKind::ForArray) {}
  LocalVar *var = nullptr;
  ExprPtr array;
  std::unique_ptr<Block> body;
};
// for x in obj: i from 0 while i < obj.len(), x = obj.get(i) (len() is called each round).
struct ForObject : Stmt {
  ForObject() : Stmt(StmtKind::ForObject) {}
  LocalVar *var = nullptr;
  ExprPtr object;
  FuncInfo *len = nullptr;
  FuncInfo *get = nullptr;
  ClassInfo *cls = nullptr;
  std::unique_ptr<Block> body;
};
struct Break : Stmt {
  Break() : Stmt(StmtKind::Break) {}
};
struct Continue : Stmt {
  Continue() : Stmt(StmtKind::Continue) {}
};
struct Return : Stmt {
  Return() : Stmt(StmtKind::Return) {}
  ExprPtr value;
};
struct Atomic : Stmt {
  Atomic() : Stmt(StmtKind::Atomic) {}
  std::unique_ptr<Block> body;
};

// --- Program ---------------------------------------------------------------------------------

struct Function {
  FuncInfo *info = nullptr;
  std::vector<LocalVar *> params;                 // methods: params[0] is self
  std::unique_ptr<Block> body;                    // nullptr: extern
  std::vector<std::unique_ptr<LocalVar>> locals;  // owns params and locals
};

struct GlobalInit {
  GlobalInfo *global = nullptr;
  ExprPtr init;  // nullptr: zero (an initializer is an expression: it declares no locals)
};

struct Program {
  std::vector<std::unique_ptr<Function>> functions;
  std::vector<ClassInfo *> classes;       // every class instance (base before subclass)
  std::vector<const Type *> array_types;  // every [T] the program uses
  std::vector<GlobalInit> global_inits;   // in initialization order
  std::vector<GlobalInfo *> globals;
  // The value of every text literal the checker met, in that order (repeats included): what a
  // lowering that defines only some of the functions (twins, lower.h) makes slots for first.
  std::vector<std::string> text_literals;
  FuncInfo *main = nullptr;
  std::string main_file;  // the main module's path
  // What the checker made and the tree points at: classes, functions and globals live as
  // long as the program.
  std::vector<std::unique_ptr<ClassInfo>> owned_classes;
  std::vector<std::unique_ptr<FuncInfo>> owned_functions;
  std::vector<std::unique_ptr<GlobalInfo>> owned_globals;
};

}  // namespace cairn::front::sem

#endif  // CAIRN_FRONTEND_CHECK_SEM_H
