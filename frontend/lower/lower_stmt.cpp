// Lowering functions and statements: parameters and `var`s in entry-block allocas, `let` and
// `for` variables as SSA values (L1), control flow, loops with break/continue, atomic blocks
// committed on every normal exit, and assignments.
#include <llvm/IR/Constants.h>
#include <llvm/IR/MDBuilder.h>

#include <algorithm>

#include "cairn/lang.h"
#include "lower/lowering.h"

namespace cairn::front {

bool Lowering::terminated() const {
  llvm::BasicBlock *bb = b_.GetInsertBlock();
  return bb == nullptr || bb->getTerminator() != nullptr;
}

void Lowering::interruptPoll(Span span) {
  if (!options_.interruptible) return;
  llvm::Constant *flag = module_->getOrInsertGlobal("cairn_interrupt_pending", i32_);
  llvm::LoadInst *pending = b_.CreateLoad(i32_, flag, "interrupt");
  pending->setVolatile(true);
  llvm::BasicBlock *stop = llvm::BasicBlock::Create(ctx_, "interrupted", fn_);
  llvm::BasicBlock *go = llvm::BasicBlock::Create(ctx_, "loop.go", fn_);
  b_.CreateCondBr(b_.CreateICmpNE(pending, b_.getInt32(0)), stop, go,
                  llvm::MDBuilder(ctx_).createBranchWeights(1, 1 << 20));
  b_.SetInsertPoint(stop);
  b_.CreateCall(rt("cairn_rt_interrupted"), {loc(span)});
  b_.CreateUnreachable();
  b_.SetInsertPoint(go);
}

void Lowering::startDeadBlock() { b_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "dead", fn_)); }

void Lowering::lowerFunction(const sem::Function &fn) {
  const FuncInfo *info = fn.info;
  fn_ = definition(info);
  // Every call takes stack, at -O2 as at -O0: LLVM's tail recursion elimination would turn a
  // recursion without end into a loop without end (a hang, not the "stack overflow" error),
  // and a deep tail recursion that runs at -O2 would overflow at -O0.
  fn_->addFnAttr("disable-tail-calls", "true");
  sem_fn_ = &fn;
  slots_.clear();
  values_.clear();
  proven_block_ = nullptr;
  proven_nonnull_.clear();
  fail_blocks_.clear();  // (a function lowered inside another only costs the outer a second one)
  loops_.clear();
  atomics_.clear();
  di_fn_ = nullptr;
  if (di_ && info->span.valid()) {
    llvm::DIFile *file = diFile(info->span.file);
    LineCol lc = sources_.file(info->span.file).lineCol(info->span.begin);
    std::string name = info->owner ? info->owner->name + "." + info->name : info->name;
    di_fn_ = di_->createFunction(file, name, info->symbol, file, lc.line,
                                 di_->createSubroutineType(di_->getOrCreateTypeArray({})), lc.line,
                                 llvm::DINode::FlagPrototyped,
                                 llvm::DISubprogram::SPFlagDefinition |
                                     llvm::DISubprogram::SPFlagLocalToUnit |
                                     (options_.optimized ? llvm::DISubprogram::SPFlagOptimized
                                                         : llvm::DISubprogram::SPFlagZero));
    fn_->setSubprogram(di_fn_);
  }
  llvm::BasicBlock *entry = llvm::BasicBlock::Create(ctx_, "entry", fn_);
  b_.SetInsertPoint(entry);
  b_.SetCurrentDebugLocation(llvm::DebugLoc());
  setLoc(info->span);
  // Allocas for the parameters and `var`s (L1), then the parameters stored into theirs.
  auto isParam = [&fn](const LocalVar *v) {
    return std::find(fn.params.begin(), fn.params.end(), v) != fn.params.end();
  };
  for (const auto &v : fn.locals) {
    if (!v->is_var || (isParam(v.get()) && !v->assigned)) continue;  // a value (L1)
    slots_[v.get()] = b_.CreateAlloca(llvmType(v->type), nullptr, v->name);
  }
  for (size_t i = 0; i < fn.params.size(); ++i) {
    llvm::Argument *arg = fn_->getArg(static_cast<unsigned>(i));
    arg->setName(fn.params[i]->name);
    bindLocal(fn.params[i], arg);
  }
  self_value_ = info->owner != nullptr && !fn.params.empty() ? fn_->getArg(0) : nullptr;
  // `var`s start as zero: `var x: T` needs it, and a reference slot must never hold garbage
  // the collector would take for a root.
  for (const auto &v : fn.locals)
    if (v->is_var && !isParam(v.get())) b_.CreateStore(zero(v->type), slots_[v.get()]);
  interruptPoll(info->span);  // a recursion without loops is interrupted too
  lowerBlock(*fn.body);
  if (!terminated()) {
    if (info->ret->kind == TypeKind::Void)
      b_.CreateRetVoid();
    else
      b_.CreateUnreachable();  // the checker proved every path returns
  }
}

