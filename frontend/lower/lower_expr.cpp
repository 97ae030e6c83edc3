// Lowering expressions: constants, variables, operators (wrapping int arithmetic, checked
// division), type tests, field and element access with nil and bounds checks, calls (direct,
// virtual through the descriptor's method table, indirect), construction, and built-ins.
#include <llvm/IR/Constants.h>
#include <llvm/IR/MDBuilder.h>

#include <cstddef>

#include "cairn/lang.h"
#include "cairn/type.h"
#include "lower/lowering.h"

namespace cairn::front {

llvm::Value *Lowering::zero(const Type *t) { return llvm::Constant::getNullValue(llvmType(t)); }

llvm::Constant *Lowering::checkSite(const Check &check) {
  auto text = [&](const std::string &t) -> llvm::Constant * {
    return t.empty() ? llvm::ConstantPointerNull::get(llvm::PointerType::get(ctx_, 0)) : cstring(t);
  };
  LineCol lc;
  if (check.span.valid()) lc = sources_.file(check.span.file).lineCol(check.span.begin);
  std::string path =
      check.span.valid() ? sources_.file(check.span.file).path() : program_.main_file;
  check_sites_.push_back(llvm::ConstantStruct::get(
      site_type_,
      {cstring(path), llvm::ConstantInt::get(i32_, lc.line), llvm::ConstantInt::get(i32_, lc.col),
       llvm::ConstantInt::get(i32_, check.kind), text(check.a), text(check.b)}));
  return b_.getInt32(static_cast<uint32_t>(check_sites_.size() - 1));
}

llvm::Value *Lowering::checkSiteAddress(llvm::Value *index) {
  if (check_table_ == nullptr)
    check_table_ =
        new llvm::GlobalVariable(*module_, site_type_, true, llvm::GlobalValue::ExternalLinkage,
                                 nullptr, ownSymbol("cairn.checks.pending"));
  return b_.CreateInBoundsGEP(site_type_, check_table_, index, "site");
}

void Lowering::finishCheckSites() {
  if (check_table_ == nullptr) return;  // (then no check was emitted)
  auto *type = llvm::ArrayType::get(site_type_, check_sites_.size());
  auto *table = new llvm::GlobalVariable(*module_, type, true, llvm::GlobalValue::PrivateLinkage,
                                         llvm::ConstantArray::get(type, check_sites_),
                                         ownSymbol("cairn.checks"));
  check_table_->replaceAllUsesWith(table);
  check_table_->eraseFromParent();
  check_table_ = nullptr;
  check_sites_.clear();
}

llvm::Value *Lowering::callerLoc() {
  // Only std code reports at its caller: a program's override of a std method takes the
  // parameter too (the slot's signature) but is the program's own code, reported where it is.
  const FuncInfo *f = sem_fn_ != nullptr ? sem_fn_->info : nullptr;
  if (f == nullptr || !takesCallerLoc(f) || f->module == nullptr || !f->module->is_std)
    return llvm::ConstantPointerNull::get(llvm::PointerType::get(ctx_, 0));
  return fn_->getArg(fn_->arg_size() - 1);
}

void Lowering::runtimeErrorIf(llvm::Value *cond, const Check &check) {
  // A condition the builder folded to false (a division by a non-zero constant, an index
  // known in range) needs no check: no blocks for -O0's code generator to select.
  if (auto *c = llvm::dyn_cast<llvm::ConstantInt>(cond); c && c->isZero()) return;
  auto asInt = [&](llvm::Value *v) -> llvm::Value * {
    if (v == nullptr) return nullptr;
    return v->getType()->isPointerTy() ? b_.CreatePtrToInt(v, i64_) : v;
  };
  llvm::Value *x = asInt(check.x), *y = asInt(check.y);
  llvm::Constant *site = checkSite(check);
  llvm::BasicBlock *ok = llvm::BasicBlock::Create(ctx_, "rt.ok", fn_);
  // The proven values stay proven in `ok` if they were proven where the check is made.
  if (b_.GetInsertBlock() != proven_block_) proven_nonnull_.clear();
  proven_block_ = ok;
  llvm::MDBuilder md(ctx_);
  llvm::MDNode *unlikely = md.createBranchWeights(1, 1 << 20);
  if (options_.optimized) {
    llvm::BasicBlock *bad = llvm::BasicBlock::Create(ctx_, "rt.error", fn_);
    b_.CreateCondBr(cond, bad, ok, unlikely);
    b_.SetInsertPoint(bad);
    llvm::Value *zero64 = b_.getInt64(0);
    b_.CreateCall(rt("cairn_rt_check_failed"),
                  {checkSiteAddress(site), x ? x : zero64, y ? y : zero64, callerLoc()});
    b_.CreateUnreachable();
    b_.SetInsertPoint(ok);
    return;
  }
  auto [it, fresh] = fail_blocks_.try_emplace(fn_);
  FailBlock &fail = it->second;
  if (fresh) {
    llvm::BasicBlock *here = b_.GetInsertBlock();
    llvm::DebugLoc where = b_.getCurrentDebugLocation();
    {
      llvm::IRBuilder<> eb(&fn_->getEntryBlock(), fn_->getEntryBlock().begin());
      fail.site = eb.CreateAlloca(i32_, nullptr, "check.site");
      fail.x = eb.CreateAlloca(i64_, nullptr, "check.x");
      fail.y = eb.CreateAlloca(i64_, nullptr, "check.y");
    }
    fail.block = llvm::BasicBlock::Create(ctx_, "rt.error", fn_);
    b_.SetInsertPoint(fail.block);
    b_.CreateCall(rt("cairn_rt_check_failed"),
                  {checkSiteAddress(b_.CreateLoad(i32_, fail.site)), b_.CreateLoad(i64_, fail.x),
                   b_.CreateLoad(i64_, fail.y), callerLoc()});
    b_.CreateUnreachable();
    b_.SetInsertPoint(here);
    b_.SetCurrentDebugLocation(where);
  }
  b_.CreateStore(site, fail.site);
  if (x) b_.CreateStore(x, fail.x);
  if (y) b_.CreateStore(y, fail.y);
  b_.CreateCondBr(cond, fail.block, ok, unlikely);
  b_.SetInsertPoint(ok);
}

void Lowering::nilCheck(llvm::Value *ref, const Check &check) {
  if (self_value_ != nullptr && ref == self_value_) return;  // self (L2)
  bool proven = b_.GetInsertBlock() == proven_block_;
  if (proven &&
      std::find(proven_nonnull_.begin(), proven_nonnull_.end(), ref) != proven_nonnull_.end())
    return;  // checked on the way here (L2)
  runtimeErrorIf(b_.CreateIsNull(ref), check);
  if (b_.GetInsertBlock() == proven_block_) proven_nonnull_.push_back(ref);
}

llvm::Value *Lowering::fieldAddress(llvm::Value *object, const Type *static_type,
                                    const FieldInfo *f, Span span) {
  ClassInfo *cls = static_type->cls;
  nilCheck(object, {CAIRN_CHECK_NIL_FIELD, span, f->name, cls->name});
  return fieldPointer(object, cls, f);
}

// The address of field f in an object of class cls (no nil check): through element 0 of each
// class struct down to the class that declares f (K3 in check/types.h).
llvm::Value *Lowering::fieldPointer(llvm::Value *object, ClassInfo *cls, const FieldInfo *f) {
  std::vector<llvm::Value *> idx{b_.getInt32(0)};
  for (ClassInfo *c = cls; c && c != f->owner; c = c->super) idx.push_back(b_.getInt32(0));
  idx.push_back(b_.getInt32(f->index));
  return b_.CreateInBoundsGEP(classStruct(cls), object, idx, f->name);
}

llvm::Value *Lowering::elementAddress(llvm::Value *array, const Type *array_type,
                                      llvm::Value *index, Span span) {
  nilCheck(array, {CAIRN_CHECK_NIL, span, "index of " + typeName(array_type)});
  llvm::Value *length = b_.CreateLoad(i64_, array, "len");
  runtimeErrorIf(b_.CreateICmpUGE(index, length), {CAIRN_CHECK_INDEX, span, "", "", index, length});
  return elementPointer(array, array_type, index);
}

llvm::Value *Lowering::elementPointer(llvm::Value *array, const Type *array_type,
                                      llvm::Value *index) {
  llvm::Value *data =
      b_.CreateInBoundsGEP(b_.getInt8Ty(), array, b_.getInt64(CAIRN_ARRAY_DATA_OFFSET));
  return b_.CreateInBoundsGEP(elemStorageType(array_type->elem), data, index);
}

llvm::Value *Lowering::isA(llvm::Value *nonnull, const Type *target) {
  if (target->kind == TypeKind::Any) return b_.getTrue();
  llvm::Value *desc = descriptorRef(target);
  llvm::Value *header_addr = b_.CreateInBoundsGEP(b_.getInt8Ty(), nonnull, b_.getInt64(-8));
  llvm::Value *header = b_.CreateLoad(raw_, header_addr, "header");
  llvm::Value *exact = b_.CreateICmpEQ(header, desc);
  // A class with subclasses (or a type from another module) needs the runtime's walk.
  llvm::BasicBlock *here = b_.GetInsertBlock();
  llvm::BasicBlock *slow = llvm::BasicBlock::Create(ctx_, "is.slow", fn_);
  llvm::BasicBlock *done = llvm::BasicBlock::Create(ctx_, "is.done", fn_);
  b_.CreateCondBr(exact, done, slow);
  b_.SetInsertPoint(slow);
  llvm::Value *r =
      b_.CreateICmpNE(b_.CreateCall(rt("cairn_is_a"), {nonnull, desc}), b_.getInt32(0));
  llvm::BasicBlock *slow_end = b_.GetInsertBlock();
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  llvm::PHINode *phi = b_.CreatePHI(i1_, 2);
  phi->addIncoming(b_.getTrue(), here);
  phi->addIncoming(r, slow_end);
  return phi;
}

llvm::Value *Lowering::lowerIs(llvm::Value *v, const Type *target) {
  llvm::BasicBlock *here = b_.GetInsertBlock();
  llvm::BasicBlock *test = llvm::BasicBlock::Create(ctx_, "is.test", fn_);
  llvm::BasicBlock *done = llvm::BasicBlock::Create(ctx_, "is.end", fn_);
  b_.CreateCondBr(b_.CreateIsNull(v), done, test);
  b_.SetInsertPoint(test);
  llvm::Value *r = isA(v, target);
  llvm::BasicBlock *test_end = b_.GetInsertBlock();
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  llvm::PHINode *phi = b_.CreatePHI(i1_, 2);
  phi->addIncoming(b_.getFalse(), here);
  phi->addIncoming(r, test_end);
  return phi;
}

llvm::Value *Lowering::allocateArray(const Type *array_type, llvm::Value *length) {
  llvm::Value *desc;
  llvm::Constant *m = marker(array_type);
  desc = m ? static_cast<llvm::Value *>(m) : descriptorRef(array_type);
  return b_.CreateCall(rt("cairn_malloc_array"), {desc, length});
}

llvm::Value *Lowering::callMethod(llvm::Value *object, const FuncInfo *method, ClassInfo *cls,
                                  std::vector<llvm::Value *> args, Span span) {
  nilCheck(object, {CAIRN_CHECK_NIL_METHOD, span, method->name, cls->name});
  if (takesCallerLoc(method)) args.push_back(loc(span));
  if (const FuncInfo *only = soleImplementation(method, cls)) {
    // No class of the program overrides it below cls: a direct call, which -O2 may inline.
    args.insert(args.begin(), object);
    return b_.CreateCall(function(only), args);
  }
  llvm::Value *header_addr = b_.CreateInBoundsGEP(b_.getInt8Ty(), object, b_.getInt64(-8));
  llvm::Value *desc = b_.CreateLoad(raw_, header_addr, "header");
  llvm::Value *methods_addr =
      b_.CreateInBoundsGEP(b_.getInt8Ty(), desc, b_.getInt64(offsetof(cairn_type, methods)));
  llvm::Value *methods = b_.CreateLoad(raw_, methods_addr, "methods");
  llvm::Value *slot = b_.CreateInBoundsGEP(raw_, methods, b_.getInt64(method->slot));
  llvm::Value *target = b_.CreateLoad(raw_, slot, method->name);
  args.insert(args.begin(), object);
  return b_.CreateCall(functionType(method), target, args);
}

// The program is whole (every module is lowered into this one LLVM module, and a database object
// of a class the program lacks cannot be faulted in), so an object whose static class is cls is
// of cls or of one of the program's subclasses of it. If all of them have the same
// implementation in the method's slot, that is the one a call runs. A REPL unit (unit_) is not
// a whole program: a later input may define a subclass that overrides the method, or replace the
// method's body, and code compiled now must run those; its calls go through the method table.
const FuncInfo *Lowering::soleImplementation(const FuncInfo *method, const ClassInfo *cls) {
  if (method->slot < 0 || unit_ != nullptr) return nullptr;
  const auto slot = static_cast<size_t>(method->slot);
  auto key = std::make_pair(cls, slot);
  auto it = sole_.find(key);
  if (it != sole_.end()) return it->second;
  const FuncInfo *only = slot < cls->vtable.size() ? cls->vtable[slot] : nullptr;
  for (const ClassInfo *d : program_.classes) {
    bool below = false;
    for (const ClassInfo *a = d; a && !below; a = a->super) below = a == cls;
    if (below && (slot >= d->vtable.size() || d->vtable[slot] != only)) {
      only = nullptr;
      break;
    }
  }
  sole_[key] = only;
  return only;
}

llvm::Value *Lowering::lowerCallVirtual(const sem::CallVirtual &c) {
  llvm::Value *obj = lowerExpr(*c.object);
  std::vector<llvm::Value *> args;
  for (const auto &a : c.args) args.push_back(lowerExpr(*a));
  setLoc(c.span);
  return callMethod(obj, c.method, c.static_class, std::move(args), c.span);
}

llvm::Value *Lowering::arith(sem::BinOp op, const Type *t, llvm::Value *l, llvm::Value *r,
                             Span span) {
  if (t->kind == TypeKind::Float) {
    switch (op) {
      case sem::BinOp::Add:
        return b_.CreateFAdd(l, r);
      case sem::BinOp::Sub:
        return b_.CreateFSub(l, r);
      case sem::BinOp::Mul:
        return b_.CreateFMul(l, r);
      case sem::BinOp::Div:
        return b_.CreateFDiv(l, r);
      default:
        return b_.CreateFRem(l, r);
    }
  }
  // Shift counts are taken mod 64 (an LLVM shift by 64 or more would be poison).
  auto count = [&] { return b_.CreateAnd(r, b_.getInt64(63)); };
  switch (op) {
    case sem::BinOp::Add:
      return b_.CreateAdd(l, r);
    case sem::BinOp::Sub:
      return b_.CreateSub(l, r);
    case sem::BinOp::Mul:
      return b_.CreateMul(l, r);
    case sem::BinOp::BitAnd:
      return b_.CreateAnd(l, r);
    case sem::BinOp::BitOr:
      return b_.CreateOr(l, r);
    case sem::BinOp::BitXor:
      return b_.CreateXor(l, r);
    case sem::BinOp::Shl:
      return b_.CreateShl(l, count());
    case sem::BinOp::Shr:
      return b_.CreateAShr(l, count());
    case sem::BinOp::Ushr:
      return b_.CreateLShr(l, count());
    default:
      break;
  }
  // Division: by zero is a runtime error; INT64_MIN / -1 wraps (and % -1 is 0) instead of
  // trapping as the machine instruction would.
  setLoc(span);
  runtimeErrorIf(b_.CreateICmpEQ(r, b_.getInt64(0)), {CAIRN_CHECK_DIV_ZERO, span});
  llvm::Value *neg_one = b_.CreateICmpEQ(r, b_.getInt64(-1));
  llvm::Value *safe = b_.CreateSelect(neg_one, b_.getInt64(1), r);
  if (op == sem::BinOp::Div)
    return b_.CreateSelect(neg_one, b_.CreateSub(b_.getInt64(0), l), b_.CreateSDiv(l, safe));
  return b_.CreateSelect(neg_one, b_.getInt64(0), b_.CreateSRem(l, safe));
}

llvm::Value *Lowering::compare(sem::BinOp op, const Type *t, llvm::Value *l, llvm::Value *r) {
  switch (t->kind) {
    case TypeKind::Int:
      switch (op) {
        case sem::BinOp::Eq:
          return b_.CreateICmpEQ(l, r);
        case sem::BinOp::Ne:
          return b_.CreateICmpNE(l, r);
        case sem::BinOp::Lt:
          return b_.CreateICmpSLT(l, r);
        case sem::BinOp::Le:
          return b_.CreateICmpSLE(l, r);
        case sem::BinOp::Gt:
          return b_.CreateICmpSGT(l, r);
        default:
          return b_.CreateICmpSGE(l, r);
      }
    case TypeKind::Float:
      switch (op) {
        case sem::BinOp::Eq:
          return b_.CreateFCmpOEQ(l, r);
        case sem::BinOp::Ne:
          return b_.CreateFCmpUNE(l, r);
        case sem::BinOp::Lt:
          return b_.CreateFCmpOLT(l, r);
        case sem::BinOp::Le:
          return b_.CreateFCmpOLE(l, r);
        case sem::BinOp::Gt:
          return b_.CreateFCmpOGT(l, r);
        default:
          return b_.CreateFCmpOGE(l, r);
      }
    case TypeKind::Text: {
      if (op == sem::BinOp::Eq || op == sem::BinOp::Ne) {
        llvm::Value *eq =
            b_.CreateICmpNE(b_.CreateCall(rt("cairn_text_eq"), {l, r}), b_.getInt32(0));
        return op == sem::BinOp::Eq ? eq : b_.CreateNot(eq);
      }
      llvm::Value *c = b_.CreateCall(rt("cairn_text_cmp"), {l, r});
      llvm::Value *z = b_.getInt64(0);
      switch (op) {
        case sem::BinOp::Lt:
          return b_.CreateICmpSLT(c, z);
        case sem::BinOp::Le:
          return b_.CreateICmpSLE(c, z);
        case sem::BinOp::Gt:
          return b_.CreateICmpSGT(c, z);
        default:
          return b_.CreateICmpSGE(c, z);
      }
    }
    case TypeKind::Any: {
      llvm::Value *eq = b_.CreateICmpNE(b_.CreateCall(rt("cairn_any_eq"), {l, r}), b_.getInt32(0));
      return op == sem::BinOp::Eq ? eq : b_.CreateNot(eq);
    }
    default:
      // bool, references (identity), databases
      return op == sem::BinOp::Eq ? b_.CreateICmpEQ(l, r) : b_.CreateICmpNE(l, r);
  }
}

llvm::Value *Lowering::lowerBinary(const sem::Binary &b, llvm::Value *lhs_value) {
  if (b.op == sem::BinOp::And || b.op == sem::BinOp::Or) {
    llvm::Value *l = lowerExpr(*b.lhs);
    llvm::BasicBlock *here = b_.GetInsertBlock();
    llvm::BasicBlock *rhs_bb = llvm::BasicBlock::Create(ctx_, "logic.rhs", fn_);
    llvm::BasicBlock *done = llvm::BasicBlock::Create(ctx_, "logic.end", fn_);
    if (b.op == sem::BinOp::And)
      b_.CreateCondBr(l, rhs_bb, done);
    else
      b_.CreateCondBr(l, done, rhs_bb);
    b_.SetInsertPoint(rhs_bb);
    llvm::Value *r = lowerExpr(*b.rhs);
    llvm::BasicBlock *rhs_end = b_.GetInsertBlock();
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
    llvm::PHINode *phi = b_.CreatePHI(i1_, 2);
    phi->addIncoming(b.op == sem::BinOp::And ? b_.getFalse() : b_.getTrue(), here);
    phi->addIncoming(r, rhs_end);
    return phi;
  }
  llvm::Value *l = lhs_value ? lhs_value : lowerExpr(*b.lhs);
  llvm::Value *r = lowerExpr(*b.rhs);
  setLoc(b.span);
  switch (b.op) {
    case sem::BinOp::Concat:
      return b_.CreateCall(rt("cairn_text_concat"), {loc(b.span), l, r});
    case sem::BinOp::Add:
    case sem::BinOp::Sub:
    case sem::BinOp::Mul:
    case sem::BinOp::Div:
    case sem::BinOp::Mod:
    case sem::BinOp::BitAnd:
    case sem::BinOp::BitOr:
    case sem::BinOp::BitXor:
    case sem::BinOp::Shl:
    case sem::BinOp::Shr:
    case sem::BinOp::Ushr:
      return arith(b.op, b.operand_type, l, r, b.span);
    default:
      return compare(b.op, b.operand_type, l, r);
  }
}

llvm::Value *Lowering::textArray(llvm::Value *count, llvm::FunctionCallee at) {
  // Builds a [text] of `count` elements from at(i); the array is held in a local slot so that
  // it stays a root while the element texts are allocated.
  llvm::Value *m = module_->getOrInsertGlobal("cairn_text_array_type", llvm::StructType::get(ctx_));
  llvm::AllocaInst *holder, *counter;
  {
    llvm::IRBuilder<> eb(&fn_->getEntryBlock(), fn_->getEntryBlock().begin());
    holder = eb.CreateAlloca(ref_, nullptr, "texts");
    counter = eb.CreateAlloca(i64_, nullptr, "texts.i");
  }
  llvm::Value *arr = b_.CreateCall(rt("cairn_malloc_array"), {m, count});
  b_.CreateStore(arr, holder);
  b_.CreateStore(b_.getInt64(0), counter);
  llvm::BasicBlock *cond = llvm::BasicBlock::Create(ctx_, "texts.cond", fn_);
  llvm::BasicBlock *body = llvm::BasicBlock::Create(ctx_, "texts.body", fn_);
  llvm::BasicBlock *end = llvm::BasicBlock::Create(ctx_, "texts.end", fn_);
  b_.CreateBr(cond);
  b_.SetInsertPoint(cond);
  llvm::Value *i = b_.CreateLoad(i64_, counter);
  b_.CreateCondBr(b_.CreateICmpSLT(i, count), body, end);
  b_.SetInsertPoint(body);
  llvm::Value *t = b_.CreateCall(at, {i});
  llvm::Value *cur = b_.CreateLoad(ref_, holder);
  llvm::Value *data =
      b_.CreateInBoundsGEP(b_.getInt8Ty(), cur, b_.getInt64(CAIRN_ARRAY_DATA_OFFSET));
  b_.CreateStore(t, b_.CreateInBoundsGEP(ref_, data, i));
  b_.CreateStore(b_.CreateAdd(i, b_.getInt64(1)), counter);
  b_.CreateBr(cond);
  b_.SetInsertPoint(end);
  return b_.CreateLoad(ref_, holder);
}

// The text form of a handle (docs/language.md, str): a function value is its type, `fn(int) ->
// bool` (it has no name at run time); a Database `Database("NAME")`; a Transaction
// `Transaction#N (open)`. The REPL shows the same forms (repl/printer.cpp).
llvm::Value *Lowering::handleText(llvm::Value *v, const Type *t) {
  switch (t->kind) {
    case TypeKind::Database:
      return b_.CreateCall(rt("cairn_lang_db_str"), {v});
    case TypeKind::Transaction:
      return b_.CreateCall(rt("cairn_lang_txn_str"), {v});
    default:
      return b_.CreateLoad(ref_, textSlot(typeName(t)), "fn.text");
  }
}

llvm::Value *Lowering::lowerBuiltin(const sem::BuiltinCall &c) {
  Span span = c.span;
  auto arg = [&](size_t i) { return lowerExpr(*c.args[i]); };
  switch (c.builtin) {
    case sem::Builtin::Print:
    case sem::Builtin::Println: {
      // Every argument is evaluated before anything is printed, as for any call: output an
      // argument makes (`println("sum", f())` where f prints) comes before the line.
      std::vector<llvm::Value *> values;
      for (size_t i = 0; i < c.args.size(); ++i) values.push_back(arg(i));
      setLoc(span);
      for (size_t i = 0; i < c.args.size(); ++i) {
        llvm::Value *v = values[i];
        if (i) b_.CreateCall(rt("cairn_print_space"));
        switch (c.args[i]->type->kind) {
          case TypeKind::Int:
            b_.CreateCall(rt("cairn_print_int"), {v});
            break;
          case TypeKind::Float:
            b_.CreateCall(rt("cairn_print_float"), {v});
            break;
          case TypeKind::Bool:
            b_.CreateCall(rt("cairn_print_bool"), {b_.CreateZExt(v, i32_)});
            break;
          case TypeKind::Fn:
          case TypeKind::Database:
          case TypeKind::Transaction:
            b_.CreateCall(rt("cairn_print_ref"), {handleText(v, c.args[i]->type)});
            break;
          default:
            b_.CreateCall(rt("cairn_print_ref"), {v});
            break;
        }
      }
      if (c.builtin == sem::Builtin::Println) b_.CreateCall(rt("cairn_print_newline"));
      return nullptr;
    }
    case sem::Builtin::Str: {
      llvm::Value *v = arg(0);
      switch (c.args[0]->type->kind) {
        case TypeKind::Int:
          return b_.CreateCall(rt("cairn_str_int"), {v});
        case TypeKind::Float:
          return b_.CreateCall(rt("cairn_str_float"), {v});
        case TypeKind::Bool:
          return b_.CreateCall(rt("cairn_str_bool"), {b_.CreateZExt(v, i32_)});
        case TypeKind::Fn:
        case TypeKind::Database:
        case TypeKind::Transaction:
          return handleText(v, c.args[0]->type);
        default:
          return b_.CreateCall(rt("cairn_str_ref"), {v});
      }
    }
    case sem::Builtin::Len: {
      llvm::Value *v = arg(0);
      setLoc(span);
      nilCheck(v, {CAIRN_CHECK_NIL, c.args[0]->span, "len of " + typeName(c.args[0]->type)});
      return b_.CreateLoad(i64_, v, "len");
    }
    case sem::Builtin::Panic: {
      llvm::Value *v = arg(0);
      setLoc(span);
      b_.CreateCall(rt("cairn_rt_panic"), {loc(span), v});
      b_.CreateUnreachable();
      startDeadBlock();
      return nullptr;
    }
    case sem::Builtin::Exit: {
      // The operating system keeps only the low 8 bits: exit(256) would report success.
      llvm::Value *v = arg(0);
      setLoc(span);
      runtimeErrorIf(b_.CreateICmpUGT(v, b_.getInt64(255)),
                     {CAIRN_CHECK_EXIT_STATUS, span, "", "", v});
      b_.CreateCall(rt("cairn_lang_exit"), {v});
      b_.CreateUnreachable();
      startDeadBlock();
      return nullptr;
    }
    case sem::Builtin::Args: {
      llvm::Value *n = b_.CreateCall(rt("cairn_lang_argc"));
      // Each argument: cairn_text_new(argv(i), strlen(argv(i))), through a small helper.
      llvm::Function *helper = module_->getFunction(ownSymbol("cairn.arg_text"));
      if (!helper) {
        helper = llvm::Function::Create(llvm::FunctionType::get(ref_, {i64_}, false),
                                        llvm::GlobalValue::InternalLinkage,
                                        ownSymbol("cairn.arg_text"), *module_);
        llvm::IRBuilder<> hb(llvm::BasicBlock::Create(ctx_, "entry", helper));
        llvm::Value *s = hb.CreateCall(rt("cairn_lang_argv"), {helper->getArg(0)});
        llvm::Value *len = hb.CreateCall(rt("strlen"), {s});
        hb.CreateRet(hb.CreateCall(rt("cairn_text_new"), {s, len}));
      }
      return textArray(n, helper);
    }
    case sem::Builtin::IntOfFloat: {
      llvm::Value *v = arg(0);
      setLoc(span);
      return b_.CreateCall(rt("cairn_float_to_int"), {loc(span), v});
    }
    case sem::Builtin::FloatOfInt:
      return b_.CreateSIToFP(arg(0), f64_);
    case sem::Builtin::DbCreate:
    case sem::Builtin::DbOpen:
    case sem::Builtin::DbUpgrade: {
      llvm::Value *v = arg(0);
      setLoc(span);
      return b_.CreateCall(rt(c.builtin == sem::Builtin::DbCreate ? "cairn_lang_db_create"
                              : c.builtin == sem::Builtin::DbOpen ? "cairn_lang_db_open"
                                                                  : "cairn_lang_db_upgrade"),
                           {loc(span), v});
    }
    case sem::Builtin::DbExists: {
      llvm::Value *v = arg(0);
      setLoc(span);
      return b_.CreateICmpNE(b_.CreateCall(rt("cairn_lang_db_exists"), {loc(span), v}),
                             b_.getInt32(0));
    }
    case sem::Builtin::DbDrop: {
      llvm::Value *v = arg(0);
      setLoc(span);
      b_.CreateCall(rt("cairn_lang_db_drop"), {loc(span), v});
      return nullptr;
    }
    case sem::Builtin::DbNames: {
      setLoc(span);
      llvm::Value *n = b_.CreateCall(rt("cairn_lang_db_names_count"), {loc(span)});
      return textArray(n, rt("cairn_lang_db_names_at"));
    }
    case sem::Builtin::DbName: {
      // A handle declared without a value (`var d: Database`) is nil: d.name is a nil
      // dereference, as d.root is (the runtime's check).
      llvm::Value *v = arg(0);
      setLoc(span);
      nilCheck(v, {CAIRN_CHECK_NIL, span, "Database in '.name'"});
      return b_.CreateCall(rt("cairn_lang_db_name"), {v});
    }
    case sem::Builtin::TxnBegin:
      setLoc(span);
      return b_.CreateCall(rt("cairn_lang_txn_begin"), {loc(span)});
    case sem::Builtin::TxnCommit:
    case sem::Builtin::TxnAbort:
    case sem::Builtin::TxnChain:
    case sem::Builtin::TxnCheckpoint: {
      const char *name = c.builtin == sem::Builtin::TxnCommit  ? "cairn_lang_txn_commit"
                         : c.builtin == sem::Builtin::TxnAbort ? "cairn_lang_txn_abort"
                         : c.builtin == sem::Builtin::TxnChain ? "cairn_lang_txn_chain"
                                                               : "cairn_lang_txn_checkpoint";
      llvm::Value *t = arg(0);
      setLoc(span);
      b_.CreateCall(rt(name), {loc(span), t});
      return nullptr;
    }
    case sem::Builtin::TxnIsOpen:
      return b_.CreateICmpNE(b_.CreateCall(rt("cairn_lang_txn_is_open"), {arg(0)}), b_.getInt32(0));
    case sem::Builtin::Hash:
      return lowerHash(arg(0), c.args[0]->type);
    case sem::Builtin::Compare: {
      llvm::Value *l = arg(0);
      llvm::Value *r = arg(1);
      return lowerCompare(l, r, c.args[0]->type);
    }
    case sem::Builtin::Intrinsic:
      return lowerIntrinsic(c);
  }
  return nullptr;
}

// SplitMix64's finalizer: a bijection of the 64 bits that spreads every input bit over the
// result (docs/language.md, hash).
llvm::Value *Lowering::mix64(llvm::Value *z) {
  z = b_.CreateMul(b_.CreateXor(z, b_.CreateLShr(z, 30)), b_.getInt64(0xBF58476D1CE4E5B9ull));
  z = b_.CreateMul(b_.CreateXor(z, b_.CreateLShr(z, 27)), b_.getInt64(0x94D049BB133111EBull));
  return b_.CreateXor(z, b_.CreateLShr(z, 31));
}

llvm::Value *Lowering::lowerHash(llvm::Value *v, const Type *t) {
  switch (t->kind) {
    case TypeKind::Int:
      return mix64(v);
    case TypeKind::Bool:
      return mix64(b_.CreateZExt(v, i64_));
    case TypeKind::Float: {
      // -0.0 == 0.0, so both hash as 0.0 does; every nan hashes as one quiet nan (the sign and
      // payload of a nan depend on how it was made, and the optimizer folds 0.0 / 0.0 to another
      // one than the processor's division gives).
      llvm::Value *zero = llvm::ConstantFP::get(f64_, 0.0);
      llvm::Value *canon = b_.CreateSelect(b_.CreateFCmpOEQ(v, zero), zero, v);
      llvm::Value *nan = llvm::ConstantFP::get(f64_, std::numeric_limits<double>::quiet_NaN());
      canon = b_.CreateSelect(b_.CreateFCmpUNO(v, v), nan, canon);
      return mix64(b_.CreateBitCast(canon, i64_));
    }
    default:
      return b_.CreateCall(rt("cairn_hash_ref"), {v});
  }
}

// compare(a, b) of values: -1, 0 or 1 (the class case is a method call, made by the checker).
llvm::Value *Lowering::lowerCompare(llvm::Value *l, llvm::Value *r, const Type *t) {
  auto sign = [&](llvm::Value *gt, llvm::Value *lt) {
    return b_.CreateSub(b_.CreateZExt(gt, i64_), b_.CreateZExt(lt, i64_));
  };
  switch (t->kind) {
    case TypeKind::Int:
      return sign(b_.CreateICmpSGT(l, r), b_.CreateICmpSLT(l, r));
    case TypeKind::Bool:
      return sign(b_.CreateICmpUGT(l, r), b_.CreateICmpULT(l, r));
    case TypeKind::Float: {
      // Ordered operands by value; nan after every number and equal to nan.
      llvm::Value *ordered = sign(b_.CreateFCmpOGT(l, r), b_.CreateFCmpOLT(l, r));
      llvm::Value *nans = sign(b_.CreateFCmpUNO(l, l), b_.CreateFCmpUNO(r, r));
      return b_.CreateSelect(b_.CreateFCmpORD(l, r), ordered, nans);
    }
    default:
      return b_.CreateCall(rt("cairn_text_cmp"), {l, r});
  }
}

// A standard library intrinsic (check/intrinsics.h): the runtime entry of its name, with the
// call's position first when it takes one (I2), bools passed and returned as C ints.
llvm::Value *Lowering::lowerIntrinsic(const sem::BuiltinCall &c) {
  const Intrinsic &in = *c.intrinsic;
  auto ty = [&](char k) -> llvm::Type * {
    switch (k) {
      case 'v':
        return llvm::Type::getVoidTy(ctx_);
      case 'i':
        return i64_;
      case 'f':
        return f64_;
      case 'b':
        return i32_;
      default:
        return ref_;  // t, y, a
    }
  };
  std::vector<llvm::Value *> args;
  std::vector<llvm::Type *> params;
  if (in.takes_loc) params.push_back(raw_);
  for (const char *k = in.sig + 1; *k; ++k) params.push_back(ty(*k));
  for (size_t i = 0; i < c.args.size(); ++i) {
    llvm::Value *v = lowerExpr(*c.args[i]);
    if (in.sig[i + 1] == 'b') v = b_.CreateZExt(v, i32_);
    args.push_back(v);
  }
  setLoc(c.span);
  if (in.takes_loc) args.insert(args.begin(), loc(c.span));
  llvm::FunctionType *ft = llvm::FunctionType::get(ty(in.sig[0]), params, false);
  llvm::FunctionCallee callee = module_->getOrInsertFunction(in.name, ft);
  if (auto *f = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
    f->addFnAttr(llvm::Attribute::NoUnwind);
    if (in.noreturn) {
      f->setDoesNotReturn();
      f->addFnAttr(llvm::Attribute::Cold);
    }
  }
  llvm::Value *r = b_.CreateCall(callee, args);
  if (in.noreturn) {
    b_.CreateUnreachable();
    startDeadBlock();
    return nullptr;
  }
  switch (in.sig[0]) {
    case 'v':
      return nullptr;
    case 'b':
      return b_.CreateICmpNE(r, b_.getInt32(0));
    default:
      return r;
  }
}

namespace {

// What a run of array literal elements is made of (lowerArrayLiteral).
enum class RunKind { None, Int, Float, Bool, Text };

// A literal, or a negated number literal (-5, -0.5: the checker keeps the minus as an operator).
const sem::Expr &literalOf(const sem::Expr &e) {
  if (e.kind == sem::ExprKind::Unary) {
    const auto *u = e.as<sem::Unary>();
    if (u->op == sem::UnOp::Neg && (u->operand->kind == sem::ExprKind::IntConst ||
                                    u->operand->kind == sem::ExprKind::FloatConst))
      return *u->operand;
  }
  return e;
}

bool negated(const sem::Expr &e) { return &literalOf(e) != &e; }

RunKind runKindOf(const sem::Expr &e) {
  switch (literalOf(e).kind) {
    case sem::ExprKind::IntConst:
      return RunKind::Int;
    case sem::ExprKind::FloatConst:
      return RunKind::Float;
    case sem::ExprKind::BoolConst:
      return RunKind::Bool;
    case sem::ExprKind::TextConst:
      return RunKind::Text;
    default:
      return RunKind::None;
  }
}

// Runs of literal elements shorter than this are stored one by one.
constexpr size_t kLiteralRun = 8;

}  // namespace

// An array literal: the array is allocated, then its elements stored in order. Runs of at least
// kLiteralRun int, float or bool literals are copied from a constant table (one memcpy), runs of
// text literals by a loop over a table of their slots: a literal of many thousand elements
// (a lookup table, a word list) makes a few instructions instead of a few per element, which
// code generation at -O2 took minutes over. Literals have no effects, so storing a run at its
// end rather than in its place keeps the order of the other elements' effects.
llvm::Value *Lowering::lowerArrayLiteral(const sem::ArrayLit &a) {
  llvm::AllocaInst *holder;
  {
    llvm::IRBuilder<> eb(&fn_->getEntryBlock(), fn_->getEntryBlock().begin());
    holder = eb.CreateAlloca(ref_, nullptr, "array.lit");
  }
  const size_t n = a.elems.size();
  llvm::Value *arr = allocateArray(a.type, b_.getInt64(n));
  b_.CreateStore(arr, holder);
  llvm::Type *et = elemStorageType(a.type->elem);
  auto slotAt = [&](llvm::Value *index) {
    llvm::Value *cur = b_.CreateLoad(ref_, holder);
    llvm::Value *data =
        b_.CreateInBoundsGEP(b_.getInt8Ty(), cur, b_.getInt64(CAIRN_ARRAY_DATA_OFFSET));
    return b_.CreateInBoundsGEP(et, data, index);
  };
  auto storeOne = [&](size_t i) {
    llvm::Value *v = lowerExpr(*a.elems[i]);
    b_.CreateStore(v, slotAt(b_.getInt64(i)));
  };
  auto storeRun = [&](RunKind kind, size_t from, size_t to) {
    if (to - from < kLiteralRun) {
      for (size_t i = from; i < to; ++i) storeOne(i);
      return;
    }
    setLoc(a.elems[from]->span);
    llvm::Constant *table = nullptr;
    if (kind == RunKind::Int) {
      std::vector<uint64_t> v;
      for (size_t i = from; i < to; ++i) {
        // As the operator would compute it: two's complement, -(min) wraps to itself.
        auto x = static_cast<uint64_t>(literalOf(*a.elems[i]).as<sem::IntConst>()->value);
        v.push_back(negated(*a.elems[i]) ? uint64_t{0} - x : x);
      }
      table = llvm::ConstantDataArray::get(ctx_, v);
    } else if (kind == RunKind::Float) {
      std::vector<double> v;
      for (size_t i = from; i < to; ++i) {
        double x = literalOf(*a.elems[i]).as<sem::FloatConst>()->value;
        v.push_back(negated(*a.elems[i]) ? -x : x);
      }
      table = llvm::ConstantDataArray::get(ctx_, v);
    } else if (kind == RunKind::Bool) {
      std::vector<uint8_t> v;
      for (size_t i = from; i < to; ++i) v.push_back(a.elems[i]->as<sem::BoolConst>()->value);
      table = llvm::ConstantDataArray::get(ctx_, v);
    } else {
      std::vector<llvm::Constant *> slots;
      for (size_t i = from; i < to; ++i)
        slots.push_back(textSlot(a.elems[i]->as<sem::TextConst>()->value));
      table = llvm::ConstantArray::get(llvm::ArrayType::get(raw_, slots.size()), slots);
    }
    auto *global = new llvm::GlobalVariable(*module_, table->getType(), true,
                                            llvm::GlobalValue::PrivateLinkage, table,
                                            ownName("cairn.array.lit"));
    global->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    if (kind != RunKind::Text) {
      const uint64_t size = module_->getDataLayout().getTypeAllocSize(table->getType());
      b_.CreateMemCpy(slotAt(b_.getInt64(from)), llvm::MaybeAlign(8), global, llvm::MaybeAlign(8),
                      b_.getInt64(size));
      return;
    }
    // for i in 0..count: data[from + i] = *table[i] (each slot holds its text from program start)
    countedLoop(to - from, "lit.texts", [&](llvm::Value *i) {
      llvm::Value *slot =
          b_.CreateLoad(raw_, b_.CreateInBoundsGEP(table->getType(), global, {b_.getInt64(0), i}));
      llvm::Value *text = b_.CreateLoad(ref_, slot);
      b_.CreateStore(text, slotAt(b_.CreateAdd(i, b_.getInt64(from))));
    });
  };
  size_t run_start = 0;
  RunKind run = RunKind::None;
  for (size_t i = 0; i < n; ++i) {
    RunKind k = runKindOf(*a.elems[i]);
    if (k != run) {
      if (run != RunKind::None) storeRun(run, run_start, i);
      run = k;
      run_start = i;
    }
    if (k == RunKind::None) storeOne(i);
  }
  if (run != RunKind::None) storeRun(run, run_start, n);
  return b_.CreateLoad(ref_, holder);
}

llvm::Value *Lowering::lowerExpr(const sem::Expr &e) {
  if (terminated()) startDeadBlock();
  setLoc(e.span);
  switch (e.kind) {
    case sem::ExprKind::IntConst:
      return b_.getInt64(static_cast<uint64_t>(e.as<sem::IntConst>()->value));
    case sem::ExprKind::FloatConst:
      return llvm::ConstantFP::get(f64_, e.as<sem::FloatConst>()->value);
    case sem::ExprKind::BoolConst:
      return b_.getInt1(e.as<sem::BoolConst>()->value);
    case sem::ExprKind::TextConst:
      return b_.CreateLoad(ref_, textSlot(e.as<sem::TextConst>()->value), "text");
    case sem::ExprKind::Nil:
      return llvm::Constant::getNullValue(llvmType(e.type));
    case sem::ExprKind::Local: {
      const LocalVar *v = e.as<sem::Local>()->var;
      auto value = values_.find(v);
      if (value != values_.end()) return value->second;  // L1
      return b_.CreateLoad(llvmType(v->type), slots_[v], v->name);
    }
    case sem::ExprKind::Global: {
      const GlobalInfo *g = e.as<sem::Global>()->global;
      return b_.CreateLoad(llvmType(g->type), global(g), g->name);
    }
    case sem::ExprKind::FuncRef: {
      const FuncInfo *f = e.as<sem::FuncRef>()->func;
      if (missingExtern(f)) {  // as a call to it (CallDirect): the error is here
        b_.CreateCall(rt("cairn_rt_error"),
                      {loc(e.span), cstring(missingExternMessage(f->symbol))});
        return llvm::ConstantPointerNull::get(llvm::PointerType::get(ctx_, 0));
      }
      return functionValue(f);
    }
    case sem::ExprKind::Unary: {
      const auto *u = e.as<sem::Unary>();
      llvm::Value *v = lowerExpr(*u->operand);
      if (u->op == sem::UnOp::Not || u->op == sem::UnOp::Complement) return b_.CreateNot(v);
      if (u->type->kind == TypeKind::Float) return b_.CreateFNeg(v);
      return b_.CreateSub(b_.getInt64(0), v);
    }
    case sem::ExprKind::Binary:
      return lowerBinary(*e.as<sem::Binary>(), nullptr);
    case sem::ExprKind::Is: {
      const auto *i = e.as<sem::Is>();
      return lowerIs(lowerExpr(*i->value), i->target);
    }
    case sem::ExprKind::As: {
      const auto *a = e.as<sem::As>();
      llvm::Value *v = lowerExpr(*a->value);
      if (!a->needs_check) return v;
      setLoc(a->span);
      llvm::BasicBlock *test = llvm::BasicBlock::Create(ctx_, "as.test", fn_);
      llvm::BasicBlock *done = llvm::BasicBlock::Create(ctx_, "as.end", fn_);
      b_.CreateCondBr(b_.CreateIsNull(v), done, test);
      b_.SetInsertPoint(test);
      llvm::Value *ok = isA(v, a->target);
      runtimeErrorIf(b_.CreateNot(ok), {CAIRN_CHECK_CAST, a->span, typeName(a->target), "", v});
      b_.CreateBr(done);
      b_.SetInsertPoint(done);
      return v;
    }
    case sem::ExprKind::Field: {
      const auto *f = e.as<sem::Field>();
      llvm::Value *obj = lowerExpr(*f->object);
      setLoc(f->span);
      llvm::Value *addr = fieldAddress(obj, f->object->type, f->field, f->span);
      return b_.CreateLoad(llvmType(f->type), addr, f->field->name);
    }
    case sem::ExprKind::Index: {
      const auto *ix = e.as<sem::Index>();
      llvm::Value *base = lowerExpr(*ix->base);
      llvm::Value *idx = lowerExpr(*ix->index);
      setLoc(ix->span);
      if (ix->base->type->kind == TypeKind::Text) {
        // In line, as cairn_text_byte does it (its errors and messages): a text is an array of
        // bytes.
        nilCheck(base, {CAIRN_CHECK_NIL, ix->span, "index of text"});
        llvm::Value *length = b_.CreateLoad(i64_, base, "len");
        runtimeErrorIf(b_.CreateICmpUGE(idx, length),
                       {CAIRN_CHECK_INDEX, ix->span, "", "", idx, length});
        llvm::Value *addr = b_.CreateInBoundsGEP(
            b_.getInt8Ty(), base, b_.CreateAdd(idx, b_.getInt64(CAIRN_ARRAY_DATA_OFFSET)));
        return b_.CreateZExt(b_.CreateLoad(b_.getInt8Ty(), addr, "byte"), i64_);
      }
      llvm::Value *addr = elementAddress(base, ix->base->type, idx, ix->span);
      return b_.CreateLoad(llvmType(e.type), addr);
    }
    case sem::ExprKind::CallDirect: {
      const auto *c = e.as<sem::CallDirect>();
      std::vector<llvm::Value *> args;
      for (const auto &a : c->args) args.push_back(lowerExpr(*a));
      setLoc(c->span);
      if (missingExtern(c->func)) {
        // The REPL's process has no such C function: the call is the error, here (the rest of
        // the code still compiles and runs up to it).
        b_.CreateCall(rt("cairn_rt_error"),
                      {loc(c->span), cstring(missingExternMessage(c->func->symbol))});
        return c->type->kind == TypeKind::Void ? nullptr
                                               : llvm::PoisonValue::get(llvmType(c->type));
      }
      if (takesCallerLoc(c->func)) args.push_back(loc(c->span));
      llvm::Value *r = b_.CreateCall(function(c->func), args);
      return c->type->kind == TypeKind::Void ? nullptr : r;
    }
    case sem::ExprKind::CallVirtual: {
      llvm::Value *r = lowerCallVirtual(*e.as<sem::CallVirtual>());
      return e.type->kind == TypeKind::Void ? nullptr : r;
    }
    case sem::ExprKind::CallIndirect: {
      const auto *c = e.as<sem::CallIndirect>();
      llvm::Value *callee = lowerExpr(*c->callee);
      std::vector<llvm::Value *> args;
      std::vector<llvm::Type *> params;
      for (const auto &a : c->args) args.push_back(lowerExpr(*a));
      for (const Type *p : c->callee->type->params) params.push_back(llvmType(p));
      setLoc(c->span);
      llvm::FunctionType *ft =
          llvm::FunctionType::get(llvmType(c->callee->type->ret), params, false);
      llvm::Value *r = b_.CreateCall(ft, callee, args);
      return c->type->kind == TypeKind::Void ? nullptr : r;
    }
    case sem::ExprKind::Builtin:
      return lowerBuiltin(*e.as<sem::BuiltinCall>());
    case sem::ExprKind::New: {
      const auto *n = e.as<sem::New>();
      std::vector<llvm::Value *> values;
      for (const auto &fi : n->inits) values.push_back(lowerExpr(*fi.value));
      setLoc(n->span);
      llvm::Value *obj = b_.CreateCall(rt("cairn_malloc_typed"), {marker(n->type)});
      for (size_t i = 0; i < n->inits.size(); ++i) {
        b_.CreateStore(values[i], fieldPointer(obj, n->cls, n->inits[i].field));
      }
      return obj;
    }
    case sem::ExprKind::NewArray: {
      const auto *n = e.as<sem::NewArray>();
      llvm::Value *len = lowerExpr(*n->length);
      setLoc(n->span);
      runtimeErrorIf(b_.CreateICmpSLT(len, b_.getInt64(0)),
                     {CAIRN_CHECK_NEGATIVE_LENGTH, n->span, "", "", len});
      // A length the heap could never hold is a runtime error here, not the allocator's fatal
      // one; the runtime is asked only about long arrays.
      llvm::BasicBlock *check = llvm::BasicBlock::Create(ctx_, "array.size", fn_);
      llvm::BasicBlock *sized = llvm::BasicBlock::Create(ctx_, "array.sized", fn_);
      llvm::MDBuilder md(ctx_);
      b_.CreateCondBr(b_.CreateICmpUGT(len, b_.getInt64(1 << 20)), check, sized,
                      md.createBranchWeights(1, 1 << 10));
      b_.SetInsertPoint(check);
      // A marker may only be used by cairn_malloc_array and cairn_type_ref (the descriptor pass).
      llvm::Constant *m = marker(n->type);
      llvm::Value *desc = m ? b_.CreateCall(rt("cairn_type_ref"), {m}) : descriptorRef(n->type);
      b_.CreateCall(rt("cairn_rt_check_array_length"), {loc(n->span), desc, len});
      b_.CreateBr(sized);
      b_.SetInsertPoint(sized);
      return allocateArray(n->type, len);
    }
    case sem::ExprKind::ArrayLit:
      return lowerArrayLiteral(*e.as<sem::ArrayLit>());
    case sem::ExprKind::DbRoot: {
      const auto *r = e.as<sem::DbRoot>();
      llvm::Value *db = lowerExpr(*r->db);
      setLoc(r->span);
      return b_.CreateCall(rt("cairn_lang_db_get_root"), {loc(r->span), db});
    }
  }
  return nullptr;
}

}  // namespace cairn::front
