// The text operations of the standard library (cairn/lang.h, Standard library support): find,
// slice, case, trim, replace, parsing and formatting numbers, and a builder's buffer. Each reads
// its arguments' bytes before it allocates, or keeps the arguments live across the allocation
// (text.h).
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "cairn/lang.h"
#include "lang/errors.h"
#include "lang/format.h"
#include "lang/text.h"

namespace cairn::lang {
namespace {

// The first occurrence of w in s at or after `from`, or npos: glibc's memmem, whose two-way
// search is linear in both lengths (string_view::find compares at every place the first byte
// matches: a needle of m bytes in a text of n cost n x m, 21x Python's time in campaign N).
size_t FindIn(std::string_view s, std::string_view w, size_t from) {
  if (from > s.size() || s.size() - from < w.size()) return std::string_view::npos;
  if (w.empty()) return from;
  const void *hit = memmem(s.data() + from, s.size() - from, w.data(), w.size());
  return hit == nullptr ? std::string_view::npos
                        : static_cast<size_t>(static_cast<const char *>(hit) - s.data());
}

// The text t, or a runtime error at loc if it is nil.
std::string_view Need(const cairn_loc *loc, void *t) {
  if (t == nullptr) cairn_rt_nil(loc, "text");
  return TextView(t);
}

// std.text's Builder: its buffer is nil or a [byte] the runtime made (cairn_byte_buffer_type),
// of which `used` bytes are the contents. Anything else (a text put in the field: a literal
// would be written in place) is a runtime error, not damage. Returns the buffer's capacity.
int64_t BufferCapacity(const cairn_loc *loc, const void *buf, int64_t used) {
  if (buf != nullptr && cairn_type_of(buf) != &cairn_byte_buffer_type) {
    static std::string m;  // a runtime error hook may jump out: nothing here to free
    m = std::string("a Builder's buffer is a ") + cairn_type_of(buf)->name +
        ", not one it made: make builders with new Builder {} and give them text with add()";
    RuntimeError(loc, m);
  }
  const int64_t cap = buf == nullptr ? 0 : TextLength(buf);
  if (used < 0 || used > cap) {
    static std::string m;
    m = "a Builder's length is " + std::to_string(used) + " but its buffer holds " +
        std::to_string(cap) + " bytes: make builders with new Builder {} and change them " +
        "only with add() and clear()";
    RuntimeError(loc, m);
  }
  return cap;
}

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// A new text of n bytes whose contents `fill` writes; `keep` stays live across the allocation.
template <class Fill>
void *MakeText(size_t n, const void *keep, Fill fill) {
  void *r = cairn_malloc_array(&cairn_text_type, n);
  fill(MutableTextBytes(r));
  KeepAlive(keep);
  return r;
}

void *MapBytes(const cairn_loc *loc, void *t, char (*f)(char)) {
  const size_t n = Need(loc, t).size();
  return MakeText(n, t, [&](char *out) {
    const char *in = TextBytes(t);
    for (size_t i = 0; i < n; ++i) out[i] = f(in[i]);
  });
}

bool ParseInt(std::string_view s, int64_t *out) {
  *out = 0;
  size_t i = 0;
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    i = 1;
  }
  if (i == s.size()) return false;
  uint64_t v = 0;
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c < '0' || c > '9') return false;
    const auto d = static_cast<uint64_t>(c - '0');
    if (v > (limit - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = negative ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
  return true;
}

bool ParseFloat(std::string_view s, double *out) {
  *out = 0;
  if (s.empty()) return false;
  // from_chars takes no '+', and its "inf"/"nan" forms are the ones accepted here.
  size_t start = s[0] == '+' ? 1 : 0;
  if (start == 1 && s.size() > 1 && s[1] == '-') return false;
  const char *begin = s.data() + start;
  const char *end = s.data() + s.size();
  if (begin == end || IsSpace(*begin)) return false;
  // from_chars also reads C's "nan(chars)", which the documented grammar does not have.
  if (s.find('(') != std::string_view::npos) return false;
  double v = 0;
  const auto r = std::from_chars(begin, end, v, std::chars_format::general);
  if (r.ec != std::errc() || r.ptr != end) return false;
  *out = v;
  return true;
}

}  // namespace

// (text.h)
void CheckTextBytes(const cairn_loc *loc, uint64_t bytes, bool overflow, const std::string &what) {
  const uint64_t room = cairn_largest_object_bytes();
  if (!overflow && bytes <= CAIRN_MAX_ARRAY_BYTES &&
      (room == 0 || bytes + 2 * sizeof(uint64_t) <= room)) {
    if (cairn_has_room_for(bytes + 2 * sizeof(uint64_t))) return;
    std::string &m = ErrorMessage();
    m = what.empty() ? "" : what + ": ";
    m += "out of memory: a text of ";
    AppendFullHeap(&m, bytes);
    RuntimeError(loc, m);
  }
  std::string &m = ErrorMessage();
  m = what.empty() ? "" : what + ": ";
  m += "out of memory: a text of ";
  if (overflow || bytes > CAIRN_MAX_ARRAY_BYTES) {
    // No heap holds one (a text is at most CAIRN_MAX_ARRAY_BYTES): no reserve would help.
    m = (what.empty() ? "" : what + ": ") +
        "text too large: more than 1 TiB, the most a text can hold whatever the heap";
    RuntimeError(loc, m);
  }
  AppendInt(&m, static_cast<int64_t>((bytes + (1 << 20) - 1) >> 20));
  m += " MiB is more than the heap has for one object (";
  AppendLargestObject(&m, room);
  RuntimeError(loc, m);
}

uint64_t LimitOfRead() {
  constexpr uint64_t kHeader = 2 * sizeof(uint64_t);
  const uint64_t room = cairn_largest_object_bytes();
  if (room == 0) return CAIRN_MAX_ARRAY_BYTES;
  return std::min<uint64_t>(CAIRN_MAX_ARRAY_BYTES, room > kHeader ? room - kHeader : 0);
}

void AppendWithin(std::string *s, const char *bytes, size_t n, uint64_t limit) {
  if (s->size() + n > s->capacity()) {
    const uint64_t doubled = std::max<uint64_t>(uint64_t(s->capacity()) * 2, s->size() + n);
    s->reserve(static_cast<size_t>(std::min<uint64_t>(doubled, limit + n + 1)));
  }
  s->append(bytes, n);
}

void TooLargeToRead(const cairn_loc *loc, const std::string &what, uint64_t bytes, bool exact,
                    uint64_t limit) {
  // A size known is the heap's own message (it says how much more the heap would need).
  if (exact) CheckTextBytes(loc, bytes, false, what);
  std::string &m = ErrorMessage();
  m = what + ": out of memory: it holds more than ";
  AppendInt(&m, static_cast<int64_t>(limit >> 20));
  m += " MiB, the most the heap has for one object (";
  AppendLargestObject(&m, cairn_largest_object_bytes());
  RuntimeError(loc, m);
}

}  // namespace cairn::lang

