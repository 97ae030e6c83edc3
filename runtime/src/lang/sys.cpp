// What std.sys calls (cairn/lang.h, "std.sys support"): the runtime's figures, child processes,
// the environment, the OS page cache. Texts given are read before anything is allocated; texts
// returned are new heap texts.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#include "cairn/lang.h"
#include "cairn/store.h"
#include "lang/errors.h"
#include "lang/text.h"

extern char **environ;

using namespace cairn::lang;

namespace {

// The captured standard output of the last cairn_sys_run with capture.
std::string last_output;
// The per-type figures of the last commit, as cairn_sys_commit_types found them.
std::vector<cairn_type_count> commit_types;

std::string TextArg(const cairn_loc *loc, void *t, const char *what) {
  if (t == nullptr) RuntimeError(loc, std::string("nil dereference: ") + what);
  std::string s(TextView(t));
  // The system takes a C string up to its first NUL: the rest would be dropped silently.
  if (s.find('\0') != std::string::npos)
    RuntimeError(loc, std::string(what) +
                          " contains a NUL byte (\\0), which the operating system cannot take");
  return s;
}

uint64_t PersistField(const cairn_persist_stats &s, int64_t which) {
  const uint64_t fields[] = {s.commits,
                             s.aborts,
                             s.pages_faulted,
                             s.write_faults,
                             s.pages_written,
                             s.bytes_written,
                             s.pages_accurate,
                             s.pages_ambiguous,
                             s.pages_large,
                             s.objects_made_persistent,
                             s.bytes_made_persistent,
                             s.pages_evicted,
                             s.frames_released,
                             s.resident_pages,
                             s.reserved_frames,
                             s.stabilize_ns,
                             s.write_ns,
                             s.fault_ns};
  if (which < 0 || which >= static_cast<int64_t>(sizeof fields / sizeof fields[0])) return 0;
  return fields[which];
}

// Evicts every regular file under dir from the page cache; the number of files, or -1 with
// *why set if one could not be.
int64_t EvictFiles(const std::string &dir, std::string *why) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    *why = "no directory " + dir;
    return -1;
  }
  int64_t n = 0;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    int fd = ::open(it->path().c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      *why = it->path().string() + ": " + std::strerror(errno);
      return -1;
    }
    ::fdatasync(fd);
    int rc = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
    if (rc != 0) {
      *why = it->path().string() + ": posix_fadvise: " + std::strerror(rc);
      return -1;
    }
    n++;
  }
  if (ec) {
    *why = dir + ": " + ec.message();
    return -1;
  }
  return n;
}

}  // namespace

