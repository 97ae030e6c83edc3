// clock_gettime_ns, the C function of the language sketch's `extern fn` example (cairn/lang.h).
// A file of its own: the archive member is linked only into programs that call it, so a program
// that links its own clock_gettime_ns is not refused for a duplicate.
#include <ctime>

#include "cairn/lang.h"

extern "C" int64_t clock_gettime_ns(void) {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}
