// The order of module-level initialization, checked through calls (init_order.h).
#include "check/init_order.h"

#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cairn::front {
namespace {

// What one function's body (or one initializer) reads and reaches directly.
enum class Reach {
  Call,
  Value,
  Override
};  // called; taken as a value; an override a call may reach

struct Uses {
  struct Use {
    FuncInfo *func;
    Span site;
    Reach how;
  };
  std::vector<std::pair<GlobalInfo *, Span>> reads;
  std::vector<Use> calls;
};

class InitOrder {
 public:
  InitOrder(const sem::Program &program, Diagnostics &diags) : program_(program), diags_(diags) {
    for (const auto &f : program.functions) bodies_[f->info] = f.get();
  }

  void run() {
    std::map<const GlobalInfo *, size_t> position;
    for (size_t i = 0; i < program_.global_inits.size(); ++i)
      if (program_.global_inits[i].init) position[program_.global_inits[i].global] = i;
    for (size_t i = 0; i < program_.global_inits.size(); ++i) {
      const sem::GlobalInit &gi = program_.global_inits[i];
      if (!gi.init) continue;
      Uses start;
      expr(*gi.init, &start);
      // Breadth first from the initializer: the first late read found has a shortest chain.
      struct Step {
        const FuncInfo *from;  // nullptr: the initializer itself
        Span site;
        Reach how;
      };
      std::map<const FuncInfo *, Step> reached;
      std::deque<std::pair<const FuncInfo *, const Uses *>> queue;
      queue.push_back({nullptr, &start});
      bool reported = false;
      while (!queue.empty() && !reported) {
        auto [from, uses] = queue.front();
        queue.pop_front();
        if (from != nullptr) {  // the initializer's own reads were checked by the checker
          for (const auto &[g, site] : uses->reads) {
            auto p = position.find(g);
            if (p == position.end() || p->second < i) continue;
            report(gi, g, from, site, reached);
            reported = true;
            break;
          }
        }
        if (reported) break;
        for (const Uses::Use &use : uses->calls) {
          if (reached.count(use.func) != 0) continue;
          reached[use.func] = Step{from, use.site, use.how};
          if (const Uses *u = usesOf(use.func)) queue.push_back({use.func, u});
        }
      }
    }
  }

 private:
  template <class StepMap>
  void report(const sem::GlobalInit &gi, const GlobalInfo *late, const FuncInfo *reader,
              Span read_site, const StepMap &reached) {
    const std::string &name = gi.global->name;
    Diagnostic &d = diags_.report(DiagId::InitReadsLater, gi.global->span, {name, late->name});
    // The chain, from the initializer to the function that reads.
    std::vector<const FuncInfo *> chain;
    for (const FuncInfo *f = reader; f != nullptr; f = reached.at(f).from) chain.push_back(f);
    for (size_t k = chain.size(); k-- > 0;) {
      const FuncInfo *f = chain[k];
      const auto &step = reached.at(f);
      const std::string who = step.from ? describe(step.from) : "the initializer of '" + name + "'";
      const std::string what = step.how == Reach::Call ? " calls " + describe(f)
                               : step.how == Reach::Value
                                   ? " takes " + describe(f) + " as a value"
                                   : " may call " + describe(f) + " (an override)";
      d.withNote(step.site, who + what + " here");
    }
    d.withNote(read_site, describe(reader) + " reads '" + late->name + "' here");
    if (late == gi.global)
      d.withHint("its own initializer reads it before it has a value: give '" + name +
                 "' its value in main");
    else
      d.withHint("module-level values are initialized in order, imported modules first: declare '" +
                 late->name + "' above '" + name + "', or give '" + name + "' its value in main");
  }

  static std::string describe(const FuncInfo *f) {
    if (f->literal != nullptr) return "a function literal";
    if (f->owner != nullptr) return "'" + f->owner->name + "." + f->name + "'";
    return "'" + f->name + "'";
  }

  const Uses *usesOf(const FuncInfo *f) {
    auto it = uses_.find(f);
    if (it != uses_.end()) return &it->second;
    auto b = bodies_.find(f);
    if (b == bodies_.end() || !b->second->body) return nullptr;  // extern, or no body
    Uses &u = uses_[f];
    stmt(*b->second->body, &u);
    return &u;
  }

  // Every implementation a call of `method` may reach: its own and every override's.
  void dispatch(FuncInfo *method, Span site, Uses *u) {
    u->calls.push_back({method, site, Reach::Call});
    if (method->owner == nullptr || method->slot < 0) return;
    const auto slot = static_cast<size_t>(method->slot);
    for (ClassInfo *c : program_.classes)
      if (c->isSubclassOf(method->owner) && slot < c->vtable.size() && c->vtable[slot] != method)
        u->calls.push_back({c->vtable[slot], site, Reach::Override});
  }

  void exprs(const std::vector<sem::ExprPtr> &es, Uses *u) {
    for (const sem::ExprPtr &e : es)
      if (e) expr(*e, u);
  }

