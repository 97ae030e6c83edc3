// Program start and end: the heap, the arguments, standard output's buffering, exit and finish
// (cairn/lang.h, Program start and end).
#include <pthread.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <ucontext.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "cairn/lang.h"
#include "lang/errors.h"
#include "lang/source_position.h"
#include "lang/transaction.h"
#include "util/signal_context.h"

namespace {

int program_argc = 0;
char **program_argv = nullptr;

// A page that could not be faulted in: a runtime error. The hook runs inside the SIGSEGV
// handler (or cairn_make_resident); standard output is flushed only if no one holds its lock
// (the fault may have happened inside a stdio call, which would deadlock on it). Its position is
// the Cairn line that touched the page, itself or through the runtime (a text's bytes, a hash),
// from the executable's line table (source_position.h); none without one (-g0).
void FaultIsARuntimeError(const cairn_fault_error *error, void *) {
  const bool stdout_free = ftrylockfile(stdout) == 0;
  if (stdout_free) {
    std::fflush(stdout);
    funlockfile(stdout);
  }
  char where[4096] = "";
  cairn::lang::SourcePosition position;
  if (cairn::lang::FindCairnPosition(reinterpret_cast<uintptr_t>(error->pc),
                                     cairn::lang::FaultFrame::kToucher, &position))
    cairn::lang::FormatPosition(position, where, sizeof where);
  std::string message = std::string(where) + "database error: " + error->message;
  std::fwrite(message.data(), 1, message.size(), stderr);
  std::fputc('\n', stderr);
  std::fflush(stderr);
  cairn::lang::AbortOpenTransaction();
  // exit() would flush standard output again, and wait for its lock if the fault was inside it.
  if (!stdout_free) std::_Exit(CAIRN_EXIT_RUNTIME_ERROR);
  std::exit(CAIRN_EXIT_RUNTIME_ERROR);
}

// --- Stack overflow ---
// A recursion too deep runs a thread into the guard page below its stack. Without a handler
// that is a bare SIGSEGV (status 139, no message); this handler makes it a runtime error,
// "stack overflow", at the position of the call that nested too deep (the innermost Cairn
// frame's call, from the executable's line table: source_position.h, FaultFrame::kCaller; none
// without one, -g0), and it goes through the embedder's runtime-error hook when one is set (the
// REPL jumps back to its prompt; no position: its JIT code has no line table here). It runs on an
// alternate signal stack (the thread's own is used up), of the size the persistence's handler asks
// for, so that one is kept when the store opens and puts its handler on top (it passes on faults
// not its own). Any other fault goes to the handler this one displaced (the default action if
// none).

constexpr size_t kAltStackBytes = 256 * 1024;
constexpr rlim_t kMainStackBytes = rlim_t{64} << 20;
// A fault this far below the stack's lowest address still counts: a frame larger than the
// guard page steps over it.
constexpr uintptr_t kBelowStackSlack = 1 << 20;
uintptr_t stack_low = 0;  // the watched thread's stack, [stack_low, stack_high)
uintptr_t stack_high = 0;
struct sigaction displaced{};  // what was installed before OnStackFault (never OnStackFault)

void OnStackFault(int sig, siginfo_t *info, void *uctx);

// Hands a fault that is not a stack overflow to the displaced handler, as it asked; for the
// default action (or SIG_IGN, which the kernel does not honour for a fault), restores it and
// returns, so the fault happens again and ends the process.
void PassOn(int sig, siginfo_t *info, void *uctx) {
  const struct sigaction prev = displaced;
  const bool has_fn = (prev.sa_flags & SA_SIGINFO)
                          ? prev.sa_sigaction != nullptr
                          : (prev.sa_handler != SIG_DFL && prev.sa_handler != SIG_IGN);
  if (!has_fn || info->si_code <= 0) {
    struct sigaction dfl{};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, nullptr);
    if (info->si_code <= 0) raise(sig);  // sent by kill(2): send it again, to the default
    return;
  }
  if (prev.sa_flags & SA_RESETHAND) {
    struct sigaction dfl{};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, nullptr);
  }
  sigset_t old;
  pthread_sigmask(SIG_BLOCK, &prev.sa_mask, &old);
  if (prev.sa_flags & SA_SIGINFO)
    prev.sa_sigaction(sig, info, uctx);
  else
    prev.sa_handler(sig);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