void Lowering::bindLocal(const LocalVar *var, llvm::Value *v) {
  auto slot = slots_.find(var);
  if (slot != slots_.end())
    b_.CreateStore(v, slot->second);
  else
    values_[var] = v;
}

void Lowering::lowerBlock(const sem::Block &b) {
  for (const auto &s : b.stmts) {
    if (terminated()) startDeadBlock();
    lowerStmt(*s);
  }
}

void Lowering::commitAtomics(size_t down_to, Span span) {
  for (size_t i = atomics_.size(); i > down_to; --i) {
    setLoc(span);
    b_.CreateCall(rt("cairn_lang_atomic_commit"), {loc(atomics_[i - 1])});
  }
}

void Lowering::lowerStmt(const sem::Stmt &s) {
  setLoc(s.span);
  switch (s.kind) {
    case sem::StmtKind::Block:
      lowerBlock(*s.as<sem::Block>());
      return;
    case sem::StmtKind::Let: {
      const auto *l = s.as<sem::Let>();
      llvm::Value *v = l->init ? lowerExpr(*l->init) : zero(l->var->type);
      bindLocal(l->var, v);
      return;
    }
    case sem::StmtKind::Assign:
      lowerAssign(*s.as<sem::Assign>());
      return;
    case sem::StmtKind::Expr:
      lowerExpr(*s.as<sem::ExprStmt>()->expr);
      return;
    case sem::StmtKind::If: {
      const auto *i = s.as<sem::If>();
      llvm::Value *c = lowerExpr(*i->cond);
      llvm::BasicBlock *then_bb = llvm::BasicBlock::Create(ctx_, "then", fn_);
      llvm::BasicBlock *else_bb =
          i->else_stmt ? llvm::BasicBlock::Create(ctx_, "else", fn_) : nullptr;
      llvm::BasicBlock *end = llvm::BasicBlock::Create(ctx_, "endif", fn_);
      b_.CreateCondBr(c, then_bb, else_bb ? else_bb : end);
      b_.SetInsertPoint(then_bb);
      lowerBlock(*i->then_block);
      if (!terminated()) b_.CreateBr(end);
      if (else_bb) {
        b_.SetInsertPoint(else_bb);
        lowerStmt(*i->else_stmt);
        if (!terminated()) b_.CreateBr(end);
      }
      b_.SetInsertPoint(end);
      return;
    }
    case sem::StmtKind::While: {
      const auto *w = s.as<sem::While>();
      llvm::BasicBlock *cond = llvm::BasicBlock::Create(ctx_, "while.cond", fn_);
      llvm::BasicBlock *body = llvm::BasicBlock::Create(ctx_, "while.body", fn_);
      llvm::BasicBlock *end = llvm::BasicBlock::Create(ctx_, "while.end", fn_);
      b_.CreateBr(cond);
      b_.SetInsertPoint(cond);
      setLoc(w->cond->span);
      interruptPoll(s.span);
      b_.CreateCondBr(lowerExpr(*w->cond), body, end);
      b_.SetInsertPoint(body);
      loops_.push_back({end, cond, atomics_.size()});
      lowerBlock(*w->body);
      loops_.pop_back();
      if (!terminated()) b_.CreateBr(cond);
      b_.SetInsertPoint(end);
      return;
    }
    case sem::StmtKind::ForRange: {
      const auto *f = s.as<sem::ForRange>();
      llvm::Value *lo = lowerExpr(*f->lo);
      llvm::Value *hi = lowerExpr(*f->hi);
      llvm::AllocaInst *counter;
      {
        llvm::IRBuilder<> eb(&fn_->getEntryBlock(), fn_->getEntryBlock().begin());
        counter = eb.CreateAlloca(i64_, nullptr, "for.i");
      }
      b_.CreateStore(lo, counter);
      llvm::BasicBlock *cond = llvm::BasicBlock::Create(ctx_, "for.cond", fn_);
      llvm::BasicBlock *body = llvm::BasicBlock::Create(ctx_, "for.body", fn_);
      llvm::BasicBlock *step = llvm::BasicBlock::Create(ctx_, "for.step", fn_);
      llvm::BasicBlock *end = llvm::BasicBlock::Create(ctx_, "for.end", fn_);
      b_.CreateBr(cond);
      b_.SetInsertPoint(cond);
      interruptPoll(s.span);
      llvm::Value *i = b_.CreateLoad(i64_, counter);
      b_.CreateCondBr(b_.CreateICmpSLT(i, hi), body, end);
      b_.SetInsertPoint(body);
      bindLocal(f->var, i);
      loops_.push_back({end, step, atomics_.size()});
      lowerBlock(*f->body);
      loops_.pop_back();
      if (!terminated()) b_.CreateBr(step);
      b_.SetInsertPoint(step);
      setLoc(s.span);
      b_.CreateStore(b_.CreateAdd(b_.CreateLoad(i64_, counter), llvm::ConstantInt::get(i64_, 1)),
                     counter);
      b_.CreateBr(cond);
      b_.SetInsertPoint(end);
      return;
    }
    case sem::StmtKind::ForArray:
    case sem::StmtKind::ForObject: {
      bool is_array = s.kind == sem::StmtKind::ForArray;
      const auto *fa = is_array ? s.as<sem::ForArray>() : nullptr;
      const auto *fo = is_array ? nullptr : s.as<sem::ForObject>();
      const sem::Expr &coll = is_array ? *fa->array : *fo->object;
      LocalVar *var = is_array ? fa->var : fo->var;
      llvm::AllocaInst *counter, *holder;
      {
        llvm::IRBuilder<> eb(&fn_->getEntryBlock(), fn_->getEntryBlock().begin());
        counter = eb.CreateAlloca(i64_, nullptr, "for.i");
        holder = eb.CreateAlloca(ref_, nullptr, "for.coll");
        eb.CreateStore(llvm::Constant::getNullValue(ref_), holder);
      }
      llvm::Value *c = lowerExpr(coll);
      b_.CreateStore(c, holder);
      llvm::Value *length = nullptr;
      // A nil collection is the loop's error, not its len()'s (`for over List[int]`).
      nilCheck(c, {CAIRN_CHECK_NIL, coll.span, "for over " + typeName(coll.type)});
      if (is_array) length = b_.CreateLoad(i64_, c);
      b_.CreateStore(llvm::ConstantInt::get(i64_, 0), counter);
      llvm::BasicBlock *cond = llvm::BasicBlock::Create(ctx_, "for.cond", fn_);
      llvm::BasicBlock *body = llvm::BasicBlock::Create(ctx_, "for.body", fn_);
      llvm::BasicBlock *step = llvm::BasicBlock::Create(ctx_, "for.step", fn_);
      llvm::BasicBlock *end = llvm::BasicBlock::Create(ctx_, "for.end", fn_);
      b_.CreateBr(cond);
      b_.SetInsertPoint(cond);
      setLoc(coll.span);
      interruptPoll(s.span);
      llvm::Value *i = b_.CreateLoad(i64_, counter);
      llvm::Value *cur = b_.CreateLoad(ref_, holder);
      if (!is_array) length = callMethod(cur, fo->len, fo->cls, {}, coll.span);
      b_.CreateCondBr(b_.CreateICmpSLT(i, length), body, end);
      b_.SetInsertPoint(body);
      llvm::Value *item;
      if (is_array) {
        // No checks (L2): cur was checked before the loop, and 0 <= i < its fixed length.
        llvm::Value *addr = elementPointer(cur, coll.type, i);
        item = b_.CreateLoad(llvmType(coll.type->elem), addr);
      } else {
        item = callMethod(cur, fo->get, fo->cls, {i}, coll.span);
      }
      bindLocal(var, item);
      loops_.push_back({end, step, atomics_.size()});
      lowerBlock(is_array ? *fa->body : *fo->body);
      loops_.pop_back();
      if (!terminated()) b_.CreateBr(step);
      b_.SetInsertPoint(step);
      b_.CreateStore(b_.CreateAdd(b_.CreateLoad(i64_, counter), llvm::ConstantInt::get(i64_, 1)),
                     counter);
      b_.CreateBr(cond);
      b_.SetInsertPoint(end);
      b_.CreateStore(llvm::Constant::getNullValue(ref_), holder);
      return;
    }
    case sem::StmtKind::Break:
    case sem::StmtKind::Continue: {
      if (loops_.empty()) return;  // reported by the checker
      const Loop &l = loops_.back();
      // Leaving atomic blocks commits them on this path; they stay open on the others.
      commitAtomics(l.atomic_depth, s.span);
      b_.CreateBr(s.kind == sem::StmtKind::Break ? l.break_to : l.continue_to);
      return;
    }
    case sem::StmtKind::Return: {
      const auto *r = s.as<sem::Return>();
      llvm::Value *v = r->value ? lowerExpr(*r->value) : nullptr;
      commitAtomics(0, s.span);
      if (v)
        b_.CreateRet(v);
      else
        b_.CreateRetVoid();
      return;
    }
    case sem::StmtKind::Atomic: {
      const auto *a = s.as<sem::Atomic>();
      b_.CreateCall(rt("cairn_lang_atomic_begin"), {loc(s.span)});
      atomics_.push_back(s.span);
      lowerBlock(*a->body);
      atomics_.pop_back();
      if (!terminated()) {
        setLoc(s.span);
        b_.CreateCall(rt("cairn_lang_atomic_commit"), {loc(s.span)});
      }
      return;
    }
  }
}

