// A store in a child made by fork() without exec.
//
// The child gets a copy of the parent's memory, and so of its open RocksDB instance, and shares
// its open files, but none of its threads. Used from the child, the store would write to the
// parent's log at its own file offset (overwriting the parent's next commit) and wait forever
// for background threads that do not exist there; RocksDB's destructors do the same when the
// child exits. So, in a process that has opened a store:
//   F1. A child made by fork() may not use any store its parent opened: every call returns
//       CAIRN_MISUSE saying so (Store::Impl::Usable). It may open none either: the parent holds
//       the lock. Destroying the parent's objects in the child touches nothing of RocksDB.
//   F2. The child does not hold the store's process lock: its copy of the lock file descriptor
//       is closed at the fork, so the store is free as soon as the parent ends.
//   F3. When the child exits (exit() or a return from main), it flushes stdio and ends at once
//       with that status: destructors of static objects and atexit handlers registered before
//       the fork do not run, since RocksDB's would wait for the parent's threads. _exit and exec
//       are unaffected.
#ifndef CAIRN_STORE_FORK_GUARD_H
#define CAIRN_STORE_FORK_GUARD_H

#include <cstdint>

namespace cairn::store {

// Installs the fork handlers (once) and registers the lock file descriptor of a store being
// opened (F2). Returns the process generation the store belongs to.
uint64_t NoteStoreOpened(int lock_fd);
// Unregisters it when the store closes.
void NoteStoreClosed(int lock_fd);
// Incremented in every child made by fork() (F1): a store opened in generation g is usable only
// while ProcessGeneration() == g.
uint64_t ProcessGeneration();

}  // namespace cairn::store

#endif  // CAIRN_STORE_FORK_GUARD_H
