#include "util/fatal.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace cairn {
namespace {

int out_of_memory_exit = -1;
void (*out_of_memory_hook)(const char *message, void *ctx) = nullptr;
void *out_of_memory_ctx = nullptr;

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

void SetOutOfMemoryHook(void (*hook)(const char *message, void *ctx), void *ctx) {
  out_of_memory_hook = hook;
  out_of_memory_ctx = ctx;
}

void CallOutOfMemoryHook(const char *message) {
  if (out_of_memory_hook != nullptr) out_of_memory_hook(message, out_of_memory_ctx);
}

}  // namespace cairn
