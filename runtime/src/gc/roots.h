// Roots: where a collection starts.
//
// Ambiguous roots are words that may or may not be references: the mutator thread's stack (from
// the collection point up to the stack base, with the registers spilled into it first) and the
// global ranges a program registers (cairn_add_roots). Each one that points into a page in use
// pins that page: the page is promoted, never copied, and everything on it is kept.
// Exact roots are slots holding a reference or NULL (cairn_add_exact_root, and
// cairn_add_exact_roots for the globals of a module, from its constructor); they are updated when
// their object moves and pin nothing. They live in one table per process (ExactRoots), apart from
// the heap, so that module constructors can register them before cairn_init and module
// destructors can unregister them from whatever thread unloads the module or exits.
//
// One mutator thread in this version: the thread that called cairn_init. CheckMutator is called
// by every entry point that touches the heap and makes any other thread a fatal error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace cairn::gc {

// True on the mutator thread only (constant-initialized: no TLS wrapper on access).
inline thread_local bool tls_is_mutator = false;

[[noreturn]] void NotTheMutator(const char *fn);

// The process's exact roots. Usable before cairn_init and from any thread: a mutex guards the
// table, and a collection holds it while it visits the slots. Invariants:
//   E1. every slot in the table is non-NULL and appears once, however often it was added;
//   E2. a slot added n times stays until it is removed n times (a module's weak or inline
//       global, which several modules register, stays a root until the last one unloads);
//   E3. slots are visited in the order they were first added, except that removing one moves
//       the last slot into its place (so the order is the same in every run of a program).
class ExactRoots {
 public:
  // The table; never destroyed, so destructors that run at exit may still use it.
  static ExactRoots &Get();

  // `fn` names the API function in the fatal error for a NULL slot.
  void Add(void **const *slots, size_t n, const char *fn);
  // Slots that are not in the table are ignored.
  void Remove(void **const *slots, size_t n);

  template <class F>
  void ForEach(F &&f) {
    std::lock_guard<std::mutex> lock(mu_);
    for (void **slot : slots_) f(slot);
  }

 private:
  struct Entry {
    size_t index;  // in slots_
    size_t count;  // how many times added and not yet removed (E2)
  };
  std::mutex mu_;
  std::vector<void **> slots_;
  std::unordered_map<void **, Entry> entries_;
};

class Roots {
 public:
  // Makes the calling thread the mutator and records its stack base.
  void AdoptCurrentThread();
  bool HasMutator() const { return stack_base_ != 0; }
  static bool OnMutatorThread() { return tls_is_mutator; }
  // Fatal error unless the caller is the mutator thread; `fn` names the API function.
  static void CheckMutator(const char *fn) {
    if (!tls_is_mutator) [[unlikely]]
      NotTheMutator(fn);
  }

  void AddRange(void *lo, void *hi);
  void RemoveRange(void *lo, void *hi);
  static void AddExact(void **slot) { ExactRoots::Get().Add(&slot, 1, "cairn_add_exact_root"); }
  static void RemoveExact(void **slot) { ExactRoots::Get().Remove(&slot, 1); }

  // Calls f(uintptr_t word) for each aligned word of the stack in [stack_top, base) and of every
  // registered range.
  template <class F>
  void ForEachAmbiguousWord(const void *stack_top, F &&f) const {
    auto lo = reinterpret_cast<const uintptr_t *>((uintptr_t(stack_top) + 7) & ~uintptr_t{7});
    auto hi = reinterpret_cast<const uintptr_t *>(stack_base_);
    for (const uintptr_t *p = lo; p < hi; p++) f(*p);
    for (const auto &[rlo, rhi] : ranges_)
      for (const uintptr_t *p = rlo; p < rhi; p++) f(*p);
  }

  template <class F>
  void ForEachExactSlot(F &&f) const {
    ExactRoots::Get().ForEach(f);
  }

  uintptr_t stack_base() const { return stack_base_; }

 private:
  uintptr_t stack_base_ = 0;
  std::vector<std::pair<const uintptr_t *, const uintptr_t *>> ranges_;
};

}  // namespace cairn::gc
