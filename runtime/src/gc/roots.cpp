#include "gc/roots.h"

#include <pthread.h>
#include <unistd.h>

#include <algorithm>

#include "util/fatal.h"

namespace cairn::gc {

void Roots::AdoptCurrentThread() {
  pthread_attr_t attr;
  void *addr = nullptr;
  size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attr) != 0 ||
      pthread_attr_getstack(&attr, &addr, &size) != 0)
    Fatal("cannot find the stack of the mutator thread (pthread_getattr_np failed)");
  pthread_attr_destroy(&attr);
  stack_base_ = uintptr_t(addr) + size;  // stacks grow down: the base is the high end
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