using namespace cairn::lang;

extern "C" {

void cairn_std_error(const cairn_loc *loc, void *message) {
  RuntimeError(loc, message == nullptr ? std::string_view("nil") : TextView(message));
}

int64_t cairn_text_find(const cairn_loc *loc, void *t, void *sub, int64_t from) {
  const std::string_view s = Need(loc, t);
  const std::string_view w = Need(loc, sub);
  if (from < 0) from = 0;
  if (static_cast<uint64_t>(from) > s.size()) return -1;
  const size_t at = FindIn(s, w, static_cast<size_t>(from));
  return at == std::string_view::npos ? -1 : static_cast<int64_t>(at);
}

void *cairn_text_slice(const cairn_loc *loc, void *t, int64_t from, int64_t to) {
  const auto n = static_cast<int64_t>(Need(loc, t).size());
  if (from < 0 || from > to || to > n) {
    std::string m = "slice out of range: from ";
    AppendInt(&m, from);
    m += ", to ";
    AppendInt(&m, to);
    m += ", length ";
    AppendInt(&m, n);
    RuntimeError(loc, m);
  }
  if (from == 0 && to == n) return t;  // texts are immutable: the whole is itself
  return MakeText(static_cast<size_t>(to - from), t, [&](char *out) {
    std::memcpy(out, TextBytes(t) + from, static_cast<size_t>(to - from));
  });
}

void *cairn_text_upper(const cairn_loc *loc, void *t) {
  return MapBytes(loc, t, [](char c) { return c >= 'a' && c <= 'z' ? char(c - 32) : c; });
}

void *cairn_text_lower(const cairn_loc *loc, void *t) {
  return MapBytes(loc, t, [](char c) { return c >= 'A' && c <= 'Z' ? char(c + 32) : c; });
}

void *cairn_text_trim(const cairn_loc *loc, void *t) {
  const std::string_view s = Need(loc, t);
  size_t from = 0, to = s.size();
  while (from < to && IsSpace(s[from])) ++from;
  while (to > from && IsSpace(s[to - 1])) --to;
  return cairn_text_slice(loc, t, static_cast<int64_t>(from), static_cast<int64_t>(to));
}

void *cairn_text_replace(const cairn_loc *loc, void *t, void *a, void *b) {
  const std::string_view s = Need(loc, t);
  const std::string_view from = Need(loc, a);
  const std::string_view to = Need(loc, b);
  if (from.empty()) RuntimeError(loc, "replace: the text to replace is empty");
  // Counted first, so that a result the heap cannot hold is the runtime error that says so
  // (CheckTextBytes), not a fatal error or a buffer outside the heap as large as the result.
  uint64_t hits = 0;
  for (size_t at = FindIn(s, from, 0); at != std::string_view::npos;
       at = FindIn(s, from, at + from.size()))
    ++hits;
  if (hits == 0) return t;
  const uint64_t shrink = hits * from.size();
  const bool overflow = to.size() != 0 && hits > (CAIRN_MAX_ARRAY_BYTES + shrink) / to.size();
  const uint64_t bytes = overflow ? 0 : s.size() - shrink + hits * to.size();
  CheckTextBytes(loc, bytes, overflow, "replace");
  // t, a and b stay live across the allocation (their references are on this frame), so their
  // bytes are read again after it.
  void *r = cairn_malloc_array(&cairn_text_type, static_cast<size_t>(bytes));
  const std::string_view src = TextView(t), old = TextView(a), now = TextView(b);
  char *out = MutableTextBytes(r);
  size_t at = 0;
  for (size_t hit = FindIn(src, old, 0); hit != std::string_view::npos;
       hit = FindIn(src, old, at)) {
    std::memcpy(out, src.data() + at, hit - at);
    out += hit - at;
    std::memcpy(out, now.data(), now.size());
    out += now.size();
    at = hit + old.size();
  }
  std::memcpy(out, src.data() + at, src.size() - at);
  KeepAlive(t);
  KeepAlive(a);
  KeepAlive(b);
  return r;
}

void *cairn_text_of_byte(const cairn_loc *loc, int64_t b) {
  if (b < 0 || b > 255) {
    std::string m = "byte out of range: ";
    AppendInt(&m, b);
    m += " (a byte is 0 to 255)";
    RuntimeError(loc, m);
  }
  const char c = static_cast<char>(b);
  return NewText(std::string_view(&c, 1));
}

int cairn_text_parse_int_ok(const cairn_loc *loc, void *t) {
  int64_t v;
  return ParseInt(Need(loc, t), &v) ? 1 : 0;
}

int64_t cairn_text_parse_int(const cairn_loc *loc, void *t) {
  int64_t v;
  ParseInt(Need(loc, t), &v);
  return v;
}

int cairn_text_parse_float_ok(const cairn_loc *loc, void *t) {
  double v;
  return ParseFloat(Need(loc, t), &v) ? 1 : 0;
}

double cairn_text_parse_float(const cairn_loc *loc, void *t) {
  double v;
  ParseFloat(Need(loc, t), &v);
  return v;
}

void *cairn_text_format_float(const cairn_loc *loc, double x, int64_t digits) {
  if (digits < 0 || digits > 100) {
    std::string m = "formatFloat: digits out of range: ";
    AppendInt(&m, digits);
    m += " (0 to 100)";
    RuntimeError(loc, m);
  }
  if (std::isnan(x)) return NewText("nan");
  if (std::isinf(x)) return NewText(x < 0 ? "-inf" : "inf");
  char buf[512];
  const int n = std::snprintf(buf, sizeof buf, "%.*f", static_cast<int>(digits), x);
  if (n >= 0 && static_cast<size_t>(n) < sizeof buf) return NewText(std::string_view(buf, n));
  std::string big(static_cast<size_t>(n) + 1, '\0');
  std::snprintf(big.data(), big.size(), "%.*f", static_cast<int>(digits), x);
  big.resize(static_cast<size_t>(n));
  return NewText(big);
}

void *cairn_text_buffer_append(const cairn_loc *loc, void *buf, int64_t used, void *piece) {
  const int64_t add = static_cast<int64_t>(Need(loc, piece).size());
  const int64_t cap = BufferCapacity(loc, buf, used);
  if (add == 0) return buf;
  if (used + add > cap) {
    CheckTextBytes(loc, static_cast<uint64_t>(used) + static_cast<uint64_t>(add), false);
    int64_t grown = cap * 2;
    if (grown < 16) grown = 16;
    // Not past what the heap holds in one object, when the contents still fit.
    const uint64_t room = cairn_largest_object_bytes();
    if (room != 0 && static_cast<uint64_t>(grown) + 2 * sizeof(uint64_t) > room)
      grown = static_cast<int64_t>(room - 2 * sizeof(uint64_t));
    if (grown < used + add) grown = used + add;
    // Doubling may not fit beside what is live where the exact size does (CheckTextBytes).
    if (!cairn_has_room_for(static_cast<uint64_t>(grown) + 2 * sizeof(uint64_t)))
      grown = used + add;
    void *bigger = cairn_malloc_array(&cairn_byte_buffer_type, static_cast<size_t>(grown));
    if (used > 0) std::memcpy(MutableTextBytes(bigger), TextBytes(buf), static_cast<size_t>(used));
    KeepAlive(buf);
    buf = bigger;
  }
  std::memcpy(MutableTextBytes(buf) + used, TextBytes(piece), static_cast<size_t>(add));
  KeepAlive(piece);
  return buf;
}

void *cairn_text_repeat(const cairn_loc *loc, void *t, int64_t n) {
  const size_t len = Need(loc, t).size();
  if (n <= 0 || len == 0) return NewText("");
  const bool overflow = static_cast<uint64_t>(n) > CAIRN_MAX_ARRAY_BYTES / len;
  const uint64_t bytes = overflow ? 0 : static_cast<uint64_t>(n) * len;
  CheckTextBytes(loc, bytes, overflow);
  return MakeText(static_cast<size_t>(bytes), t, [&](char *out) {
    std::memcpy(out, TextBytes(t), len);
    // The copies made so far, copied again: about log2(n) copies.
    for (size_t done = len; done < bytes;) {
      const size_t k = std::min<size_t>(done, static_cast<size_t>(bytes) - done);
      std::memcpy(out + done, out, k);
      done += k;
    }
  });
}

void *cairn_text_buffer_text(const cairn_loc *loc, void *buf, int64_t used) {
  BufferCapacity(loc, buf, used);
  return MakeText(static_cast<size_t>(used), buf, [&](char *out) {
    if (used > 0) std::memcpy(out, TextBytes(buf), static_cast<size_t>(used));
  });
}

}  // extern "C"
