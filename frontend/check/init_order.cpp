// The order of module-level initialization, checked through calls (init_order.h).
#include "check/init_order.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <set>
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
  // Calls through a module-level variable holding a function (`handler()`): each function ever
  // stored in it is a call (made into `calls` once every store is known).
  std::vector<std::pair<const GlobalInfo *, Span>> indirect;
  // Reads of a module-level variable holding a function, other than to call it or to keep it in
  // another such variable: each function ever stored in it is taken as a value (it may be
  // passed on and called at once).
  std::vector<std::pair<const GlobalInfo *, Span>> taken;
};

// One thing that runs, in order: a module-level initializer (of `global`), or in a REPL input
// a statement (global == nullptr) or a variable's first assignment.
struct Step {
  const GlobalInfo *global = nullptr;
  Span span;
  const sem::Expr *expr = nullptr;  // one of the two
  const sem::Stmt *stmt = nullptr;
};

class InitOrder {
 public:
  InitOrder(const sem::Program &program, Diagnostics &diags) : program_(program), diags_(diags) {
    for (const auto &f : program.functions) bodies_[f->info] = f.get();
  }

  // `steps` run in order; position_ (the step that sets each value) must be filled first.
  void run(const std::vector<Step> &steps) {
    // Every body and step first, so that every function stored in a variable is known.
    for (const auto &f : program_.functions) usesOf(f->info);
    std::vector<Uses> starts(steps.size());
    for (size_t i = 0; i < steps.size(); ++i) {
      const sem::Expr *e = steps[i].expr;
      if (e && steps[i].global && e->kind == sem::ExprKind::FuncRef)
        stored_[steps[i].global].push_back(e->as<sem::FuncRef>()->func);  // kept, not called
      else if (e && steps[i].global && keeps(*e))
        keep(steps[i].global, *e, &starts[i]);
      else if (e)
        expr(*e, &starts[i]);
      if (steps[i].stmt) stmt(*steps[i].stmt, &starts[i]);
    }
    // A variable given another's function (`var g = f`) holds every function ever stored in
    // that one: to a fixed point, for chains of them.
    for (bool grew = true; grew;) {
      grew = false;
      for (const auto &[to, from] : aliases_)
        for (FuncInfo *f : std::vector<FuncInfo *>(stored_[from])) {
          std::vector<FuncInfo *> &held = stored_[to];
          if (std::find(held.begin(), held.end(), f) == held.end()) {
            held.push_back(f);
            grew = true;
          }
        }
    }
    auto resolve = [&](Uses &u) {
      for (const auto &[g, site] : u.indirect)
        for (FuncInfo *f : stored_[g]) u.calls.push_back({f, site, Reach::Call});
      for (const auto &[g, site] : u.taken)
        for (FuncInfo *f : stored_[g]) u.calls.push_back({f, site, Reach::Value});
      u.indirect.clear();
      u.taken.clear();
    };
    for (auto &[f, u] : uses_) resolve(u);
    for (Uses &u : starts) resolve(u);
    for (size_t i = 0; i < steps.size(); ++i) {
      // The fast test: the latest step whose value anything reachable from here reads.
      int64_t latest = latestOf(starts[i].reads);
      for (const Uses::Use &use : starts[i].calls) latest = std::max(latest, reach(use.func));
      if (latest >= static_cast<int64_t>(i)) explain(steps[i], i, starts[i]);
    }
  }

  std::map<const GlobalInfo *, size_t> position_;

 private:
  int64_t latestOf(const std::vector<std::pair<GlobalInfo *, Span>> &reads) const {
    int64_t latest = -1;
    for (const auto &[g, site] : reads) {
      auto p = position_.find(g);
      if (p != position_.end()) latest = std::max(latest, static_cast<int64_t>(p->second));
    }
    return latest;
  }

