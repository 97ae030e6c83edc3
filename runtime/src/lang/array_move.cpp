// Moving and comparing elements between arrays (cairn/lang.h, cairn_array_move and
// cairn_array_same): what std.list and std.btree use to open and close gaps, and what std.list's
// sort checks its list with. No allocation, so nothing moves while the bytes are read.
#include <cstring>
#include <string>

#include "cairn/lang.h"
#include "lang/errors.h"
#include "lang/format.h"

using namespace cairn::lang;

namespace {

// Checks the arguments of a move or a comparison (`what`) of n elements from src at from and
// dst at to, raising the runtime error at loc; returns the element size.
size_t CheckRanges(const cairn_loc *loc, const char *what, void *src, int64_t from, void *dst,
                   int64_t to, int64_t n) {
  if (src == nullptr || dst == nullptr) cairn_rt_nil(loc, "array");
  const cairn_type *t = cairn_type_of(src);
  if (cairn_type_of(dst) != t) {
    RuntimeError(loc, std::string("array ") + what + " between " + t->name + " and " +
                          cairn_type_of(dst)->name);
  }
  const auto src_len = static_cast<int64_t>(cairn_array_length(src));
  const auto dst_len = static_cast<int64_t>(cairn_array_length(dst));
  if (n < 0 || from < 0 || to < 0 || from > src_len - n || to > dst_len - n) {
    std::string m = std::string("array ") + what + " out of range: ";
    AppendInt(&m, n);
    m += " elements from ";
    AppendInt(&m, from);
    m += " (length ";
    AppendInt(&m, src_len);
    m += ") to ";
    AppendInt(&m, to);
    m += " (length ";
    AppendInt(&m, dst_len);
    m += ")";
    RuntimeError(loc, m);
  }
  return t->size;
}

char *Data(void *array) { return static_cast<char *>(array) + CAIRN_ARRAY_DATA_OFFSET; }

}  // namespace

extern "C" void cairn_array_move(const cairn_loc *loc, void *src, int64_t from, void *dst,
                                 int64_t to, int64_t n) {
  const size_t size = CheckRanges(loc, "move", src, from, dst, to, n);
  if (n == 0) return;
  std::memmove(Data(dst) + static_cast<size_t>(to) * size,
               Data(src) + static_cast<size_t>(from) * size, static_cast<size_t>(n) * size);
}

extern "C" int cairn_array_same(const cairn_loc *loc, void *a, int64_t from, void *b, int64_t to,
                                int64_t n) {
  const size_t size = CheckRanges(loc, "comparison", a, from, b, to, n);
  if (n == 0) return 1;
  return std::memcmp(Data(a) + static_cast<size_t>(from) * size,
                     Data(b) + static_cast<size_t>(to) * size, static_cast<size_t>(n) * size) == 0;
}