  void expr(const sem::Expr &e, Uses *u) {
    switch (e.kind) {
      case sem::ExprKind::IntConst:
      case sem::ExprKind::FloatConst:
      case sem::ExprKind::BoolConst:
      case sem::ExprKind::TextConst:
      case sem::ExprKind::Nil:
      case sem::ExprKind::Local:
        return;
      case sem::ExprKind::Global:
        u->reads.push_back({e.as<sem::Global>()->global, e.span});
        return;
      case sem::ExprKind::FuncRef:
        u->calls.push_back({e.as<sem::FuncRef>()->func, e.span, Reach::Value});
        return;
      case sem::ExprKind::Unary:
        expr(*e.as<sem::Unary>()->operand, u);
        return;
      case sem::ExprKind::Binary:  // (lhs is null in a compound assignment's value: Assign)
        if (e.as<sem::Binary>()->lhs) expr(*e.as<sem::Binary>()->lhs, u);
        expr(*e.as<sem::Binary>()->rhs, u);
        return;
      case sem::ExprKind::Is:
        expr(*e.as<sem::Is>()->value, u);
        return;
      case sem::ExprKind::As:
        expr(*e.as<sem::As>()->value, u);
        return;
      case sem::ExprKind::Field:
        expr(*e.as<sem::Field>()->object, u);
        return;
      case sem::ExprKind::Index:
        expr(*e.as<sem::Index>()->base, u);
        expr(*e.as<sem::Index>()->index, u);
        return;
      case sem::ExprKind::CallDirect: {
        const auto *c = e.as<sem::CallDirect>();
        u->calls.push_back({c->func, e.span, Reach::Call});
        exprs(c->args, u);
        return;
      }
      case sem::ExprKind::CallVirtual: {
        const auto *c = e.as<sem::CallVirtual>();
        expr(*c->object, u);
        dispatch(c->method, e.span, u);
        exprs(c->args, u);
        return;
      }
      case sem::ExprKind::CallIndirect:
        expr(*e.as<sem::CallIndirect>()->callee, u);
        exprs(e.as<sem::CallIndirect>()->args, u);
        return;
      case sem::ExprKind::Builtin:
        exprs(e.as<sem::BuiltinCall>()->args, u);
        return;
      case sem::ExprKind::New:
        for (const sem::FieldInit &fi : e.as<sem::New>()->inits)
          if (fi.value) expr(*fi.value, u);
        return;
      case sem::ExprKind::NewArray:
        expr(*e.as<sem::NewArray>()->length, u);
        return;
      case sem::ExprKind::ArrayLit:
        exprs(e.as<sem::ArrayLit>()->elems, u);
        return;
      case sem::ExprKind::DbRoot:
        expr(*e.as<sem::DbRoot>()->db, u);
        return;
    }
  }

  void stmt(const sem::Stmt &s, Uses *u) {
    switch (s.kind) {
      case sem::StmtKind::Block:
        for (const sem::StmtPtr &t : s.as<sem::Block>()->stmts) stmt(*t, u);
        return;
      case sem::StmtKind::Let:
        if (s.as<sem::Let>()->init) expr(*s.as<sem::Let>()->init, u);
        return;
      case sem::StmtKind::Assign: {
        const auto *a = s.as<sem::Assign>();
        // Assigning a module-level value is not reading it, but a compound assignment (`x += 1`:
        // a Binary whose lhs is left null, the target's current value) reads it too; what the
        // target's own parts read is read either way.
        const bool compound = a->value->kind == sem::ExprKind::Binary &&
                              a->value->as<sem::Binary>()->lhs == nullptr;
        if (compound || a->target->kind != sem::ExprKind::Global) expr(*a->target, u);
        expr(*a->value, u);
        return;
      }
      case sem::StmtKind::Expr:
        expr(*s.as<sem::ExprStmt>()->expr, u);
        return;
      case sem::StmtKind::If: {
        const auto *i = s.as<sem::If>();
        expr(*i->cond, u);
        stmt(*i->then_block, u);
        if (i->else_stmt) stmt(*i->else_stmt, u);
        return;
      }
      case sem::StmtKind::While:
        expr(*s.as<sem::While>()->cond, u);
        stmt(*s.as<sem::While>()->body, u);
        return;
      case sem::StmtKind::ForRange:
        expr(*s.as<sem::ForRange>()->lo, u);
        expr(*s.as<sem::ForRange>()->hi, u);
        stmt(*s.as<sem::ForRange>()->body, u);
        return;
      case sem::StmtKind::ForArray:
        expr(*s.as<sem::ForArray>()->array, u);
        stmt(*s.as<sem::ForArray>()->body, u);
        return;
      case sem::StmtKind::ForObject: {
        const auto *f = s.as<sem::ForObject>();
        expr(*f->object, u);
        if (f->len) dispatch(f->len, s.span, u);
        if (f->get) dispatch(f->get, s.span, u);
        stmt(*f->body, u);
        return;
      }
      case sem::StmtKind::Return:
        if (s.as<sem::Return>()->value) expr(*s.as<sem::Return>()->value, u);
        return;
      case sem::StmtKind::Atomic:
        stmt(*s.as<sem::Atomic>()->body, u);
        return;
      case sem::StmtKind::Break:
      case sem::StmtKind::Continue:
        return;
    }
  }

  const sem::Program &program_;
  Diagnostics &diags_;
  std::map<const FuncInfo *, const sem::Function *> bodies_;
  std::map<const FuncInfo *, Uses> uses_;
};

}  // namespace

void checkInitOrder(const sem::Program &program, Diagnostics &diags) {
  InitOrder(program, diags).run();
}

}  // namespace cairn::front