  // The latest step whose value f reads, directly or through what it reaches (-1: none). The
  // call graph's strongly connected components (Tarjan, without recursion) share one answer,
  // so every function is visited once however many steps reach it.
  int64_t reach(const FuncInfo *root) {
    if (auto it = latest_.find(root); it != latest_.end() && done_.count(root)) return it->second;
    struct Frame {
      const FuncInfo *f;
      const Uses *uses;
      size_t next;
    };
    std::vector<Frame> frames;
    auto enter = [&](const FuncInfo *f) {
      const size_t n = order_.size();
      order_[f] = n;
      low_[f] = n;
      stack_.push_back(f);
      on_stack_.insert(f);
      const Uses *u = usesOf(f);
      latest_[f] = u ? latestOf(u->reads) : -1;
      frames.push_back({f, u, 0});
    };
    enter(root);
    while (!frames.empty()) {
      Frame &top = frames.back();
      const FuncInfo *f = top.f;
      if (top.uses && top.next < top.uses->calls.size()) {
        const FuncInfo *w = top.uses->calls[top.next++].func;
        if (order_.count(w) == 0) {
          enter(w);
        } else if (on_stack_.count(w)) {
          low_[f] = std::min(low_[f], order_[w]);
          latest_[f] = std::max(latest_[f], latest_[w]);
        } else {
          latest_[f] = std::max(latest_[f], latest_[w]);  // w's component is done
        }
        continue;
      }
      if (low_[f] == order_[f]) {  // f roots a component: all of it gets the component's answer
        int64_t latest = -1;
        size_t from = stack_.size();
        do --from;
        while (stack_[from] != f);
        for (size_t k = from; k < stack_.size(); ++k) latest = std::max(latest, latest_[stack_[k]]);
        for (size_t k = from; k < stack_.size(); ++k) {
          latest_[stack_[k]] = latest;
          on_stack_.erase(stack_[k]);
          done_.insert(stack_[k]);
        }
        stack_.resize(from);
      }
      frames.pop_back();
      if (!frames.empty()) {
        const FuncInfo *parent = frames.back().f;
        low_[parent] = std::min(low_[parent], low_[f]);
        latest_[parent] = std::max(latest_[parent], latest_[f]);
      }
    }
    return latest_[root];
  }

  // Breadth first from step i: the first late read found has a shortest chain; it is reported.
  void explain(const Step &step, size_t i, const Uses &start) {
    struct Hop {
      const FuncInfo *from;  // nullptr: the step itself
      Span site;
      Reach how;
    };
    std::map<const FuncInfo *, Hop> reached;
    std::deque<std::pair<const FuncInfo *, const Uses *>> queue;
    queue.push_back({nullptr, &start});
    while (!queue.empty()) {
      auto [from, uses] = queue.front();
      queue.pop_front();
      for (const auto &[g, site] : uses->reads) {
        auto p = position_.find(g);
        if (p == position_.end() || p->second < i) continue;
        report(step, g, from, site, reached);
        return;
      }
      for (const Uses::Use &use : uses->calls) {
        if (reached.count(use.func) != 0) continue;
        reached[use.func] = Hop{from, use.site, use.how};
        if (const Uses *u = usesOf(use.func)) queue.push_back({use.func, u});
      }
    }
  }

  template <class HopMap>
  void report(const Step &step, const GlobalInfo *late, const FuncInfo *reader, Span read_site,
              const HopMap &reached) {
    const std::string who0 = step.global ? "the initializer of '" + step.global->name + "'"
                                         : std::string("this statement");
    // The chain, from the step to the function that reads; through a function taken as a value
    // the read is only possible (the value may be called before `late` is set).
    std::vector<const FuncInfo *> chain;
    bool as_value = false;
    for (const FuncInfo *f = reader; f != nullptr; f = reached.at(f).from) {
      chain.push_back(f);
      as_value = as_value || reached.at(f).how == Reach::Value;
    }
    const DiagId id = !step.global ? DiagId::StatementReadsLater
                      : as_value   ? DiagId::InitTakesLater
                                   : DiagId::InitReadsLater;
    Diagnostic &d = step.global ? diags_.report(id, step.span, {step.global->name, late->name})
                                : diags_.report(id, step.span, {late->name});
    for (size_t k = chain.size(); k-- > 0;) {
      const FuncInfo *f = chain[k];
      const auto &hop = reached.at(f);
      const std::string who = hop.from ? describe(hop.from) : who0;
      const std::string what = hop.how == Reach::Call ? " calls " + describe(f)
                               : hop.how == Reach::Value
                                   ? " takes " + describe(f) + " as a value"
                                   : " may call " + describe(f) + " (an override)";
      d.withNote(hop.site, who + what + " here");
    }
    d.withNote(read_site, (reader ? describe(reader) : who0) + " reads '" + late->name + "' here");
    if (!step.global)
      d.withHint("declare '" + late->name + "' before this statement");
    else if (late == step.global)
      d.withHint("its own initializer reads it before it has a value: give '" + step.global->name +
                 "' its value in main");
    else if (as_value)
      d.withHint("module-level values are initialized in order, imported modules first: declare '" +
                 late->name + "' above '" + step.global->name + "'");
    else
      d.withHint("module-level values are initialized in order, imported modules first: declare '" +
                 late->name + "' above '" + step.global->name + "', or give '" + step.global->name +
                 "' its value in main");
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
    for (FuncInfo *o : overrides(method)) u->calls.push_back({o, site, Reach::Override});
  }

