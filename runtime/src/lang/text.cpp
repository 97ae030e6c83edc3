// Text: new heap texts, '+', equality, order and bytes (cairn/lang.h, Text).
#include "lang/text.h"

#include <cstring>

#include "cairn/lang.h"
#include "lang/errors.h"

namespace cairn::lang {
namespace {

// Past this many bytes a text is more than 4 KiB with its header: below it cairn_has_room_for
// (cairn/gc.h) always answers 1, so only a larger text needs CheckTextBytes.
constexpr uint64_t kLargeTextBytes = 4096 - 2 * sizeof(uint64_t);

}  // namespace

void *NewText(std::string_view s) {
  return cairn_text_new(s.data(), static_cast<int64_t>(s.size()));
}

}  // namespace cairn::lang

using namespace cairn::lang;

extern "C" {

void *cairn_text_new(const char *bytes, int64_t n) {
  if (n < 0) InternalError("cairn_text_new was given a negative length (%lld)", (long long)n);
  // bytes may point into a heap object: the pointer stays live across the allocation, which
  // pins that object (an interior pointer pins it as its reference does).
  void *t = cairn_malloc_array(&cairn_text_type, static_cast<size_t>(n));
  if (n > 0) std::memcpy(MutableTextBytes(t), bytes, static_cast<size_t>(n));
  KeepAlive(bytes);
  return t;
}

void *cairn_text_concat(const cairn_loc *loc, void *a, void *b) {
  if (a == nullptr || b == nullptr) RuntimeError(loc, "nil dereference: text in '+'");
  const int64_t la = TextLength(a);
  const int64_t lb = TextLength(b);
  // Texts are immutable and compared by contents, so joining with an empty text may return the
  // other operand itself.
  if (la == 0) return b;
  if (lb == 0) return a;
  // A text the heap cannot hold is the runtime error that says so at the '+' (the allocator's
  // failure is fatal, without a position). Only a large object's allocation can fail that way
  // while the heap has room for small ones (gc/gc_heap.h C1).
  if (uint64_t(la) + uint64_t(lb) > kLargeTextBytes)
    CheckTextBytes(loc, uint64_t(la) + uint64_t(lb), false);
  void *r = cairn_malloc_array(&cairn_text_type, static_cast<size_t>(la + lb));
  std::memcpy(MutableTextBytes(r), TextBytes(a), static_cast<size_t>(la));
  std::memcpy(MutableTextBytes(r) + la, TextBytes(b), static_cast<size_t>(lb));
  KeepAlive(a);
  KeepAlive(b);
  return r;
}

int cairn_text_eq(void *a, void *b) {
  if (a == b) return 1;
  if (a == nullptr || b == nullptr) return 0;
  return TextView(a) == TextView(b);
}

int64_t cairn_text_cmp(void *a, void *b) {
  if (a == b) return 0;
  if (a == nullptr) return -1;
  if (b == nullptr) return 1;
  // std::string_view compares char_traits<char>, which orders bytes as unsigned char.
  const int c = TextView(a).compare(TextView(b));
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

int cairn_any_eq(void *a, void *b) {
  if (a == b) return 1;
  // nil equals only nil, and is decided without reading the other object (whose page may hold
  // a type this program does not define: only using the object may fail, docs/persistence.md).
  if (a == nullptr || b == nullptr) return 0;
  if (IsText(a) && IsText(b)) return cairn_text_eq(a, b);
  return 0;
}

int64_t cairn_text_byte(const cairn_loc *loc, void *t, int64_t i) {
  if (t == nullptr) cairn_rt_nil(loc, "index of text");
  const int64_t n = TextLength(t);
  if (i < 0 || i >= n) cairn_rt_index(loc, i, n);
  return static_cast<unsigned char>(TextBytes(t)[i]);
}

}  // extern "C"
