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

void Roots::AddExact(void **slot) { exact_.push_back(slot); }

void Roots::RemoveExact(void **slot) {
  auto it = std::find(exact_.begin(), exact_.end(), slot);
  if (it != exact_.end()) exact_.erase(it);
}

}  // namespace cairn::gc
