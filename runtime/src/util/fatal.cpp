#include "util/fatal.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace cairn {
namespace {

int out_of_memory_exit = -1;

void Print(const char *fmt, va_list ap) {
  std::fflush(stdout);
  std::fputs("cairn: fatal: ", stderr);
  std::vfprintf(stderr, fmt, ap);
  std::fputc('\n', stderr);
  std::fflush(stderr);
}

}  // namespace

void Fatal(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  Print(fmt, ap);
  va_end(ap);
  std::abort();
}

void OutOfMemory(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  Print(fmt, ap);
  va_end(ap);
  // _Exit: the heap is mid-allocation or mid-collection, so no exit handler may run.
  if (out_of_memory_exit >= 0) std::_Exit(out_of_memory_exit);
  std::abort();
}

void SetOutOfMemoryExit(int status) { out_of_memory_exit = status; }

}  // namespace cairn