void Lowering::lowerAssign(const sem::Assign &a) {
  const sem::Expr &t = *a.target;
  const auto *bin = a.value->kind == sem::ExprKind::Binary ? a.value->as<sem::Binary>() : nullptr;
  bool compound = bin != nullptr && bin->lhs == nullptr;
  auto value = [&](llvm::Value *current) {
    return compound ? lowerBinary(*bin, current) : lowerExpr(*a.value);
  };
  switch (t.kind) {
    case sem::ExprKind::Local: {
      llvm::AllocaInst *slot = slots_[t.as<sem::Local>()->var];
      llvm::Value *cur = compound ? b_.CreateLoad(llvmType(t.type), slot) : nullptr;
      b_.CreateStore(value(cur), slot);
      return;
    }
    case sem::ExprKind::Global: {
      llvm::GlobalVariable *g = global(t.as<sem::Global>()->global);
      llvm::Value *cur = compound ? b_.CreateLoad(llvmType(t.type), g) : nullptr;
      b_.CreateStore(value(cur), g);
      return;
    }
    case sem::ExprKind::Field: {
      const auto *f = t.as<sem::Field>();
      llvm::Value *obj = lowerExpr(*f->object);
      if (compound) {
        llvm::Value *addr = fieldAddress(obj, f->object->type, f->field, f->span);
        llvm::Value *cur = b_.CreateLoad(llvmType(t.type), addr);
        llvm::Value *v = value(cur);
        setLoc(f->span);
        b_.CreateStore(v, fieldAddress(obj, f->object->type, f->field, f->span));
      } else {
        llvm::Value *v = value(nullptr);
        setLoc(f->span);
        b_.CreateStore(v, fieldAddress(obj, f->object->type, f->field, f->span));
      }
      return;
    }
    case sem::ExprKind::Index: {
      const auto *ix = t.as<sem::Index>();
      llvm::Value *arr = lowerExpr(*ix->base);
      llvm::Value *idx = lowerExpr(*ix->index);
      llvm::Value *cur = nullptr;
      if (compound)
        cur = b_.CreateLoad(llvmType(t.type), elementAddress(arr, ix->base->type, idx, ix->span));
      llvm::Value *v = value(cur);
      setLoc(ix->span);
      b_.CreateStore(v, elementAddress(arr, ix->base->type, idx, ix->span));
      return;
    }
    case sem::ExprKind::DbRoot: {
      const auto *r = t.as<sem::DbRoot>();
      llvm::Value *db = lowerExpr(*r->db);
      llvm::Value *cur = nullptr;
      if (compound) cur = b_.CreateCall(rt("cairn_lang_db_get_root"), {loc(r->span), db});
      llvm::Value *v = value(cur);
      setLoc(r->span);
      b_.CreateCall(rt("cairn_lang_db_set_root"), {loc(r->span), db, v});
      return;
    }
    default:
      lowerExpr(*a.value);  // the checker reported it
      return;
  }
}

}  // namespace cairn::front
