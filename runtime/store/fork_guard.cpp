// Handlers for fork() in a process with a store open (see fork_guard.h, F1-F3).
#include "fork_guard.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <mutex>

namespace cairn::store {
namespace {

std::atomic<uint64_t> generation{0};
std::atomic<bool> rocks_used{false};  // RocksDB's threads (and static destructors) exist

// The lock files of the open stores (F2). Slots, not a container: the child handler may take no
// lock and allocate nothing.
constexpr int kMaxStores = 64;
std::atomic<int> lock_fds[kMaxStores];

void ExitNow(int status, void *) {
  std::fflush(nullptr);
  _exit(status);
}

void InChild() {
  generation.fetch_add(1);
  for (std::atomic<int> &slot : lock_fds) {
    int fd = slot.exchange(-1);
    if (fd >= 0) close(fd);
  }
  // Registered last, so it runs first at exit (F3).
  if (rocks_used.load()) on_exit(ExitNow, nullptr);
}

void Install() {
  for (std::atomic<int> &slot : lock_fds) slot.store(-1);
  pthread_atfork(nullptr, nullptr, InChild);
}

}  // namespace

uint64_t NoteStoreOpened(int lock_fd) {
  static std::once_flag once;
  std::call_once(once, Install);
  rocks_used.store(true);
  for (std::atomic<int> &slot : lock_fds) {
    if (lock_fd < 0) break;
    int empty = -1;
    if (slot.compare_exchange_strong(empty, lock_fd)) break;
  }
  return generation.load();
}

void NoteStoreClosed(int lock_fd) {
  for (std::atomic<int> &slot : lock_fds) {
    int fd = lock_fd;
    if (slot.compare_exchange_strong(fd, -1)) break;
  }
}

uint64_t ProcessGeneration() { return generation.load(std::memory_order_relaxed); }

}  // namespace cairn::store
