// The lowering's internals, shared by lower_program.cpp (types, markers, functions, globals,
// the C `main`), lower_stmt.cpp and lower_expr.cpp. Not a public header.
//
// Conventions of the generated code:
//   L1. A `var`, and a parameter the function assigns (LocalVar::assigned), lives in an alloca
//       of the function's entry block (mem2reg promotes them at -O2); a `let`, a `for`
//       variable, `self` and a parameter never assigned are the SSA value they were bound to
//       (values_: no alloca, store or load, at -O0 as at -O2). The stack is
//       scanned conservatively, so a reference in a local (its alloca, or the register or spill
//       slot of its value while the value is live) keeps its object alive and unmoved.
//   L2. A check (runtimeErrorIf) branches, when it fails, to a call of the noreturn
//       cairn_rt_check_failed with a static cairn_check_site (its kind, cairn_loc and texts)
//       (an element of the module's table, checkSite) and the values its message needs,
//       followed by `unreachable`. At -O2 each check has a block of its own; at -O0 all of a
//       function's checks branch to one block, which loads the site's index and the values from
//       stack slots each check stores them into before its branch (fail_blocks_): -O0's code
//       generator selects one call per function, not one per check, and a store costs it less
//       than a phi's incoming value (which became a copy, and a spill, in every check's block). A
//       check that cannot fail is not emitted: a nil check of `self` (self_value_), a condition the
//       builder folded to false, a nil check of a value already checked on the straight line of
//       checks that leads to the insertion point (proven_nonnull_), the nil and index checks of
//       `for x in array`'s element (the array was checked before the loop and its length,
//       fixed when it was made, bounds the counter).
//   L3. After a terminator (return, break, continue, a noreturn call) lowering goes on in a
//       fresh block with no predecessors, which LLVM deletes.
//   L4. Text literals are heap texts made at program start and kept in internal globals of
//       type `ptr addrspace(1)`, which the descriptor pass registers as exact roots; 16 or more
//       are made by a loop over a table (makeTextLiterals), as are an array literal's runs of
//       literals (lowerArrayLiteral), so that code grows with the program, not its data.
//   L5. Std functions and std-slot methods take the caller's position as a hidden last
//       parameter (takesCallerLoc, lower.h); their runtime errors use it when it is not null
//       (loc()), and a std function used as a value is a thunk that passes null.
//   L6. Every Cairn function is "disable-tail-calls": a call always takes stack, so a recursion
//       without end is a stack overflow at every level, never a loop (lowerFunction).
#ifndef CAIRN_FRONTEND_LOWER_LOWERING_H
#define CAIRN_FRONTEND_LOWER_LOWERING_H

#include <llvm/IR/DIBuilder.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "check/sem.h"
#include "lower/lower.h"

namespace cairn::front {

class Lowering {
 public:
  Lowering(const sem::Program &program, const SourceManager &sources, llvm::LLVMContext &ctx,
           const LowerOptions &options);
  std::unique_ptr<llvm::Module> run();
  // The REPL's form (lower.h, UnitSpec).
  std::unique_ptr<llvm::Module> runUnit(const UnitSpec &unit);

  // --- types and heap types (lower_program.cpp) ---
  llvm::Type *llvmType(const Type *t);
  llvm::StructType *classStruct(ClassInfo *cls);
  llvm::Type *elemStorageType(const Type *elem);  // an array element in memory
  llvm::Value *descriptorRef(const Type *t);      // the descriptor of a class/array/text type
  llvm::Constant *marker(const Type *t);          // class or array marker (nullptr: built-in)
  llvm::FunctionType *functionType(const FuncInfo *f);
  // The function that calls and function values use (a stub's declaration in a unit, when
  // the function is called through one).
  llvm::Function *function(const FuncInfo *f);
  // An extern fn the REPL's process lacks (UnitSpec::extern_missing).
  bool missingExtern(const FuncInfo *f) const {
    return f->is_extern && unit_ != nullptr && unit_->extern_missing && unit_->extern_missing(f);
  }
  // The function that holds f's body (the same as function(f) except for stubs in a unit).
  llvm::Function *definition(const FuncInfo *f);
  llvm::FunctionCallee rt(const char *name);  // a runtime entry point (cairn/lang.h)
  // Where a runtime error at span is reported: the static cairn_loc, or in a function that
  // takes the caller's position (takesCallerLoc, lower.h) that position when it is not null.
  // Also what a call passes to a callee that takes one.
  llvm::Value *loc(Span span);
  llvm::Constant *staticLoc(Span span);  // a static cairn_loc
  // f as a function value: f itself, or for one that takes the caller's position a thunk that
  // passes null.
  llvm::Function *functionValue(const FuncInfo *f);
  llvm::Constant *cstring(const std::string &s);  // a private NUL-terminated constant
  llvm::GlobalVariable *global(const GlobalInfo *g);
  llvm::GlobalVariable *textSlot(const std::string &value);

