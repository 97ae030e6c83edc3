// The store's process lock (see store_lock.h).
#include "store_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
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

// The pid written in the lock file, or 0 if there is none: the file stays empty or holds
// something else (the holder writes it just after taking the lock, so a reader may briefly see
// an empty file; readers write none; a file changed from outside under its holder holds
// anything).
long ReadHolder(int fd) {
  constexpr long kPidMaxLimit = 4194304;  // Linux's PID_MAX_LIMIT
  for (int attempt = 0; attempt < 100; ++attempt) {
    char buf[32] = {};
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n > 0 && buf[n - 1] == '\n') {
      char *end = nullptr;
      errno = 0;
      const long pid = std::strtol(buf, &end, 10);
      const bool valid = end != buf && *end == '\n' && errno == 0 && pid > 0 && pid <= kPidMaxLimit;
      return valid ? pid : 0;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return 0;
}

// The store is held by a writer whose lock file does not say which process it is.
Status BusyWriting(const std::string &dir) {
  return Status(CAIRN_BUSY, "store " + dir +
                                " is in use by another process, which is writing it (its lock "
                                "file " +
                                dir + "/" + kLockFileName +
                                " does not hold its process id: it is starting, or the file was "
                                "changed while the store was in use); wait for it to finish, or "
                                "use another store");
}

Status Busy(const std::string &dir, long pid) {
  if (pid == static_cast<long>(getpid())) {
    return Status(CAIRN_BUSY, "store " + dir + " is in use by process " + std::to_string(pid) +
                                  " (this process: it is already open here; use that Store)");
  }
  if (pid <= 0) {
    return Status(CAIRN_BUSY, "store " + dir +
                                  " is in use by another process, which is reading it (wait "
                                  "for it to finish, or use another store; a program that only "
                                  "reads may share it: set CAIRN_STORE_READ_ONLY=1)");
  }
  return Status(CAIRN_BUSY, "store " + dir + " is in use by process " + std::to_string(pid) +
                                " (wait for it to finish, or use another store)");
}

// A writer holds the directory but not the lock file this process locked or looked for: the
// file was removed or replaced while the writer ran.
Status Replaced(const std::string &dir) {
  return Status(CAIRN_BUSY, "store " + dir + " is in use by another process, whose lock file " +
                                dir + "/" + kLockFileName +
                                " was removed or replaced while it ran (wait for it to finish, "
                                "or use another store; do not delete the lock file of a store "
                                "in use)");
}

// Who holds the store directory's lock when this process cannot take it.
enum class DirHolder { kNobody, kReaders, kWriter };

// Takes the store directory's lock (`how`: LOCK_EX or LOCK_SH), beside the lock file's: *dir_fd
// gets it, or -1 when it was not taken. kNobody also when the directory cannot be opened for
// reading or its file system has no flock on directories (then the file's lock alone stands).
DirHolder LockDirectory(const std::string &dir, int how, int *dir_fd) {
  *dir_fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (*dir_fd < 0) return DirHolder::kNobody;
  while (flock(*dir_fd, how | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    const int err = errno;
    // Only a writer keeps a shared lock out; an exclusive one is kept out by readers too (some
    // of which may hold no lock file), told apart by a shared lock, let go at once by the close.
    DirHolder holder = DirHolder::kNobody;
    if (err == EWOULDBLOCK)
      holder = how == LOCK_SH || flock(*dir_fd, LOCK_SH | LOCK_NB) != 0 ? DirHolder::kWriter
                                                                        : DirHolder::kReaders;
    close(*dir_fd);
    *dir_fd = -1;
    return holder;
  }
  return DirHolder::kNobody;
}

}  // namespace

Status StoreLock::AcquireShared(const std::string &dir, std::unique_ptr<StoreLock> *lock) {
  lock->reset();
  std::string path = dir + "/" + kLockFileName;
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT || errno == EACCES) {
      // Read without the file's lock; the directory's still keeps out of a writer's way.
      int dir_fd = -1;
      if (LockDirectory(dir, LOCK_SH, &dir_fd) == DirHolder::kWriter) {
        return Status(CAIRN_BUSY, "store " + dir +
                                      " is in use by another process, which is writing it "
                                      "(wait for it to finish, or use another store)");
      }
      if (dir_fd >= 0) lock->reset(new StoreLock(-1, dir_fd, false));
      return Status::Ok();
    }
    return Status(CAIRN_IO_ERROR,
                  "cannot open the lock file " + path + ": " + std::strerror(errno));
  }
  while (flock(fd, LOCK_SH | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    int err = errno;
    long pid = err == EWOULDBLOCK ? ReadHolder(fd) : 0;
    close(fd);
    // Only a writer keeps a shared lock out.
    if (err == EWOULDBLOCK) return pid > 0 ? Busy(dir, pid) : BusyWriting(dir);
    return Status(CAIRN_IO_ERROR, "cannot lock " + path + ": " + std::strerror(err));
  }
  int dir_fd = -1;
  if (LockDirectory(dir, LOCK_SH, &dir_fd) == DirHolder::kWriter) {
    close(fd);
    return Replaced(dir);  // the writer does not hold the file this process locked
  }
  lock->reset(new StoreLock(fd, dir_fd, false));
  return Status::Ok();
}

