// The store's process lock (see store_lock.h).
#include "store_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "fork_guard.h"

namespace cairn::store {
namespace {

// The pid written in the lock file, or 0 if it cannot be read yet (the holder writes it just
// after taking the lock, so a reader may briefly see an empty file).
long ReadHolder(int fd) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    char buf[32] = {};
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n > 0 && buf[n - 1] == '\n') return std::strtol(buf, nullptr, 10);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return 0;
}

Status Busy(const std::string &dir, long pid) {
  if (pid == static_cast<long>(getpid())) {
    return Status(CAIRN_BUSY, "store " + dir + " is in use by process " + std::to_string(pid) +
                                  " (this process: it is already open here; use that Store)");
  }
  if (pid <= 0) {
    return Status(CAIRN_BUSY, "store " + dir +
                                  " is in use by another process, which is reading it (wait "
                                  "for it to finish, or use another store)");
  }
  return Status(CAIRN_BUSY, "store " + dir + " is in use by process " + std::to_string(pid) +
                                " (wait for it to finish, or use another store)");
}

}  // namespace

Status StoreLock::AcquireShared(const std::string &dir, std::unique_ptr<StoreLock> *lock) {
  lock->reset();
  std::string path = dir + "/" + kLockFileName;
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT || errno == EACCES) return Status::Ok();  // read without a lock
    return Status(CAIRN_IO_ERROR,
                  "cannot open the lock file " + path + ": " + std::strerror(errno));
  }
  while (flock(fd, LOCK_SH | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    int err = errno;
    long pid = err == EWOULDBLOCK ? ReadHolder(fd) : 0;
    close(fd);
    if (err == EWOULDBLOCK) return Busy(dir, pid);
    return Status(CAIRN_IO_ERROR, "cannot lock " + path + ": " + std::strerror(err));
  }
  lock->reset(new StoreLock(fd, false));
  return Status::Ok();
}

Status StoreLock::Acquire(const std::string &dir, std::unique_ptr<StoreLock> *lock) {
  std::string path = dir + "/" + kLockFileName;
  int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int err = errno;
    if (err == EACCES || err == EROFS || err == EPERM) {
      return Status(CAIRN_IO_ERROR, "store " + dir + " cannot be written (opening " + path +
                                        " for writing: " + std::strerror(err) +
                                        "); get write permission to " + dir +
                                        ", or only read it with `cairn db list`, `info` or "
                                        "`check`");
    }
    return Status(CAIRN_IO_ERROR, "cannot open the lock file " + path + ": " + std::strerror(err));
  }
  while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    int err = errno;
    if (err == EWOULDBLOCK) {
      long pid = ReadHolder(fd);
      close(fd);
      return Busy(dir, pid);
    }
    close(fd);
    return Status(CAIRN_IO_ERROR, "cannot lock " + path + ": " + std::strerror(err));
  }
  std::string pid = std::to_string(getpid()) + "\n";
  if (ftruncate(fd, 0) != 0 ||
      pwrite(fd, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
    int err = errno;
    close(fd);
    return Status(CAIRN_IO_ERROR, "cannot write the lock file " + path + ": " + std::strerror(err));
  }
  lock->reset(new StoreLock(fd, true));
  return Status::Ok();
}

StoreLock::StoreLock(int fd, bool exclusive)
    : fd_(fd), exclusive_(exclusive), generation_(NoteStoreOpened(fd)) {}

StoreLock::~StoreLock() {
  if (ProcessGeneration() != generation_) return;  // a child: its copy was closed at the fork
  NoteStoreClosed(fd_);
  if (!exclusive_) {
    close(fd_);
    return;
  }
  // Truncate first so no one reads our pid after we let go; closing releases the flock.
  if (ftruncate(fd_, 0) != 0) {
    // Nothing to do: the lock is released by close() regardless.
  }
  close(fd_);
}

}  // namespace cairn::store