void OnStackFault(int sig, siginfo_t *info, void *uctx) {
  const auto addr = reinterpret_cast<uintptr_t>(info->si_addr);
  const bool overflow = info->si_code > 0 && stack_low != 0 && addr < stack_low + 64 * 1024 &&
                        addr + kBelowStackSlack >= stack_low;
  if (!overflow) {
    PassOn(sig, info, uctx);
    return;
  }
  char msg[160];
  const int n = std::snprintf(msg, sizeof msg,
                              "stack overflow: the calls nest too deeply for the stack of %zu KiB "
                              "(a recursion that does not end?)",
                              // In 64 KiB steps: the size the thread library reports for
                              // the main thread varies by a few KiB from run to run.
                              size_t(((stack_high - stack_low) + 65535) / 65536 * 64));
  const size_t len = n < 0 ? 0 : (size_t(n) < sizeof msg ? size_t(n) : sizeof msg - 1);
  // An embedder's hook jumps back to it (with SIGSEGV unblocked again by its siglongjmp).
  if (cairn::lang::HasRuntimeErrorHook())
    cairn::lang::RuntimeError(nullptr, std::string_view(msg, len));
  const bool stdout_free = ftrylockfile(stdout) == 0;
  if (stdout_free) {
    std::fflush(stdout);
    funlockfile(stdout);
  }
  // The position: no malloc here (the overflow may have hit inside it), some of the alternate
  // stack (source_position.h, 1).
  char line[4096 + sizeof msg];
  size_t at = 0;
  cairn::lang::SourcePosition position;
  if (cairn::lang::FindCairnPosition(cairn::util::SignalPc(uctx), cairn::lang::FaultFrame::kCaller,
                                     &position))
    at = cairn::lang::FormatPosition(position, line, 4096);
  std::memcpy(line + at, msg, len);
  line[at + len] = '\n';
  ssize_t ignored = write(STDERR_FILENO, line, at + len + 1);
  (void)ignored;
  cairn::lang::AbortOpenTransaction();
  if (!stdout_free) std::_Exit(CAIRN_EXIT_RUNTIME_ERROR);
  std::exit(CAIRN_EXIT_RUNTIME_ERROR);
}

// Gives the calling thread an alternate signal stack of at least kAltStackBytes.
bool EnsureAltStack() {
  stack_t alt{};
  if (sigaltstack(nullptr, &alt) != 0) return false;
  if (!(alt.ss_flags & SS_DISABLE) && alt.ss_size >= kAltStackBytes) return true;
  void *m = mmap(nullptr, kAltStackBytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) return false;
  stack_t ss{};
  ss.ss_sp = m;
  ss.ss_size = kAltStackBytes;
  if (sigaltstack(&ss, nullptr) != 0) {
    munmap(m, kAltStackBytes);
    return false;
  }
  return true;
}

}  // namespace

using namespace cairn::lang;

