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

// The conservative scan reads every word of its ranges, whatever they hold: on a stack built by
// AddressSanitizer that includes the redzones around locals, and in a registered range the ones
// around globals. Those reads are the scan's business, not errors: it is exempt from the
// sanitizers' checks (as the Boehm collector's stack scan is).
#define CAIRN_NO_SANITIZE_ADDRESS __attribute__((no_sanitize("address")))

namespace cairn::gc {

// One word of a root range, read without the sanitizers' checks (inlined in a normal build).
CAIRN_NO_SANITIZE_ADDRESS inline uintptr_t LoadRootWord(const uintptr_t *p) { return *p; }

// AddressSanitizer's stack-use-after-return mode moves a function's address-taken locals from
// the stack into a "fake frame" elsewhere, which the stack scan would miss. While such frames
// exist (ASan's detect_stack_use_after_return, on by default with clang), the scan follows every
// stack word that points into one whose function is still running (its real frame lies in the
// scanned part of the stack) and scans that frame too. Without ASan in the process this is one
// test of a null pointer per scan.
class FakeStacks {
 public:
  // The mutator's fake stack, or null (no ASan, or the mode is off).
  static void *Current();
  // If `word` points into a live fake frame whose real frame lies in [lo, hi), sets [*beg, *end)
  // to that frame and returns true.
  static bool FrameOf(void *fake_stack, uintptr_t word, const uintptr_t *lo, const uintptr_t *hi,
                      const uintptr_t **beg, const uintptr_t **end);
};

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

  // Calls f(uintptr_t word) for each aligned word of the stack in [stack_top, base), of the
  // live ASan fake frames of that part of the stack (see FakeStacks), and of every registered
  // range.
  template <class F>
  void ForEachAmbiguousWord(const void *stack_top, F &&f) const {
    auto lo = reinterpret_cast<const uintptr_t *>((uintptr_t(stack_top) + 7) & ~uintptr_t{7});
    auto hi = reinterpret_cast<const uintptr_t *>(stack_base_);
    void *fake_stack = FakeStacks::Current();
    const uintptr_t *last_fake = nullptr;  // the fake frame scanned last (words repeat)
    for (const uintptr_t *p = lo; p < hi; p++) {
      uintptr_t w = LoadRootWord(p);
      f(w);
      const uintptr_t *beg, *end;
      if (fake_stack && FakeStacks::FrameOf(fake_stack, w, lo, hi, &beg, &end) && beg != last_fake)
          [[unlikely]] {
        last_fake = beg;
        for (const uintptr_t *q = beg; q < end; q++) f(LoadRootWord(q));
      }
    }
    for (const auto &[rlo, rhi] : ranges_)
      for (const uintptr_t *p = rlo; p < rhi; p++) f(LoadRootWord(p));
  }

  template <class F>
  void ForEachExactSlot(F &&f) const {
    ExactRoots::Get().ForEach(f);
  }

  uintptr_t stack_base() const { return stack_base_; }
  // The mutator's thread id (gettid), for messages.
  long mutator_tid() const { return mutator_tid_; }

 private:
  uintptr_t stack_base_ = 0;
  long mutator_tid_ = 0;
  std::vector<std::pair<const uintptr_t *, const uintptr_t *>> ranges_;
};

}  // namespace cairn::gc
