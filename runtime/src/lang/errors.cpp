// Runtime errors: the cairn_rt_* functions of cairn/lang.h and the messages they print.
#include "lang/errors.h"

#include <cerrno>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "lang/format.h"
#include "lang/text.h"
#include "lang/transaction.h"

namespace cairn::lang {
namespace {

cairn_runtime_error_hook error_hook = nullptr;
void *error_hook_ctx = nullptr;

}  // namespace

// "N MiB, and the heap has no room for it ... ": the rest of an out-of-memory message for an
// object that fits in the heap but not beside what is live (text.h).
void AppendFullHeap(std::string *m, uint64_t bytes) {
  AppendInt(m, static_cast<int64_t>((bytes + (1 << 20) - 1) >> 20));
  cairn_stats st;
  cairn_get_stats(&st);
  // In use, large objects included (campaign R: the bytes the last collection copied were
  // given as what was live, 0 MiB beside a live text of 4 GiB).
  *m += " MiB, and the heap has no room for it after a collection (";
  AppendInt(m, static_cast<int64_t>((st.transient_pages * CAIRN_PAGE_SIZE) >> 20));
  *m += " MiB in use of the ";
  AppendInt(m, static_cast<int64_t>(cairn_largest_object_bytes() >> 20));
  if (st.machine_bytes != 0) {
    *m +=
        " MiB new objects get, three quarters of this machine's memory and swap; a large object "
        "needs one free stretch of its size); keep less alive, or set CAIRN_HEAP_RESERVE_MB to "
        "give the heap its own size";
    return;
  }
  *m += " MiB new objects get, half the heap's reservation of ";
  AppendInt(m, static_cast<int64_t>(st.reserved_bytes >> 20));
  *m +=
      " MiB; a large object needs one free stretch of its size); keep less alive, or set "
      "CAIRN_HEAP_RESERVE_MB higher";
}

void AppendLargestObject(std::string *m, uint64_t room) {
  AppendInt(m, static_cast<int64_t>(room >> 20));
  cairn_stats st;
  cairn_get_stats(&st);
  *m += st.machine_bytes != 0 ? " MiB: three quarters of this machine's memory and swap)"
                              : " MiB: half its reservation); set CAIRN_HEAP_RESERVE_MB higher";
}

bool HasRuntimeErrorHook() { return error_hook != nullptr; }

// A hook may jump away (siglongjmp) without running the destructors of the frames it leaves, so
// a message is built in this thread's buffer, never in a std::string of a frame being left.
std::string &ErrorMessage() {
  thread_local std::string buffer;
  return buffer;
}

void RuntimeError(const cairn_loc *loc, std::string_view message) {
  errno = 0;
  const bool output_lost = std::fflush(stdout) != 0 || std::ferror(stdout);
  const int output_errno = errno;
  if (error_hook != nullptr) {
    AbortOpenTransaction();
    std::string &text = ErrorMessage();
    if (message.data() != text.data()) text.assign(message);
    error_hook(loc, text.c_str(), error_hook_ctx);  // jumps away, or returns: then as below
  }
  std::string line;
  if (loc != nullptr) {
    line += loc->file != nullptr ? loc->file : "<unknown>";
    line += ':';
    AppendInt(&line, loc->line);
    line += ':';
    AppendInt(&line, loc->col);
    line += ": ";
  }
  line += message;
  line += '\n';
  if (output_lost) {  // as at a normal end (program.cpp): the output is not all there
    line += "error: could not write the program's standard output";
    if (output_errno != 0) {
      line += ": ";
      line += std::strerror(output_errno);
    }
    line += '\n';
  }
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
  AbortOpenTransaction();
  std::exit(CAIRN_EXIT_RUNTIME_ERROR);
}

void DatabaseError(const cairn_loc *loc) {
  // Copied now: cairn_last_error's text lasts only until the next call into the runtime.
  std::string &m = ErrorMessage();
  m = "database error: ";
  m += cairn_last_error();
  RuntimeError(loc, m);
}

void InternalError(const char *fmt, ...) {
  std::fflush(stdout);
  std::fputs("cairn: internal error: ", stderr);
  va_list ap;
  va_start(ap, fmt);
  std::vfprintf(stderr, fmt, ap);
  va_end(ap);
  std::fputc('\n', stderr);
  std::abort();
}

}  // namespace cairn::lang

using cairn::lang::ErrorMessage;
using cairn::lang::RuntimeError;

