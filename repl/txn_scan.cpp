// Transactions begun by a function's code (txn_scan.h).
#include "txn_scan.h"

namespace cairn::repl {
namespace {

namespace sem = front::sem;

class Scan {
 public:
  TxnFacts facts;

  void stmt(const sem::Stmt *s) {
    if (s == nullptr) return;
    switch (s->kind) {
      case sem::StmtKind::Block:
        for (const auto &st : s->as<sem::Block>()->stmts) stmt(st.get());
        break;
      case sem::StmtKind::Let:
        expr(s->as<sem::Let>()->init.get());
        break;
      case sem::StmtKind::Assign:
        expr(s->as<sem::Assign>()->target.get());
        expr(s->as<sem::Assign>()->value.get());
        break;
      case sem::StmtKind::Expr:
        expr(s->as<sem::ExprStmt>()->expr.get());
        break;
      case sem::StmtKind::If: {
        const auto *i = s->as<sem::If>();
        expr(i->cond.get());
        stmt(i->then_block.get());
        stmt(i->else_stmt.get());
        break;
      }
      case sem::StmtKind::While:
        expr(s->as<sem::While>()->cond.get());
        stmt(s->as<sem::While>()->body.get());
        break;
      case sem::StmtKind::ForRange:
        expr(s->as<sem::ForRange>()->lo.get());
        expr(s->as<sem::ForRange>()->hi.get());
        stmt(s->as<sem::ForRange>()->body.get());
        break;
      case sem::StmtKind::ForArray:
        expr(s->as<sem::ForArray>()->array.get());
        stmt(s->as<sem::ForArray>()->body.get());
        break;
      case sem::StmtKind::ForObject: {
        const auto *f = s->as<sem::ForObject>();
        expr(f->object.get());
        if (f->len) facts.calls.push_back(f->len);
        if (f->get) facts.calls.push_back(f->get);
        stmt(f->body.get());
        break;
      }
      case sem::StmtKind::Return:
        expr(s->as<sem::Return>()->value.get());
        break;
      case sem::StmtKind::Atomic:
        facts.begins = true;
        stmt(s->as<sem::Atomic>()->body.get());
        break;
      case sem::StmtKind::Break:
      case sem::StmtKind::Continue:
        break;
    }
  }

  void expr(const sem::Expr *e) {
    if (e == nullptr) return;
    switch (e->kind) {
      case sem::ExprKind::Unary:
        expr(e->as<sem::Unary>()->operand.get());
        break;
      case sem::ExprKind::Binary:
        expr(e->as<sem::Binary>()->lhs.get());
        expr(e->as<sem::Binary>()->rhs.get());
        break;
      case sem::ExprKind::Is:
        expr(e->as<sem::Is>()->value.get());
        break;
      case sem::ExprKind::As:
        expr(e->as<sem::As>()->value.get());
        break;
      case sem::ExprKind::Field:
        expr(e->as<sem::Field>()->object.get());
        break;
      case sem::ExprKind::Index:
        expr(e->as<sem::Index>()->base.get());
        expr(e->as<sem::Index>()->index.get());
        break;
      case sem::ExprKind::CallDirect: {
        const auto *c = e->as<sem::CallDirect>();
        facts.calls.push_back(c->func);
        for (const auto &a : c->args) expr(a.get());
        break;
      }
      case sem::ExprKind::CallVirtual: {
        const auto *c = e->as<sem::CallVirtual>();
        expr(c->object.get());
        facts.calls.push_back(c->method);
        for (const auto &a : c->args) expr(a.get());
        break;
      }
      case sem::ExprKind::CallIndirect: {
        const auto *c = e->as<sem::CallIndirect>();
        expr(c->callee.get());
        for (const auto &a : c->args) expr(a.get());
        break;
      }
      case sem::ExprKind::Builtin: {
        const auto *b = e->as<sem::BuiltinCall>();
        // An input that begins a transaction itself runs outside one of its own. (Creating and
        // dropping a database work inside one: `let d = Database.create("x"); d.root = ...`
        // is one input, committed with its transaction.)
        if (b->builtin == sem::Builtin::TxnBegin) facts.begins = true;
        // These open the store if it is not open yet; the session opens it first, so that the
        // input's own transaction covers what the input does with the database (S2).
        // (Database.exists and names only ask: with no store they are false and [] without
        // making one, at the prompt as in a program; open and drop with no store are the
        // error that there is none: only create makes one.)
        switch (b->builtin) {
          case sem::Builtin::DbCreate:
            facts.creates_store = true;
            facts.opens_store = true;
            break;
          case sem::Builtin::DbOpen:
          case sem::Builtin::DbUpgrade:
          case sem::Builtin::DbDrop:
            facts.opens_store = true;
            break;
          default:
            break;
        }
        for (const auto &a : b->args) expr(a.get());
        break;
      }
      case sem::ExprKind::New:
        for (const auto &init : e->as<sem::New>()->inits) expr(init.value.get());
        break;
      case sem::ExprKind::NewArray:
        expr(e->as<sem::NewArray>()->length.get());
        break;
      case sem::ExprKind::ArrayLit:
        for (const auto &x : e->as<sem::ArrayLit>()->elems) expr(x.get());
        break;
      case sem::ExprKind::DbRoot:
        expr(e->as<sem::DbRoot>()->db.get());
        break;
      case sem::ExprKind::Global:
        facts.globals.push_back(e->as<sem::Global>()->global);
        break;
      default:
        break;
    }
  }
};

}  // namespace

TxnFacts scanTransactions(const front::sem::Function &fn) {
  Scan scan;
  scan.stmt(fn.body.get());
  return scan.facts;
}

}  // namespace cairn::repl
