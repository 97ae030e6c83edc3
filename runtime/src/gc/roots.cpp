#include "gc/roots.h"

#include <pthread.h>
#include <unistd.h>

#include <algorithm>

#include "util/fatal.h"

// AddressSanitizer's interface (sanitizer/asan_interface.h), declared weak: the functions exist
// only when the process runs with ASan, whether or not the runtime itself was built with it.
extern "C" {
void *__asan_get_current_fake_stack(void) __attribute__((weak));
void *__asan_addr_is_in_fake_stack(void *fake_stack, void *addr, void **beg, void **end)
    __attribute__((weak));
}

namespace cairn::gc {

void *FakeStacks::Current() {
  return __asan_get_current_fake_stack ? __asan_get_current_fake_stack() : nullptr;
}

bool FakeStacks::FrameOf(void *fake_stack, uintptr_t word, const uintptr_t *lo, const uintptr_t *hi,
                         const uintptr_t **beg, const uintptr_t **end) {
  void *b = nullptr, *e = nullptr;
  void *real = __asan_addr_is_in_fake_stack(fake_stack, reinterpret_cast<void *>(word), &b, &e);
  // A frame whose real frame is below the scanned stack belongs to a function that returned (or
  // was jumped over): it is dead.
  if (!real || real < static_cast<const void *>(lo) || real >= static_cast<const void *>(hi))
    return false;
  *beg = reinterpret_cast<const uintptr_t *>((uintptr_t(b) + 7) & ~uintptr_t{7});
  *end = reinterpret_cast<const uintptr_t *>(uintptr_t(e) & ~uintptr_t{7});
  return true;
}

void Roots::AdoptCurrentThread() {
  pthread_attr_t attr;
  void *addr = nullptr;
  size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attr) != 0 ||
      pthread_attr_getstack(&attr, &addr, &size) != 0)
    Fatal("cannot find the stack of the mutator thread (pthread_getattr_np failed)");
  pthread_attr_destroy(&attr);
  stack_base_ = uintptr_t(addr) + size;  // stacks grow down: the base is the high end
  mutator_tid_ = long(gettid());
  tls_is_mutator = true;
}

void NotTheMutator(const char *fn) {
  Fatal(
      "%s was called from thread %ld, which is not the mutator thread. This version of "
      "Cairn supports one mutator thread: call the runtime only from the thread that called "
      "cairn_init.",
      fn, long(gettid()));
}

void Roots::AddRange(void *lo, void *hi) {
  auto l = reinterpret_cast<const uintptr_t *>((uintptr_t(lo) + 7) & ~uintptr_t{7});
  auto h = reinterpret_cast<const uintptr_t *>(uintptr_t(hi) & ~uintptr_t{7});
  if (l < h) ranges_.emplace_back(l, h);
}

void Roots::RemoveRange(void *lo, void *hi) {
  auto l = reinterpret_cast<const uintptr_t *>((uintptr_t(lo) + 7) & ~uintptr_t{7});
  auto h = reinterpret_cast<const uintptr_t *>(uintptr_t(hi) & ~uintptr_t{7});
  auto it = std::find(ranges_.begin(), ranges_.end(), std::make_pair(l, h));
  if (it != ranges_.end()) ranges_.erase(it);
}

ExactRoots &ExactRoots::Get() {
  static ExactRoots *const table = new ExactRoots;  // never destroyed (see the header)
  return *table;
}

void ExactRoots::Add(void **const *slots, size_t n, const char *fn) {
  for (size_t i = 0; i < n; i++)
    if (!slots[i]) Fatal("%s: slot %zu of %zu is NULL; pass the addresses of the slots", fn, i, n);
  std::lock_guard<std::mutex> lock(mu_);
  slots_.reserve(slots_.size() + n);
  for (size_t i = 0; i < n; i++) {
    auto [it, inserted] = entries_.try_emplace(slots[i], Entry{slots_.size(), 0});
    if (inserted) slots_.push_back(slots[i]);
    it->second.count++;
  }
}

void ExactRoots::Remove(void **const *slots, size_t n) {
  std::lock_guard<std::mutex> lock(mu_);
  for (size_t i = 0; i < n; i++) {
    auto it = entries_.find(slots[i]);
    if (it == entries_.end() || --it->second.count > 0) continue;
    const size_t index = it->second.index;
    entries_.erase(it);
    if (index + 1 != slots_.size()) {  // E3: the last slot takes the removed one's place
      slots_[index] = slots_.back();
      entries_.at(slots_[index]).index = index;
    }
    slots_.pop_back();
  }
}

}  // namespace cairn::gc