extern "C" {

void cairn_lang_start(int argc, char **argv) {
  // Standard output: line by line on a terminal, in large blocks into a pipe or a file. This
  // must precede any output.
  if (isatty(STDOUT_FILENO))
    std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
  else
    std::setvbuf(stdout, nullptr, _IOFBF, 64 * 1024);
  cairn_set_out_of_memory_exit(CAIRN_EXIT_RUNTIME_ERROR);
  // A reader that goes away (`prog | head`) ends the program as it ends other Unix tools, by
  // SIGPIPE and without a message (docs/language.md), even if it was started with SIGPIPE
  // ignored (a write would then fail, a runtime error of status 70).
  std::signal(SIGPIPE, SIG_DFL);
  if (cairn_init(nullptr) != CAIRN_OK) {
    std::fprintf(stderr, "cairn: fatal: the heap could not be set up: %s\n", cairn_last_error());
    std::exit(CAIRN_EXIT_RUNTIME_ERROR);
  }
  cairn_set_fault_error_hook(FaultIsARuntimeError, nullptr);
  // The main thread's stack may grow to kMainStackBytes (the kernel keeps at least 128 MiB below
  // it free for growth when the limit at exec is smaller): a recursion 100,000 calls deep runs
  // at -O0, whose frames are several times larger, as it does at -O2.
  struct rlimit rl{};
  if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
      rl.rlim_cur < kMainStackBytes) {
    rlim_t want = kMainStackBytes;
    if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want) want = rl.rlim_max;
    if (want > rl.rlim_cur) {
      rl.rlim_cur = want;
      (void)setrlimit(RLIMIT_STACK, &rl);
    }
  }
  // A sanitizer's (or an embedder's) SIGSEGV handler is left alone: it reports overflows itself.
  struct sigaction cur{};
  if (sigaction(SIGSEGV, nullptr, &cur) == 0 && !(cur.sa_flags & SA_SIGINFO) &&
      cur.sa_handler == SIG_DFL)
    (void)cairn_lang_catch_stack_overflow();
  program_argc = argc;
  program_argv = argv;
}

int cairn_lang_catch_stack_overflow(void) {
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return -1;
  void *addr = nullptr;
  size_t size = 0;
  const bool known = pthread_attr_getstack(&attr, &addr, &size) == 0;
  pthread_attr_destroy(&attr);
  if (!known || addr == nullptr) return -1;
  if (!EnsureAltStack()) return -1;
  struct sigaction cur{};
  if (sigaction(SIGSEGV, nullptr, &cur) != 0) return -1;
  // Block SIGSEGV while the bounds change, so the handler never sees half of them.
  sigset_t segv, old;
  sigemptyset(&segv);
  sigaddset(&segv, SIGSEGV);
  pthread_sigmask(SIG_BLOCK, &segv, &old);
  stack_low = reinterpret_cast<uintptr_t>(addr);
  stack_high = stack_low + size;
  const bool on_top = (cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == OnStackFault;
  int rc = 0;
  if (!on_top) {
    struct sigaction sa{};
    sa.sa_sigaction = OnStackFault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    struct sigaction prev{};
    if (sigaction(SIGSEGV, &sa, &prev) != 0) {
      rc = -1;
    } else if (!((prev.sa_flags & SA_SIGINFO) && prev.sa_sigaction == OnStackFault)) {
      displaced = prev;
    }
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return rc;
}

}  // extern "C"

namespace {

// Flushes standard output; false, after saying so on standard error, when some of what the
// program printed could not be written (a full disk, /dev/full): the program must not report
// success then.
bool StandardOutputWritten() {
  errno = 0;
  if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return true;
  const int error = errno;
  std::fprintf(stderr, "error: could not write the program's standard output%s%s\n",
               error != 0 ? ": " : "", error != 0 ? std::strerror(error) : "");
  std::fflush(stderr);
  return false;
}

}  // namespace

extern "C" {

int64_t cairn_lang_argc(void) { return program_argc > 1 ? program_argc - 1 : 0; }

const char *cairn_lang_argv(int64_t i) {
  if (i < 0 || i >= cairn_lang_argc())
    InternalError("cairn_lang_argv(%lld) with %lld arguments", (long long)i,
                  (long long)cairn_lang_argc());
  return program_argv[i + 1];
}

void cairn_lang_exit(int64_t code) {
  const bool written = StandardOutputWritten();
  AbortOpenTransaction();
  std::exit(written ? static_cast<int>(code) : CAIRN_EXIT_RUNTIME_ERROR);
}

void cairn_lang_finish(void) {
  AbortTransactionLeftOpen();
  std::exit(StandardOutputWritten() ? 0 : CAIRN_EXIT_RUNTIME_ERROR);
}

}  // extern "C"
