// What a signal's context (the handler's third argument) says of the interrupted code.
#pragma once

#include <signal.h>
#include <ucontext.h>

#include <cstdint>

namespace cairn::util {

// The address of the instruction the signal interrupted (the faulting one for SIGSEGV), from the
// handler's context; 0 where this machine's context is not known here.
inline uintptr_t SignalPc(const void *context) {
  const auto *uc = static_cast<const ucontext_t *>(context);
#if defined(__x86_64__) && defined(REG_RIP)
  return static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  return static_cast<uintptr_t>(uc->uc_mcontext.pc);
#else
  (void)uc;
  return 0;
#endif
}

}  // namespace cairn::util
