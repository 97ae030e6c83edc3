// Roots: where a collection starts.
//
// Ambiguous roots are words that may or may not be references: the mutator thread's stack (from
// the collection point up to the stack base, with the registers spilled into it first) and the
// global ranges a program registers (cairn_add_roots). Each one that points into a page in use
// pins that page: the page is promoted, never copied, and everything on it is kept.
// Exact roots are slots the runtime itself owns (cairn_add_exact_root); they are updated when
// their object moves and pin nothing.
//
// One mutator thread in this version: the thread that called cairn_init. CheckMutator is called
// by every entry point that touches the heap and makes any other thread a fatal error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace cairn::gc {

// True on the mutator thread only (constant-initialized: no TLS wrapper on access).
inline thread_local bool tls_is_mutator = false;

[[noreturn]] void NotTheMutator(const char *fn);

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
  void AddExact(void **slot);
  void RemoveExact(void **slot);

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
    for (void **slot : exact_) f(slot);
  }

  uintptr_t stack_base() const { return stack_base_; }
  // The mutator's thread id (gettid), for messages.
  long mutator_tid() const { return mutator_tid_; }

 private:
  uintptr_t stack_base_ = 0;
  long mutator_tid_ = 0;
  std::vector<std::pair<const uintptr_t *, const uintptr_t *>> ranges_;
  std::vector<void **> exact_;
};

}  // namespace cairn::gc
