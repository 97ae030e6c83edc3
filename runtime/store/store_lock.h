// The store's process lock: one process uses a store at a time.
//
// The file DIR/cairn.lock is held with flock(LOCK_EX) for as long as the store is open and
// contains the holder's pid in decimal. The operating system drops the lock when the holder
// exits or is killed, so a lock file left behind by a dead process is simply taken over.
// A store opened read-only takes the lock shared (LOCK_SH: readers together, never beside a
// writer), without writing the file; when the file cannot be opened for reading (it is not there
// and the directory cannot be written to, or its permissions forbid it) it reads without a lock.
// The store directory itself is locked the same way beside the file (flock on the directory),
// so that deleting or replacing the lock file under a running holder does not let a second
// process in: the second one gets the new file's lock but not the directory's, and is refused
// ("... its lock file was removed or replaced while that process ran"). The file stays: it
// names the holder, which the directory cannot. A process kept out by the directory alone is
// told who holds it, as a shared lock tells: readers (some perhaps without the file: "in use by
// another process, which is reading it") or a writer.
#ifndef CAIRN_STORE_STORE_LOCK_H
#define CAIRN_STORE_STORE_LOCK_H

#include <cstdint>
#include <memory>
#include <string>

#include "cairn/status.h"
#include "store_files.h"

namespace cairn::store {

class StoreLock {
 public:
  // Takes the lock of store `dir` (which must exist), without waiting. CAIRN_BUSY "store DIR is
  // in use by process N" if another process holds it.
  static Status Acquire(const std::string &dir, std::unique_ptr<StoreLock> *lock);
  // The shared lock of a read-only open; *lock stays null when there is no lock file to take.
  static Status AcquireShared(const std::string &dir, std::unique_ptr<StoreLock> *lock);
  ~StoreLock();
  StoreLock(const StoreLock &) = delete;
  StoreLock &operator=(const StoreLock &) = delete;

  // The process generation the lock was taken in (fork_guard.h): in a child made by fork() the
  // lock is not held, and destroying this object there touches nothing.
  uint64_t generation() const { return generation_; }

 private:
  StoreLock(int fd, int dir_fd, bool exclusive);
  int fd_;
  int dir_fd_;  // the store directory, flock'ed as the file is (-1: none)
  bool exclusive_;
  uint64_t generation_;
};

}  // namespace cairn::store

#endif  // CAIRN_STORE_STORE_LOCK_H