  // The other implementations of method's slot in classes that extend its class (made once).
  const std::vector<FuncInfo *> &overrides(FuncInfo *method) {
    auto [it, made] = overrides_.try_emplace(method);
    if (!made) return it->second;
    const auto slot = static_cast<size_t>(method->slot);
    std::set<FuncInfo *> seen;
    for (ClassInfo *c : program_.classes)
      if (slot < c->vtable.size() && c->vtable[slot] != method && c->isSubclassOf(method->owner) &&
          seen.insert(c->vtable[slot]).second)
        it->second.push_back(c->vtable[slot]);
    return it->second;
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
      case sem::ExprKind::Global: {
        GlobalInfo *g = e.as<sem::Global>()->global;
        u->reads.push_back({g, e.span});
        if (g->type != nullptr && g->type->kind == TypeKind::Fn) u->taken.push_back({g, e.span});
        return;
      }
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
      case sem::ExprKind::CallIndirect: {
        const sem::Expr &callee = *e.as<sem::CallIndirect>()->callee;
        if (callee.kind == sem::ExprKind::Global)
          u->indirect.push_back({callee.as<sem::Global>()->global, e.span});
        expr(callee, u);
        exprs(e.as<sem::CallIndirect>()->args, u);
        return;
      }
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
        const bool compound =
            a->value->kind == sem::ExprKind::Binary && a->value->as<sem::Binary>()->lhs == nullptr;
        if (compound || a->target->kind != sem::ExprKind::Global) expr(*a->target, u);
        if (a->target->kind == sem::ExprKind::Global && a->value->kind == sem::ExprKind::FuncRef) {
          // A function kept in a variable is not called here; a call through the variable is.
          stored_[a->target->as<sem::Global>()->global].push_back(
              a->value->as<sem::FuncRef>()->func);
          return;
        }
        if (a->target->kind == sem::ExprKind::Global && keeps(*a->value)) {
          keep(a->target->as<sem::Global>()->global, *a->value, u);
          return;
        }
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

  // Whether e is a module-level variable holding a function, as the whole value given to
  // another one (`g = f`): the function is kept, not taken.
  static bool keeps(const sem::Expr &e) {
    if (e.kind != sem::ExprKind::Global) return false;
    const Type *t = e.as<sem::Global>()->global->type;
    return t != nullptr && t->kind == TypeKind::Fn;
  }
  void keep(const GlobalInfo *to, const sem::Expr &from, Uses *u) {
    GlobalInfo *g = from.as<sem::Global>()->global;
    u->reads.push_back({g, from.span});
    aliases_.emplace_back(to, g);
  }

  const sem::Program &program_;
  Diagnostics &diags_;
  std::vector<std::pair<const GlobalInfo *, const GlobalInfo *>> aliases_;  // `to = from`
  std::map<const FuncInfo *, const sem::Function *> bodies_;
  std::map<const FuncInfo *, Uses> uses_;
  std::map<FuncInfo *, std::vector<FuncInfo *>> overrides_;
  std::map<const GlobalInfo *, std::vector<FuncInfo *>> stored_;  // functions kept in variables
  // reach(): Tarjan's numbering, the answers, and the functions whose answer is final.
  std::map<const FuncInfo *, size_t> order_, low_;
  std::map<const FuncInfo *, int64_t> latest_;
  std::vector<const FuncInfo *> stack_;
  std::set<const FuncInfo *> on_stack_, done_;
};

}  // namespace

void checkInitOrder(const sem::Program &program, Diagnostics &diags) {
  InitOrder check(program, diags);
  std::vector<Step> steps;
  for (const sem::GlobalInit &gi : program.global_inits) {
    if (!gi.init) continue;
    check.position_[gi.global] = steps.size();
    steps.push_back(Step{gi.global, gi.global->span, gi.init.get(), nullptr});
  }
  check.run(steps);
}

void checkInputOrder(const sem::Program &unit, const sem::Block &run,
                     const std::set<const GlobalInfo *> &fresh, Diagnostics &diags) {
  InitOrder check(unit, diags);
  std::vector<Step> steps;
  for (const sem::StmtPtr &s : run.stmts) {
    const GlobalInfo *set = nullptr;
    if (s->kind == sem::StmtKind::Assign) {
      const auto *a = s->as<sem::Assign>();
      if (a->target->kind == sem::ExprKind::Global &&
          fresh.count(a->target->as<sem::Global>()->global) != 0 &&
          check.position_.count(a->target->as<sem::Global>()->global) == 0)
        set = a->target->as<sem::Global>()->global;
    }
    if (set != nullptr) {
      check.position_[set] = steps.size();
      steps.push_back(Step{set, set->span, s->as<sem::Assign>()->value.get(), nullptr});
    } else {
      steps.push_back(Step{nullptr, s->span, nullptr, s.get()});
    }
  }
  check.run(steps);
}

}  // namespace cairn::front