Status StoreLock::Acquire(const std::string &dir, std::unique_ptr<StoreLock> *lock) {
  std::string path = dir + "/" + kLockFileName;
  // The lock file is written (emptied, then given this process's id): never through a link to
  // another file, which would be emptied or made (in a store others may write, any file this
  // process may write). O_NOFOLLOW refuses a symbolic link; a hard link is told by its count.
  int fd = open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  const int open_err = errno;
  struct stat st;
  bool link = false;
  if (fd >= 0) {
    link = fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1;
    if (link) {
      close(fd);
      fd = -1;
    }
  } else if (open_err == ELOOP) {
    // The lock file a symbolic link, not a loop of links in a folder of the path (that is the
    // open's own error, below).
    link = lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
  }
  if (link) {
    return Status(CAIRN_IO_ERROR,
                  "the lock file " + path +
                      " is a link to another file (or not a plain file), which the store "
                      "would write into: nothing was written. Remove it (it holds only the id "
                      "of the process using the store) and try again");
  }
  if (fd < 0) {
    const int err = open_err;
    if (err == EACCES || err == EROFS || err == EPERM) {
      return Status(CAIRN_IO_ERROR, "store " + dir + " cannot be written (opening " + path +
                                        " for writing: " + std::strerror(err) +
                                        "); get write permission to " + dir +
                                        ", or only read it (a program with "
                                        "CAIRN_STORE_READ_ONLY=1; `cairn db list`, `info` or "
                                        "`check`)");
    }
    return Status(CAIRN_IO_ERROR, "cannot open the lock file " + path + ": " + std::strerror(err));
  }
  while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    int err = errno;
    if (err == EWOULDBLOCK) {
      long pid = ReadHolder(fd);
      // No pid: readers (who write none), or a writer whose file was changed under it, told
      // apart by a shared lock (which only a writer keeps out), let go at once by the close.
      const bool writer = pid <= 0 && flock(fd, LOCK_SH | LOCK_NB) != 0;
      close(fd);
      return writer ? BusyWriting(dir) : Busy(dir, pid);
    }
    close(fd);
    return Status(CAIRN_IO_ERROR, "cannot lock " + path + ": " + std::strerror(err));
  }
  int dir_fd = -1;
  if (DirHolder h = LockDirectory(dir, LOCK_EX, &dir_fd); h != DirHolder::kNobody) {
    close(fd);  // the file is this process's own new one: nothing of it is kept
    // Readers without the lock file (it was not there, or they could not read it), or a writer
    // that does not hold the file this process locked.
    return h == DirHolder::kReaders ? Busy(dir, 0) : Replaced(dir);
  }
  std::string pid = std::to_string(getpid()) + "\n";
  if (ftruncate(fd, 0) != 0 ||
      pwrite(fd, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size())) {
    int err = errno;
    close(fd);
    if (dir_fd >= 0) close(dir_fd);
    return Status(CAIRN_IO_ERROR, "cannot write the lock file " + path + ": " + std::strerror(err));
  }
  lock->reset(new StoreLock(fd, dir_fd, true));
  return Status::Ok();
}

StoreLock::StoreLock(int fd, int dir_fd, bool exclusive)
    : fd_(fd), dir_fd_(dir_fd), exclusive_(exclusive), generation_(NoteStoreOpened(fd)) {
  NoteStoreOpened(dir_fd);  // F2 of fork_guard.h: a child holds neither lock
}

StoreLock::~StoreLock() {
  if (ProcessGeneration() != generation_) return;  // a child: its copies were closed at the fork
  NoteStoreClosed(fd_);
  NoteStoreClosed(dir_fd_);
  // The directory goes first: a process can take it only after the file, which we still hold
  // (so nobody is told the file was removed). Then truncate the file, so that no one reads our
  // pid after we let go; closing releases the flock.
  if (dir_fd_ >= 0) close(dir_fd_);
  if (exclusive_ && fd_ >= 0 && ftruncate(fd_, 0) != 0) {
    // Nothing to do: the lock is released by close() regardless.
  }
  if (fd_ >= 0) close(fd_);
}

}  // namespace cairn::store
