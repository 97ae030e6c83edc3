// Moving elements between arrays (cairn/lang.h, cairn_array_move): what std.list and std.btree
// use to open and close gaps. No allocation, so nothing moves while the bytes are copied.
#include <cstring>
#include <string>

#include "cairn/lang.h"
#include "lang/errors.h"
#include "lang/format.h"

using namespace cairn::lang;

extern "C" void cairn_array_move(const cairn_loc *loc, void *src, int64_t from, void *dst,
                                 int64_t to, int64_t n) {
  if (src == nullptr || dst == nullptr) cairn_rt_nil(loc, "array");
  const cairn_type *t = cairn_type_of(src);
  if (cairn_type_of(dst) != t) {
    RuntimeError(loc,
                 std::string("array move between ") + t->name + " and " + cairn_type_of(dst)->name);
  }
  const auto src_len = static_cast<int64_t>(cairn_array_length(src));
  const auto dst_len = static_cast<int64_t>(cairn_array_length(dst));
  if (n < 0 || from < 0 || to < 0 || from > src_len - n || to > dst_len - n) {
    std::string m = "array move out of range: ";
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
  if (n == 0) return;
  const size_t size = t->size;
  char *s = static_cast<char *>(src) + CAIRN_ARRAY_DATA_OFFSET;
  char *d = static_cast<char *>(dst) + CAIRN_ARRAY_DATA_OFFSET;
  std::memmove(d + static_cast<size_t>(to) * size, s + static_cast<size_t>(from) * size,
               static_cast<size_t>(n) * size);
}