  // --- functions and statements (lower_stmt.cpp) ---
  void lowerFunction(const sem::Function &fn);
  void lowerBlock(const sem::Block &b);
  void lowerStmt(const sem::Stmt &s);
  void lowerAssign(const sem::Assign &a);
  void commitAtomics(size_t down_to, Span span);
  void startDeadBlock();
  bool terminated() const;

  // --- expressions (lower_expr.cpp) ---
  llvm::Value *lowerExpr(const sem::Expr &e);
  llvm::Value *lowerBinary(const sem::Binary &b, llvm::Value *lhs_value);
  llvm::Value *arith(sem::BinOp op, const Type *t, llvm::Value *l, llvm::Value *r, Span span);
  llvm::Value *compare(sem::BinOp op, const Type *t, llvm::Value *l, llvm::Value *r);
  llvm::Value *lowerBuiltin(const sem::BuiltinCall &b);
  llvm::Value *lowerHash(llvm::Value *v, const Type *t);
  llvm::Value *lowerCompare(llvm::Value *l, llvm::Value *r, const Type *t);
  llvm::Value *lowerIntrinsic(const sem::BuiltinCall &c);
  llvm::Value *mix64(llvm::Value *z);
  llvm::Value *lowerCallVirtual(const sem::CallVirtual &c);
  llvm::Value *callMethod(llvm::Value *object, const FuncInfo *method, ClassInfo *cls,
                          std::vector<llvm::Value *> args, Span span);
  // The one implementation a call of method on a cls runs, if the program has only one (never
  // for a REPL unit, which is not a whole program).
  const FuncInfo *soleImplementation(const FuncInfo *method, const ClassInfo *cls);
  llvm::Value *fieldAddress(llvm::Value *object, const Type *static_type, const FieldInfo *f,
                            Span span);
  llvm::Value *fieldPointer(llvm::Value *object, ClassInfo *cls, const FieldInfo *f);
  llvm::Value *elementAddress(llvm::Value *array, const Type *array_type, llvm::Value *index,
                              Span span);
  // The same without the nil and index checks: array is not nil and index is in range.
  llvm::Value *elementPointer(llvm::Value *array, const Type *array_type, llvm::Value *index);
  llvm::Value *lowerIs(llvm::Value *v, const Type *target);
  llvm::Value *isA(llvm::Value *nonnull, const Type *target);
  llvm::Value *allocateArray(const Type *array_type, llvm::Value *length);
  llvm::Value *textArray(llvm::Value *count, llvm::FunctionCallee at);
  llvm::Value *lowerArrayLiteral(const sem::ArrayLit &a);
  void makeTextLiterals();
  llvm::Value *handleText(llvm::Value *v, const Type *t);
  // for i in 0..count (count >= 1): body(i) at the insertion point, which ends after the loop.
  void countedLoop(uint64_t count, const char *name,
                   const std::function<void(llvm::Value *i)> &body);
  // What a failed check reports (L2): a cairn_check_site's kind and texts, at span, with up
  // to two values (an i64 or a reference; null where the kind has none).
  struct Check {
    uint32_t kind;  // CAIRN_CHECK_* (cairn/lang.h)
    Span span;
    std::string a = {}, b = {};
    llvm::Value *x = nullptr, *y = nullptr;
  };
  void nilCheck(llvm::Value *ref, const Check &check);
  // The poll at the head of a loop or a function (LowerOptions::interruptible; nothing without
  // it).
  void interruptPoll(Span span);
  void runtimeErrorIf(llvm::Value *cond, const Check &check);
  // The index of check's cairn_check_site in the module's table of them (check_sites_), which
  // finishCheckSites makes when the module is complete; checkSiteAddress: its address.
  llvm::Constant *checkSite(const Check &check);
  llvm::Value *checkSiteAddress(llvm::Value *index);
  void finishCheckSites();
  // The caller's position a std function reports at (L5, a parameter that may be null), else a
  // constant null pointer.
  llvm::Value *callerLoc();
  void setLoc(Span span);
  llvm::Value *zero(const Type *t);

  // State.
  const sem::Program &program_;
  const SourceManager &sources_;
  llvm::LLVMContext &ctx_;
  LowerOptions options_;
  std::unique_ptr<llvm::Module> module_;
  llvm::IRBuilder<> b_;
  llvm::Type *ref_ = nullptr;  // ptr addrspace(1)
  llvm::Type *raw_ = nullptr;  // ptr
  llvm::Type *i64_ = nullptr;
  llvm::Type *i32_ = nullptr;
  llvm::Type *i1_ = nullptr;
  llvm::Type *f64_ = nullptr;
  llvm::StructType *loc_type_ = nullptr;
  llvm::StructType *site_type_ = nullptr;  // cairn_check_site (cairn/lang.h: the same layout)

