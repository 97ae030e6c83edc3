// The REPL's JIT: ORC's LLJIT in the process of the runtime, with one resource tracker per
// unit of code (so a definition can be removed), stubs through which redefinable functions are
// called, and module constructors and destructors run by the REPL itself.
//
// A unit is one LLVM module, optimized already (the descriptor pass has run: its constructors
// register its heap types and its globals' roots, its destructor unregisters the roots). add()
// turns its constructors and destructors into two functions of its own, so that:
//   J1. a unit's constructors run once, when the REPL calls runConstructors(), before any of
//       its code; its destructor runs once, in remove(), before its code is freed. A unit's
//       roots are therefore registered exactly while its globals exist.
//   J2. a stub, once made, lives as long as the JIT: code and method tables that call through
//       it stay valid when the function behind it is redefined (pointStub) and the old body's
//       unit removed.
//   J3. a unit whose constructors registered heap types is never freed (remove() runs its
//       destructor only): the runtime's type registry knows descriptors by address for good,
//       so a freed descriptor's address must not be given to another type's.
#ifndef CAIRN_REPL_JIT_H
#define CAIRN_REPL_JIT_H

#include <llvm/ExecutionEngine/Orc/Core.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/Target/TargetMachine.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llvm::orc {
class LLJIT;
class IndirectStubsManager;
}  // namespace llvm::orc

namespace cairn::repl {

// One unit added to the JIT.
struct Unit {
  std::string name;
  llvm::orc::ResourceTrackerSP tracker;
  std::string constructors;  // symbol of the function that runs the unit's constructors
  std::string destructors;   // ... and its destructors ("" when it has none)
  bool constructed = false;
  bool removed = false;
  // Its constructors register type descriptors (the descriptor pass's cairn.register_types):
  // once they ran, remove() keeps its memory (see there).
  bool registers_types = false;
};

class Jit {
 public:
  // Sets up the JIT for the host, resolving the runtime's symbols from this process. Returns
  // nullptr with *error set if LLVM cannot (no native target).
  static std::unique_ptr<Jit> create(std::string *error);
  ~Jit();

  // For the modules handed to add(): their triple and data layout, and the target machine the
  // optimizer should use.
  const llvm::DataLayout &dataLayout() const;
  const std::string &triple() const { return triple_; }
  llvm::TargetMachine *targetMachine() const { return tm_.get(); }

  // Adds an optimized module as a unit (its constructors not run yet, J1).
  llvm::Error add(llvm::orc::ThreadSafeModule module, std::shared_ptr<Unit> *out);
  // The address of a symbol defined by an added unit (compiling it if needed).
  llvm::Expected<uint64_t> lookup(const std::string &symbol);
  // Runs the unit's constructors (once).
  llvm::Error runConstructors(Unit &unit);
  // Runs the unit's destructors, then frees its code and data (once).
  llvm::Error remove(Unit &unit);

  // Makes a stub named `name` if there is none (J2); code calls `name` and gets the function it
  // points at. A new stub points nowhere until pointStub.
  llvm::Error ensureStub(const std::string &name);
  bool hasStub(const std::string &name) const;
  llvm::Error pointStub(const std::string &name, uint64_t address);

  // What went wrong in the JIT since the last call, as a message for the user: the symbols no
  // unit and no library of the process defines (an `extern fn` naming a C function that is not
  // there) said plainly, else LLVM's own words; `error` (from the operation that failed) is
  // consumed. The JIT reports those symbols apart from the error of the operation (which only
  // says that materializing failed).
  std::string explain(llvm::Error error);

 private:
  Jit() = default;
  std::vector<std::string> missing_;         // symbols not found, reported by the session
  std::vector<std::string> session_errors_;  // its other reports
  std::unique_ptr<llvm::orc::LLJIT> lljit_;
  std::unique_ptr<llvm::TargetMachine> tm_;
  std::unique_ptr<llvm::orc::IndirectStubsManager> stubs_;
  std::string triple_;
};

}  // namespace cairn::repl

#endif  // CAIRN_REPL_JIT_H