extern "C" {

int64_t cairn_sys_persist_stat(int64_t which) {
  cairn_persist_stats s{};
  cairn_persist_get_stats(&s);
  return static_cast<int64_t>(PersistField(s, which));
}

int64_t cairn_sys_last_commit_stat(int64_t which) {
  cairn_persist_stats s{};
  cairn_persist_last_commit_stats(&s);
  return static_cast<int64_t>(PersistField(s, which));
}

int64_t cairn_sys_gc_stat(int64_t which) {
  cairn_stats s{};
  cairn_get_stats(&s);
  const uint64_t fields[] = {s.collections,       s.total_pause_ns,  s.max_pause_ns,
                             s.bytes_allocated,   s.bytes_copied,    s.pages_promoted,
                             s.pages_pinned_last, s.live_bytes_last, s.heap_pages,
                             s.peak_heap_pages,   s.free_pages};
  if (which < 0 || which >= static_cast<int64_t>(sizeof fields / sizeof fields[0])) return 0;
  return static_cast<int64_t>(fields[which]);
}

int64_t cairn_sys_commit_types(void) {
  commit_types.assign(64, cairn_type_count{});
  size_t n = cairn_persist_last_commit_types(commit_types.data(), commit_types.size());
  if (n > commit_types.size()) {
    commit_types.assign(n, cairn_type_count{});
    n = cairn_persist_last_commit_types(commit_types.data(), commit_types.size());
  }
  commit_types.resize(n);
  return static_cast<int64_t>(n);
}

void *cairn_sys_commit_type_name(const cairn_loc *loc, int64_t i) {
  if (i < 0 || i >= static_cast<int64_t>(commit_types.size()))
    cairn_rt_index(loc, i, static_cast<int64_t>(commit_types.size()));
  return NewText(
      commit_types[static_cast<size_t>(i)].type ? commit_types[static_cast<size_t>(i)].type : "?");
}

int64_t cairn_sys_commit_type_stat(const cairn_loc *loc, int64_t i, int64_t which) {
  if (i < 0 || i >= static_cast<int64_t>(commit_types.size()))
    cairn_rt_index(loc, i, static_cast<int64_t>(commit_types.size()));
  const cairn_type_count &c = commit_types[static_cast<size_t>(i)];
  const uint64_t fields[] = {c.objects, c.bytes, c.objects_ambiguous, c.bytes_ambiguous};
  if (which < 0 || which >= 4) return 0;
  return static_cast<int64_t>(fields[which]);
}

void cairn_sys_collect(void) { cairn_collect(); }

int64_t cairn_sys_run(const cairn_loc *loc, void *argv, int capture) {
  if (argv == nullptr) RuntimeError(loc, "nil dereference: the arguments of run");
  const auto n = static_cast<int64_t>(cairn_array_length(argv));
  if (n == 0) RuntimeError(loc, "run: no program given (the argument list is empty)");
  std::vector<std::string> args;
  void **items = reinterpret_cast<void **>(static_cast<char *>(argv) + CAIRN_ARRAY_DATA_OFFSET);
  for (int64_t i = 0; i < n; i++) args.push_back(TextArg(loc, items[i], "an argument of run"));
  std::vector<char *> cargs;
  for (std::string &a : args) cargs.push_back(a.data());
  cargs.push_back(nullptr);
  std::fflush(nullptr);
  last_output.clear();
  int pipe_fds[2] = {-1, -1};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (capture) {
    if (::pipe2(pipe_fds, O_CLOEXEC) != 0)
      RuntimeError(loc, std::string("run: cannot make a pipe: ") + std::strerror(errno));
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  }
  // The child gets standard input, output and error only: not the store's files (RocksDB's
  // log, its lock) nor the runtime's own descriptors, which are not all close-on-exec.
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  pid_t pid = 0;
  int rc = ::posix_spawnp(&pid, cargs[0], &actions, nullptr, cargs.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (capture) ::close(pipe_fds[1]);
  if (rc != 0) {
    if (capture) ::close(pipe_fds[0]);
    RuntimeError(loc, "run: cannot start '" + args[0] + "': " + std::strerror(rc));
  }
  // The output is read up to what a text can hold (LimitOfRead): past it, the child is killed
  // and the call is the runtime error that says so (an output that never ends was read into
  // memory outside the heap until the machine ran out).
  const uint64_t limit = LimitOfRead();
  bool too_large = false;
  if (capture) {
    char buf[65536];
    for (;;) {
      ssize_t got = ::read(pipe_fds[0], buf, sizeof buf);
      if (got > 0) {
        AppendWithin(&last_output, buf, static_cast<size_t>(got), limit);
        if (last_output.size() > limit) {
          too_large = true;
          ::kill(pid, SIGKILL);
          break;
        }
      } else if (got == 0 || errno != EINTR) {
        break;
      }
    }
    ::close(pipe_fds[0]);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) RuntimeError(loc, std::string("run: waitpid: ") + std::strerror(errno));
  }
  if (too_large || (capture && !last_output.empty())) {
    static std::string what;  // a runtime error hook may jump out: nothing here to free
    what = "runCapture: the output of '" + args[0] + "'";
    if (too_large) {
      std::string().swap(last_output);
      TooLargeToRead(loc, what, 0, false, limit);
    }
    CheckTextBytes(loc, last_output.size(), false, what);
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

void *cairn_sys_run_output(void) { return NewText(last_output); }

void *cairn_sys_getenv(const cairn_loc *loc, void *name) {
  std::string n = TextArg(loc, name, "the name of getenv");
  const char *v = std::getenv(n.c_str());
  return v ? NewText(v) : nullptr;
}

void cairn_sys_setenv(const cairn_loc *loc, void *name, void *value) {
  std::string n = TextArg(loc, name, "the name of setenv");
  if (n.empty() || n.find('=') != std::string::npos)
    RuntimeError(loc, "setenv: '" + n + "' is not a variable name");
  if (value == nullptr) {
    ::unsetenv(n.c_str());
    return;
  }
  std::string v = TextArg(loc, value, "the value of setenv");
  ::setenv(n.c_str(), v.c_str(), 1);
}

void *cairn_sys_self_path(void) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return NewText(ec ? std::string() : p.string());
}

void *cairn_sys_store_dir(void) {
  if (const char *open = cairn_store_dir())
    return NewText(std::filesystem::absolute(open).lexically_normal().string());
  // The store the first database call would open (one rule: store::ResolveStoreDir).
  return NewText(
      std::filesystem::absolute(cairn::store::ResolveStoreDir("")).lexically_normal().string());
}

void *cairn_sys_drop_caches(const cairn_loc *loc, void *dir) {
  std::string d = TextArg(loc, dir, "the folder of dropCaches");
  std::error_code ec;
  if (!std::filesystem::is_directory(d, ec))
    return NewText("warm: " + d +
                   " is not a folder: nothing was dropped (give the folder whose files to evict)");
  ::sync();
  std::string why;
  int64_t n = EvictFiles(d, &why);
  if (n >= 0)
    return NewText("evicted: the " + std::to_string(n) + " files of " + d +
                   " from the OS page cache (posix_fadvise DONTNEED)");
  int fd = ::open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
  if (fd >= 0) {
    bool ok = ::write(fd, "1", 1) == 1;
    ::close(fd);
    if (ok) return NewText("dropped: the OS page cache (/proc/sys/vm/drop_caches)");
  }
  return NewText("warm: could not drop the OS page cache (" + why +
                 "; /proc/sys/vm/drop_caches: " + std::strerror(errno) + ")");
}

double cairn_sys_load_average(void) {
  double avg[1] = {0};
  return ::getloadavg(avg, 1) == 1 ? avg[0] : 0.0;
}

int cairn_sys_make_dirs(const cairn_loc *loc, void *path) {
  std::string p = TextArg(loc, path, "the path of makeDirs");
  std::error_code ec;
  std::filesystem::create_directories(p, ec);
  return !ec && std::filesystem::is_directory(p, ec);
}

int cairn_sys_file_exists(const cairn_loc *loc, void *path) {
  std::string p = TextArg(loc, path, "the path of fileExists");
  std::error_code ec;
  return std::filesystem::exists(p, ec);
}

int64_t cairn_sys_pid(void) { return static_cast<int64_t>(::getpid()); }

int64_t cairn_sys_cpu_nanos(void) {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

}  // extern "C"