  std::map<const ClassInfo *, llvm::StructType *> structs_;
  std::map<const Type *, llvm::GlobalVariable *> markers_;
  std::map<const FuncInfo *, llvm::Function *> functions_;
  std::map<std::pair<const ClassInfo *, size_t>, const FuncInfo *> sole_;  // soleImplementation
  std::map<const FuncInfo *, llvm::Function *> definitions_;
  std::map<const FuncInfo *, llvm::Function *> value_thunks_;
  const UnitSpec *unit_ = nullptr;  // set by runUnit
  std::map<const GlobalInfo *, llvm::GlobalVariable *> globals_;
  std::map<std::string, llvm::GlobalVariable *> text_slots_;
  std::vector<std::pair<std::string, llvm::GlobalVariable *>> text_order_;
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, llvm::Constant *> locs_;
  std::map<std::string, llvm::Constant *> cstrings_;
  std::map<uint32_t, llvm::Constant *> file_names_;
  std::vector<llvm::Constant *> check_sites_;    // the table's elements (checkSite)
  llvm::GlobalVariable *check_table_ = nullptr;  // where they are until finishCheckSites

  // Twins (lower.h, LowerOptions::twins): whether this lowering is one, and whether what the
  // twins share is complete (anything shared made after that makes the module unfit).
  bool twinned() const { return options_.twins > 1 && unit_ == nullptr; }
  bool shared_done_ = false;
  bool unfit_ = false;
  void madeShared() { unfit_ |= shared_done_; }
  // The name of a private constant: none once a twin makes its own (a name that another
  // already has would advance the module's counter of unique names, and the descriptor pass's
  // names that come after would differ from twin to twin).
  const char *ownName(const char *name) const { return shared_done_ ? "" : name; }
  // The name of something else a twin makes for itself (its module initializer, check table,
  // thunks): `name` with its first '.' made a '/', which no symbol of a program has (they are
  // module paths and names), so it never clashes with one and advances that counter in one
  // twin only (class `cairn` with a method `init` did).
  std::string ownSymbol(std::string name) const {
    if (shared_done_) {
      const size_t dot = name.find('.');
      if (dot != std::string::npos) name[dot] = '/';
    }
    return name;
  }
  // Tags what this twin made after the shared part (`shared`: every global value then) and the
  // functions it defined as its own (kCairnOwn), and the module if it is unfit.
  void finishTwin(const std::vector<const llvm::GlobalValue *> &shared);

  // Per function.
  llvm::Function *fn_ = nullptr;
  const sem::Function *sem_fn_ = nullptr;
  // `var`s and assigned parameters (L1)
  std::map<const LocalVar *, llvm::AllocaInst *> slots_;
  // `let` and `for` variables, `self`, parameters never assigned (L1)
  std::map<const LocalVar *, llvm::Value *> values_;
  // Binds a local: stores into its slot, or makes v its value (L1).
  void bindLocal(const LocalVar *var, llvm::Value *v);
  // A method's `self`, its first argument (else null). `self` is never nil: every call of a
  // method checks its receiver before the call (callMethod), and `self` cannot be assigned, so
  // nilCheck of it emits nothing.
  llvm::Value *self_value_ = nullptr;
  // Values a nil check has proven not nil (L2), valid while the insertion block is
  // proven_block_: the `ok` block of the last check, whose only predecessor is the block that
  // made the check. A check made in proven_block_ extends the list to its own `ok` block; a
  // check made elsewhere starts it again; the lowering of each function clears it.
  llvm::BasicBlock *proven_block_ = nullptr;
  std::vector<llvm::Value *> proven_nonnull_;
  // setLoc's last location and the span it was made for (used again only while it is still the
  // builder's current location and of the function being lowered).
  llvm::DILocation *last_loc_ = nullptr;
  Span last_loc_span_;
  // -O0: the block each function's failed checks branch to (L2), and the stack slots each
  // check stores its site's index and values into before it branches.
  struct FailBlock {
    llvm::BasicBlock *block;
    llvm::AllocaInst *site, *x, *y;
  };
  std::map<llvm::Function *, FailBlock> fail_blocks_;
  struct Loop {
    llvm::BasicBlock *break_to;
    llvm::BasicBlock *continue_to;
    size_t atomic_depth;  // atomics open when the loop began
  };
  std::vector<Loop> loops_;
  std::vector<Span> atomics_;  // open atomic blocks of this function

  // Debug info.
  std::unique_ptr<llvm::DIBuilder> di_;
  llvm::DICompileUnit *cu_ = nullptr;
  std::map<uint32_t, llvm::DIFile *> di_files_;
  llvm::DISubprogram *di_fn_ = nullptr;
  llvm::DIFile *diFile(uint32_t file);
};

}  // namespace cairn::front

#endif  // CAIRN_FRONTEND_LOWER_LOWERING_H
