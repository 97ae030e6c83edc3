#include "util/fatal.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace cairn {

void Fatal(const char *fmt, ...) {
  std::fflush(stdout);
  std::fputs("cairn: fatal: ", stderr);
  va_list ap;
  va_start(ap, fmt);
  std::vfprintf(stderr, fmt, ap);
  va_end(ap);
  std::fputc('\n', stderr);
  std::abort();
}

}  // namespace cairn
