// The runtime's SIGSEGV handler (see fault_signal.h).
#include "persist/fault_signal.h"

#include <pthread.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "gc/gc_heap.h"
#include "gc/roots.h"
#include "persist/persistence.h"
#include "util/signal_context.h"

namespace cairn::persist {

namespace {

// One entry point per installation, each with the action it displaced.
constexpr int kMaxInstalls = 8;
struct sigaction previous[kMaxInstalls];
std::atomic<int> installs{0};

// The faulting instruction's address, from the signal's context (nullptr if not known here).
void *FaultingPc(void *context) { return reinterpret_cast<void *>(util::SignalPc(context)); }

// 1 if the fault was a write, -1 if the machine does not say.
int FaultWasWrite(void *context) {
#if defined(__x86_64__) && defined(REG_ERR)
  // The page-fault error code: bit 1 is set for a write access.
  const auto *uc = static_cast<const ucontext_t *>(context);
  return (uc->uc_mcontext.gregs[REG_ERR] & 2) ? 1 : -1;
#else
  (void)context;
  return -1;
#endif
}

// A fault on a persistent page from a thread other than the mutator: reading the page table
// here races with the mutator, which is why this is fatal rather than served.
[[noreturn]] void OtherThreadTouched(void *addr) {
  char name[32] = "?";
  pthread_getname_np(pthread_self(), name, sizeof name);
  gc::GcHeap *heap = gc::GcHeap::Instance();
  char msg[512];
  int len = std::snprintf(
      msg, sizeof msg,
      "cairn: fatal: thread %ld (\"%s\") touched a persistent object at %p, on a page that "
      "must first be loaded (or, for a write, marked modified) by the runtime. Only the mutator "
      "thread (thread %ld, the one that called cairn_init) may use heap objects in this version "
      "of Cairn: pass data to other threads as copies, not as references.\n",
      long(gettid()), name, addr, heap ? heap->roots().mutator_tid() : -1L);
  if (len > 0) {
    ssize_t ignored = write(2, msg, size_t(len) < sizeof msg ? size_t(len) : sizeof msg - 1);
    (void)ignored;
  }
  std::abort();
}

// The runtime's part of a fault: handled, not ours, or (never returning) an error report. pc:
// the faulting instruction (nullptr: not known, a call from an embedder's handler).
FaultResult Claim(void *addr, int is_write, void *pc) {
  Persistence *p = Persistence::Instance();
  if (!p) return FaultResult::kNotOurs;
  if (!gc::Roots::OnMutatorThread()) {
    if (p->IsPersistentPage(addr)) OtherThreadTouched(addr);
    return FaultResult::kNotOurs;
  }
  FaultResult r = p->HandleFault(addr, is_write);
  if (r == FaultResult::kFailed) p->ReportFaultError(pc);
  return r;
}

// The default action for a signal the runtime does not handle: restore it and let the signal
// happen again (a fault re-executes its instruction; a signal sent by kill is sent again).
void DieByDefault(int sig, const siginfo_t *info) {
  struct sigaction dfl{};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, nullptr);
  sigset_t unblock;
  sigemptyset(&unblock);
  sigaddset(&unblock, sig);
  pthread_sigmask(SIG_UNBLOCK, &unblock, nullptr);
  if (info->si_code <= 0) raise(sig);  // SI_USER, SI_QUEUE, SI_TKILL: not a fault
}

// Hands a signal to the action that entry point k displaced, as the kernel would have.
void Forward(int k, int sig, siginfo_t *info, void *context) {
  struct sigaction prev = previous[k];
  if (prev.sa_handler == SIG_IGN && info->si_code <= 0) return;  // ignored, as before
  if (prev.sa_handler == SIG_DFL || prev.sa_handler == SIG_IGN) {
    DieByDefault(sig, info);
    return;
  }
  if (prev.sa_flags & SA_RESETHAND) {  // one delivery, then the default
    previous[k].sa_handler = SIG_DFL;
    previous[k].sa_flags = 0;
  }
  sigset_t block = prev.sa_mask, old;
  if (!(prev.sa_flags & SA_NODEFER)) sigaddset(&block, sig);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  if (prev.sa_flags & SA_SIGINFO)
    prev.sa_sigaction(sig, info, context);
  else
    prev.sa_handler(sig);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

template <int K>
void OnSegv(int sig, siginfo_t *info, void *context) {
  int saved_errno = errno;
  // si_code > 0: a fault raised by the processor, whose si_addr is the address touched.
  if (info->si_code > 0 &&
      Claim(info->si_addr, FaultWasWrite(context), FaultingPc(context)) == FaultResult::kHandled) {
    errno = saved_errno;
    return;
  }
  Forward(K, sig, info, context);
  errno = saved_errno;
}

template <int... K>
constexpr auto MakeEntryPoints(std::integer_sequence<int, K...>) {
  return std::array<void (*)(int, siginfo_t *, void *), sizeof...(K)>{OnSegv<K>...};
}
constexpr auto kEntryPoints = MakeEntryPoints(std::make_integer_sequence<int, kMaxInstalls>());

bool IsOurs(const struct sigaction &sa) {
  if (!(sa.sa_flags & SA_SIGINFO)) return false;
  for (auto *f : kEntryPoints)
    if (sa.sa_sigaction == f) return true;
  return false;
}

// Gives the calling thread an alternate signal stack (with a guard page below it) unless it has
// one big enough.
Status EnsureAltStack() {
  stack_t cur{};
  if (sigaltstack(nullptr, &cur) != 0)
    return Status(CAIRN_INTERNAL, "sigaltstack failed: " + std::string(std::strerror(errno)));
  if (cur.ss_flags & SS_ONSTACK) return Status::Ok();  // running on one: leave it
  if (!(cur.ss_flags & SS_DISABLE) && cur.ss_size >= kAltStackBytes) return Status::Ok();
  const size_t guard = size_t(sysconf(_SC_PAGESIZE));
  void *m = mmap(nullptr, guard + kAltStackBytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED)
    return Status(CAIRN_OUT_OF_MEMORY, "could not map an alternate signal stack of " +
                                           std::to_string(kAltStackBytes) + " bytes");
  mprotect(m, guard, PROT_NONE);
  stack_t ss{};
  ss.ss_sp = static_cast<char *>(m) + guard;
  ss.ss_size = kAltStackBytes;
  if (sigaltstack(&ss, nullptr) != 0) {
    int e = errno;
    munmap(m, guard + kAltStackBytes);
    return Status(CAIRN_INTERNAL, "sigaltstack failed: " + std::string(std::strerror(e)));
  }
  // The stack it replaced (a sanitizer's, LLVM's) is left mapped: its owner may still free it.
  return Status::Ok();
}

}  // namespace

Status InstallFaultHandler() {
  Status s = EnsureAltStack();
  if (!s.ok()) return s;
  struct sigaction cur{};
  sigaction(SIGSEGV, nullptr, &cur);
  if (IsOurs(cur)) return Status::Ok();
  int k = installs.load();
  if (k == kMaxInstalls)
    return Status(CAIRN_INTERNAL, "the runtime's SIGSEGV handler was installed " +
                                      std::to_string(kMaxInstalls) +
                                      " times, the most it can be; install the other handlers "
                                      "first, then open the store");
  struct sigaction sa{};
  sa.sa_sigaction = kEntryPoints[size_t(k)];
  // SA_NODEFER: a fault-error hook that jumps out with longjmp rather than siglongjmp leaves
  // SIGSEGV unblocked all the same.
  sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  previous[k] = cur;
  installs.store(k + 1);
  if (sigaction(SIGSEGV, &sa, nullptr) != 0)
    return Status(CAIRN_INTERNAL, "could not install the page-fault handler (sigaction: " +
                                      std::string(std::strerror(errno)) + ")");
  sigaction(SIGSEGV, nullptr, &cur);
  if (!IsOurs(cur))
    return Status(CAIRN_INTERNAL,
                  "the page-fault handler could not be installed: something else in the process "
                  "owns SIGSEGV (AddressSanitizer with handle_segv=2?). Let the runtime install "
                  "its handler (ASAN_OPTIONS=handle_segv=1), or pass faults in from your own "
                  "handler with cairn_handle_fault");
  return Status::Ok();
}

int HandleFaultFromEmbedder(void *addr, int is_write) {
  return Claim(addr, is_write < 0 ? -1 : is_write ? 1 : 0, nullptr) == FaultResult::kHandled;
}

}  // namespace cairn::persist