extern "C" {

void cairn_rt_nil_field(const cairn_loc *loc, const char *field, const char *type) {
  std::string &m = ErrorMessage();
  m = "nil dereference: field '";
  m.append(field).append("' of ").append(type);
  RuntimeError(loc, m);
}

void cairn_rt_nil_method(const cairn_loc *loc, const char *method, const char *type) {
  std::string &m = ErrorMessage();
  m = "nil dereference: method '";
  m.append(method).append("' of ").append(type);
  RuntimeError(loc, m);
}

void cairn_rt_nil(const cairn_loc *loc, const char *what) {
  std::string &m = ErrorMessage();
  m = "nil dereference: ";
  m += what;
  RuntimeError(loc, m);
}

void cairn_rt_index(const cairn_loc *loc, int64_t index, int64_t length) {
  std::string &m = ErrorMessage();
  m = "index out of range: index ";
  cairn::lang::AppendInt(&m, index);
  m += ", length ";
  cairn::lang::AppendInt(&m, length);
  RuntimeError(loc, m);
}

void cairn_rt_negative_length(const cairn_loc *loc, int64_t length) {
  std::string &m = ErrorMessage();
  m = "negative array length: ";
  cairn::lang::AppendInt(&m, length);
  RuntimeError(loc, m);
}

void cairn_rt_cast(const cairn_loc *loc, const void *obj, const char *target) {
  std::string &m = ErrorMessage();
  m = "failed 'as': ";
  m.append(cairn_type_name_of(obj)).append(" is not ").append(target);
  RuntimeError(loc, m);
}

void cairn_rt_div_zero(const cairn_loc *loc) { RuntimeError(loc, "division by zero"); }

// The layout the compiler emits sites in (frontend/lower/lowering.h, site_type_).
static_assert(sizeof(cairn_check_site) == 40 && offsetof(cairn_check_site, kind) == 16 &&
              offsetof(cairn_check_site, a) == 24 && offsetof(cairn_check_site, b) == 32);

void cairn_rt_check_failed(const cairn_check_site *site, int64_t x, int64_t y,
                           const cairn_loc *caller) {
  const cairn_loc *loc = caller != nullptr ? caller : &site->loc;
  switch (site->kind) {
    case CAIRN_CHECK_NIL:
      cairn_rt_nil(loc, site->a);
    case CAIRN_CHECK_NIL_FIELD:
      cairn_rt_nil_field(loc, site->a, site->b);
    case CAIRN_CHECK_NIL_METHOD:
      cairn_rt_nil_method(loc, site->a, site->b);
    case CAIRN_CHECK_INDEX:
      cairn_rt_index(loc, x, y);
    case CAIRN_CHECK_NEGATIVE_LENGTH:
      cairn_rt_negative_length(loc, x);
    case CAIRN_CHECK_CAST:
      cairn_rt_cast(loc, reinterpret_cast<const void *>(static_cast<uintptr_t>(x)), site->a);
    case CAIRN_CHECK_DIV_ZERO:
      cairn_rt_div_zero(loc);
    case CAIRN_CHECK_EXIT_STATUS:
      cairn_rt_exit_status(loc, x);
  }
  std::string &m = ErrorMessage();
  m = "internal error: a failed check of unknown kind ";
  cairn::lang::AppendInt(&m, site->kind);
  RuntimeError(loc, m);
}

void cairn_rt_check_array_length(const cairn_loc *loc, const cairn_type *type, int64_t length) {
  const cairn_type *t = cairn_canonical_type(type);
  const uint64_t most = CAIRN_MAX_ARRAY_BYTES / (t->size > 0 ? t->size : 1);
  if (length >= 0 && static_cast<uint64_t>(length) <= most) {
    // More than the heap can hold in one object: out of memory whatever is live, but nothing
    // is broken yet, so a runtime error (the REPL's session survives it), not a fatal one.
    const uint64_t bytes = static_cast<uint64_t>(length) * t->size + 2 * sizeof(uint64_t);
    const uint64_t room = cairn_largest_object_bytes();
    if (room == 0 || bytes <= room) {
      // It fits in the heap, but may not fit among what is live: said here, where the error
      // has a position and the REPL's session survives it, not by the allocation's fatal one.
      if (cairn_has_room_for(bytes)) return;
      std::string &m = ErrorMessage();
      m = "out of memory: an array of ";
      cairn::lang::AppendInt(&m, length);
      m.append(" elements of ").append(t->name).append(" takes ");
      cairn::lang::AppendFullHeap(&m, bytes);
      RuntimeError(loc, m);
    }
    std::string &m = ErrorMessage();
    m = "out of memory: an array of ";
    cairn::lang::AppendInt(&m, length);
    m.append(" elements of ").append(t->name).append(" takes ");
    // Rounded up and down: the figures never read as equal.
    cairn::lang::AppendInt(&m, static_cast<int64_t>((bytes + (1 << 20) - 1) >> 20));
    m += " MiB, more than the heap has for one object (";
    cairn::lang::AppendLargestObject(&m, room);
    cairn_stats st;
    cairn_get_stats(&st);
    if (st.machine_bytes == 0 && st.requested_bytes > st.reserved_bytes) {
      m += ", and the limit on the process's address space (ulimit -v, ulimit -d) with it: the "
           "heap has ";
      cairn::lang::AppendInt(&m, static_cast<int64_t>(st.reserved_bytes >> 20));
      m += " MiB of the ";
      cairn::lang::AppendInt(&m, static_cast<int64_t>(st.requested_bytes >> 20));
      m += " MiB asked for";
    }
    RuntimeError(loc, m);
  }
  if (length < 0) return;
  std::string &m = ErrorMessage();
  m = "array too large: ";
  cairn::lang::AppendInt(&m, length);
  m.append(" elements of ").append(t->name).append(" (at most ");
  cairn::lang::AppendInt(&m, static_cast<int64_t>(most));
  m += ")";
  RuntimeError(loc, m);
}

void cairn_rt_exit_status(const cairn_loc *loc, int64_t code) {
  std::string &m = ErrorMessage();
  m = "exit status out of range: ";
  cairn::lang::AppendInt(&m, code);
  m += " (an exit status is 0 to 255)";
  RuntimeError(loc, m);
}

void cairn_rt_panic(const cairn_loc *loc, void *message_text) {
  std::string &m = ErrorMessage();
  m = "panic: ";
  if (message_text == nullptr)
    m += "nil";
  else
    m += cairn::lang::TextView(message_text);
  RuntimeError(loc, m);
}

void cairn_rt_error(const cairn_loc *loc, const char *message) { RuntimeError(loc, message); }

void cairn_set_runtime_error_hook(cairn_runtime_error_hook hook, void *ctx) {
  cairn::lang::error_hook = hook;
  cairn::lang::error_hook_ctx = ctx;
}

}  // extern "C"
