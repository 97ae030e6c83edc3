// Standard input, and whole files (cairn/lang.h, Standard library support; std.io). Bytes go
// through std::string: the kernel never writes into or reads from a heap page directly (a
// persistent page may be protected, and a system call would fail with EFAULT instead of
// faulting it in).
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "cairn/lang.h"
#include "lang/errors.h"
#include "lang/text.h"

using namespace cairn::lang;

namespace {

std::string PathOf(const cairn_loc *loc, void *path) {
  if (path == nullptr) cairn_rt_nil(loc, "text (the path)");
  std::string p(TextView(path));
  // The system takes a path up to its first NUL: a path with one would name another file.
  if (p.find('\0') != std::string::npos)
    RuntimeError(loc, "the path contains a NUL byte (\\0), which no file name can hold");
  return p;
}

[[noreturn]] void FileError(const cairn_loc *loc, const char *what, const std::string &path,
                            int err) {
  RuntimeError(loc, std::string("cannot ") + what + " file '" + path + "': " + std::strerror(err));
}

// What a read is of, for its error ("cannot read file 'x'"), and the bytes read: kept here, not
// in std::strings of the reading frame, which a runtime error hook's jump (the REPL's) would
// leak. The buffer is emptied by the read that follows one that failed.
std::string &ReadWhat() {
  static thread_local std::string what;
  return what;
}

std::string &ReadBuffer() {
  static thread_local std::string bytes;
  // Emptied; its memory freed only when large (a line's worth is kept: a free and a malloc per
  // line showed in readLine's profile).
  if (bytes.capacity() > (64u << 10))
    std::string().swap(bytes);
  else
    bytes.clear();
  return bytes;
}

// A read's `bytes` (at most the limit: one object the heap can hold) and whether the heap has
// room for them beside what is live; when it has not, the buffer is freed and the error is
// CheckTextBytes's (the buffer would otherwise be kept until the next read).
void NeedRoomForRead(const cairn_loc *loc, uint64_t bytes) {
  if (cairn_has_room_for(bytes + 2 * sizeof(uint64_t))) return;
  ReadBuffer();
  std::string &m = ErrorMessage();
  m = ReadWhat() + ": out of memory: a text of ";
  AppendFullHeap(&m, bytes);
  RuntimeError(loc, m);
}

// A read of ReadWhat() past `limit` (TooLargeToRead); what was read is freed first.
[[noreturn]] void ReadTooLarge(const cairn_loc *loc, uint64_t bytes, bool exact, uint64_t limit) {
  ReadBuffer();
  TooLargeToRead(loc, ReadWhat(), bytes, exact, limit);
}

}  // namespace

extern "C" {

void *cairn_io_read_line(const cairn_loc *loc) {
  // A prompt shows before a person types; a pipe is not flushed line by line.
  static const bool interactive = isatty(STDIN_FILENO) != 0;
  if (interactive) std::fflush(stdout);
  const uint64_t limit = LimitOfRead();
  ReadWhat() = "cannot read a line of standard input";
  std::string &line = ReadBuffer();
  // Bytes are taken without stdio's lock and gathered in a chunk (a call and an append per byte
  // made 10 million lines 1.6x Python's time: campaign N). A line past the limit stops within a
  // byte of it: a next readLine begins where this one stopped.
  char chunk[4096];
  size_t n = 0;
  int c;
  bool any = false, ended = false;
  errno = 0;
  flockfile(stdin);
  while ((c = getc_unlocked(stdin)) != EOF) {
    any = true;
    if (c == '\n') {
      ended = true;
      break;
    }
    chunk[n++] = static_cast<char>(c);
    if (n == sizeof chunk || line.size() + n > limit) {
      AppendWithin(&line, chunk, n, limit);
      n = 0;
      if (line.size() > limit) {
        funlockfile(stdin);
        ReadTooLarge(loc, line.size(), false, limit);
      }
    }
  }
  AppendWithin(&line, chunk, n, limit);
  funlockfile(stdin);
  if (std::ferror(stdin)) {
    const int err = errno;
    std::clearerr(stdin);
    RuntimeError(loc, std::string("cannot read standard input: ") +
                          (err != 0 ? std::strerror(err) : "read error"));
  }
  if (!any) return nullptr;
  // "\r\n" is a line break; a "\r" at the end of the input, with no "\n", is a byte of the line.
  if (ended && !line.empty() && line.back() == '\r') line.pop_back();
  NeedRoomForRead(loc, line.size());
  void *text = NewText(line);
  ReadBuffer();
  return text;
}

void *cairn_io_read_file(const cairn_loc *loc, void *path) {
  const std::string p = PathOf(loc, path);
  const uint64_t limit = LimitOfRead();
  std::FILE *f = std::fopen(p.c_str(), "rb");
  if (f == nullptr) FileError(loc, "read", p, errno);
  ReadWhat() = "cannot read file '" + p + "'";
  // A file whose size is known is refused before it is read.
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && uint64_t(st.st_size) > limit) {
    std::fclose(f);
    ReadTooLarge(loc, uint64_t(st.st_size), true, limit);
  }
  std::string &data = ReadBuffer();
  char chunk[65536];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof chunk, f)) > 0) {
    AppendWithin(&data, chunk, n, limit);
    if (data.size() > limit) {
      std::fclose(f);
      ReadTooLarge(loc, data.size(), false, limit);
    }
  }
  const int err = std::ferror(f) ? errno : 0;
  std::fclose(f);
  if (err != 0) FileError(loc, "read", p, err);
  NeedRoomForRead(loc, data.size());
  void *text = NewText(data);
  std::string().swap(data);
  return text;
}

void cairn_io_write_file(const cairn_loc *loc, void *path, void *t) {
  const std::string p = PathOf(loc, path);
  if (t == nullptr) cairn_rt_nil(loc, "text (the contents)");
  const std::string data(TextView(t));
  std::FILE *f = std::fopen(p.c_str(), "wb");
  if (f == nullptr) FileError(loc, "write", p, errno);
  const bool ok = std::fwrite(data.data(), 1, data.size(), f) == data.size();
  const int err = ok ? 0 : errno;
  if (std::fclose(f) != 0 && ok) FileError(loc, "write", p, errno);
  if (!ok) FileError(loc, "write", p, err);
}

}  // extern "C"
