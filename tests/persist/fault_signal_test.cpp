// The runtime's SIGSEGV handler lives with others (docs/persistence.md, "Page faults and
// SIGSEGV"):
//   - a handler installed before it (SA_SIGINFO or plain) receives every fault that is not the
//     runtime's, while the runtime goes on serving its own;
//   - with no handler before it, a fault that is not the runtime's kills the process by SIGSEGV
//     (the default action), and so does a SIGSEGV sent with kill;
//   - a library that installs its handler later and, like LLVM's, puts back the one it found
//     when it sees a crash: after cairn_install_fault_handler it sees no page fault of the
//     runtime's, sees a real crash once, and the process dies by SIGSEGV (no loop);
//   - an embedder whose own handler does not pass faults on serves the runtime's through
//     cairn_handle_fault (reads and writes, the writes committed);
//   - a fault on a persistent page with the stack all but exhausted is served (the handler runs
//     on an alternate signal stack);
//   - another thread touching a persistent page is a fatal error naming that thread.
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <ucontext.h>
#include <unistd.h>

#include <csetjmp>
#include <cstring>
#include <string>
#include <thread>

#include "child.h"
#include "fault_db.h"
#include "persist_test.h"

using namespace cairn_ptest;

namespace {

sigjmp_buf back;
volatile int calls = 0;
volatile int seen_sig = 0;
void *volatile seen_addr = nullptr;

// A page no one may touch, outside the heap.
char *ForbiddenPage() {
  void *p = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CK(p != MAP_FAILED);
  return static_cast<char *>(p);
}

void NoCoreDump() {
  rlimit none{0, 0};
  setrlimit(RLIMIT_CORE, &none);
}

// No handler for SIGSEGV, whatever the process started with (AddressSanitizer installs one).
void DefaultSigsegv() {
  struct sigaction dfl{};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  CK(sigaction(SIGSEGV, &dfl, nullptr) == 0);
}

// Opens "faulty" and begins a transaction; its root's page is not loaded yet.
Node *BeginOnFaulty() {
  CK_OK(cairn_register_type(&kBlobType));
  cairn_db *db = OpenDb("faulty");
  CK_OK(cairn_txn_begin());
  return RootAs<Node>(db);
}

int64_t Read(const int64_t *p) { return *static_cast<const volatile int64_t *>(p); }

void PreviousWithInfo(int sig, siginfo_t *info, void *) {
  calls = calls + 1;
  seen_sig = sig;
  seen_addr = info->si_addr;
  siglongjmp(back, 1);
}

void PreviousPlain(int sig) {
  calls = calls + 1;
  seen_sig = sig;
  siglongjmp(back, 1);
}

// Like LLVM's handler: on a fault, report, put back the action found at installation, return.
struct sigaction reporter_found;
void CrashReporter(int, siginfo_t *info, void *) {
  char msg[96];
  int n = std::snprintf(msg, sizeof msg, "crash reporter: fault at %p\n", info->si_addr);
  ssize_t ignored = write(2, msg, size_t(n));
  (void)ignored;
  sigaction(SIGSEGV, &reporter_found, nullptr);
}

// An embedder's own handler, which does not pass faults on.
volatile int served = 0;
void Embedder(int, siginfo_t *info, void *context) {
  int is_write = -1;
#if defined(__x86_64__) && defined(REG_ERR)
  is_write = (static_cast<ucontext_t *>(context)->uc_mcontext.gregs[REG_ERR] & 2) ? 1 : 0;
#else
  (void)context;
#endif
  if (cairn_handle_fault(info->si_addr, is_write)) {
    served = served + 1;
    return;
  }
  calls = calls + 1;
  seen_addr = info->si_addr;
  siglongjmp(back, 1);
}

}  // namespace

// args: siginfo | plain. The program's handler is installed before the store is opened.
PERSIST_CHILD(Signals_Previous) {
  const bool siginfo = args.args.at(0) == "siginfo";
  struct sigaction sa{};
  if (siginfo) {
    sa.sa_sigaction = PreviousWithInfo;
    sa.sa_flags = SA_SIGINFO;
  } else {
    sa.sa_handler = PreviousPlain;
  }
  sigemptyset(&sa.sa_mask);
  CK(sigaction(SIGSEGV, &sa, nullptr) == 0);
  OpenStore(args);
  Node *root = BeginOnFaulty();
  CK_EQ(Read(&root->id), 1);  // the runtime's fault: the program's handler does not see it
  CK_EQ(calls, 0);
  char *forbidden = ForbiddenPage();
  if (sigsetjmp(back, 1) == 0) {
    Say("TOUCHED %d\n", int(*static_cast<volatile char *>(forbidden + 8)));
    return 3;
  }
  CK_EQ(calls, 1);
  CK_EQ(seen_sig, SIGSEGV);
  if (siginfo) {
    CK_EQ(seen_addr, static_cast<void *>(forbidden + 8));
  }
  // The runtime still serves its faults: a page run not loaded yet, and a first write.
  CK_EQ(Read(&reinterpret_cast<Blob *>(root->left)->tag), kBlobTag);
  root->value = 9;
  CK(Stats().write_faults >= 1);
  CK_EQ(calls, 1);
  CK_OK(cairn_txn_abort());
  return 0;
}

// args: fault | kill. No handler before the runtime's.
PERSIST_CHILD(Signals_Default) {
  NoCoreDump();
  DefaultSigsegv();
  OpenStore(args);
  Node *root = BeginOnFaulty();
  CK_EQ(Read(&root->id), 1);
  Say("SERVED\n");
  if (args.args.at(0) == "kill") {
    kill(getpid(), SIGSEGV);
  } else {
    Say("TOUCHED %d\n", int(*static_cast<volatile char *>(ForbiddenPage())));
  }
  return 3;
}

// args: reinstall | none. A crash reporter installed after the store was opened.
PERSIST_CHILD(Signals_LateLibrary) {
  NoCoreDump();
  DefaultSigsegv();
  OpenStore(args);
  struct sigaction sa{};
  sa.sa_sigaction = CrashReporter;
  sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_RESETHAND | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  CK(sigaction(SIGSEGV, &sa, &reporter_found) == 0);
  if (args.args.at(0) == "reinstall") {
    CK_OK(cairn_install_fault_handler());
    CK_OK(cairn_install_fault_handler());  // on top already: nothing changes
  }
  Node *root = BeginOnFaulty();
  CK_EQ(Read(&root->id), 1);
  CK_EQ(Read(&reinterpret_cast<Blob *>(root->left)->tag), kBlobTag);
  root->value = 9;
  Say("SERVED\n");
  Say("TOUCHED %d\n", int(*static_cast<volatile char *>(ForbiddenPage())));
  return 3;
}

// The embedder's handler goes on top after the store is opened and never calls the runtime's.
PERSIST_CHILD(Signals_Embedder) {
  OpenStore(args);
  struct sigaction sa{};
  sa.sa_sigaction = Embedder;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  CK(sigaction(SIGSEGV, &sa, nullptr) == 0);
  Node *root = BeginOnFaulty();
  CK_EQ(Read(&root->id), 1);
  CK_EQ(Read(&reinterpret_cast<Blob *>(root->left)->tag), kBlobTag);
  *static_cast<volatile int64_t *>(&root->value) = 11;  // a write fault, served likewise
  CK_EQ(served, 3);
  CK_OK(cairn_txn_commit());
  char *forbidden = ForbiddenPage();
  if (sigsetjmp(back, 1) == 0) {
    Say("TOUCHED %d\n", int(*static_cast<volatile char *>(forbidden)));
    return 3;
  }
  CK_EQ(calls, 1);
  CK_EQ(seen_addr, static_cast<void *>(forbidden));
  CK_EQ(cairn_handle_fault(forbidden, 0), 0);  // called directly: not the runtime's
  return 0;
}

namespace {

// Recurses until fewer than `margin` bytes of the thread's stack are left below, then reads
// the node's id (a persistent page not loaded yet). Not instrumented by AddressSanitizer, whose
// fake stack frames would not use up the real stack.
__attribute__((noinline, no_sanitize("address"))) int64_t ReadNearStackLimit(const Node *node,
                                                                             uintptr_t lowest,
                                                                             size_t margin) {
  volatile char frame[256];
  frame[0] = 1;
  uintptr_t here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  if (here - lowest > margin + sizeof frame + 256)
    return ReadNearStackLimit(node, lowest, margin) + frame[0] - 1;
  return Read(&node->id) + frame[0] - 1;
}

struct DeepArgs {
  const ChildArgs *args;
  size_t margin;
};

void *DeepMutator(void *p) {
  const DeepArgs &d = *static_cast<DeepArgs *>(p);
  OpenStore(*d.args);  // this thread is the mutator
  Node *root = BeginOnFaulty();
  pthread_attr_t attr;
  void *lowest = nullptr;
  size_t size = 0;
  CK(pthread_getattr_np(pthread_self(), &attr) == 0);
  CK(pthread_attr_getstack(&attr, &lowest, &size) == 0);
  pthread_attr_destroy(&attr);
  CK_EQ(ReadNearStackLimit(root, reinterpret_cast<uintptr_t>(lowest), d.margin), 1);
  Say("READ_NEAR_LIMIT margin=%zu\n", d.margin);
  CK_OK(cairn_txn_abort());
  return nullptr;
}

}  // namespace

// args: margin (bytes of stack left when the page is touched). The mutator is a thread with a
// stack of 1 MiB.
PERSIST_CHILD(Signals_NearStackLimit) {
  NoCoreDump();
  DeepArgs d{&args, size_t(args.Int(0))};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 1 << 20);
  pthread_t t;
  CK(pthread_create(&t, &attr, DeepMutator, &d) == 0);
  pthread_join(t, nullptr);
  return 0;
}

// args: read | write. Another thread touches the root's page (not loaded), or writes it (clean).
PERSIST_CHILD(Signals_OtherThread) {
  NoCoreDump();
  OpenStore(args);
  Node *root = BeginOnFaulty();
  const bool write = args.args.at(0) == "write";
  if (write) {
    CK_EQ(Read(&root->id), 1);  // loaded, clean
  }
  std::thread([root, write] {
    pthread_setname_np(pthread_self(), "toucher");
    if (write)
      *static_cast<volatile int64_t *>(&root->value) = 3;
    else
      Say("READ %ld\n", static_cast<long>(Read(&root->id)));
  }).join();
  Say("SURVIVED\n");
  return 3;
}

class PersistSignals : public PersistTest {
 protected:
  void SetUp() override { ASSERT_CHILD_OK(Run("FaultDb_Write")); }
};

TEST_F(PersistSignals, AnSaSiginfoHandlerInstalledBeforeGetsTheFaultsThatAreNotTheRuntimes) {
  EXPECT_CHILD_OK(Run("Signals_Previous", {"siginfo"}));
}

TEST_F(PersistSignals, APlainHandlerInstalledBeforeGetsTheFaultsThatAreNotTheRuntimes) {
  EXPECT_CHILD_OK(Run("Signals_Previous", {"plain"}));
}

TEST_F(PersistSignals, WithNoHandlerBeforeAFaultThatIsNotTheRuntimesKillsBySigsegv) {
  for (const char *how : {"fault", "kill"}) {
    ChildResult r = Run("Signals_Default", {how}, {}, 60);
    EXPECT_EQ(r.signal, SIGSEGV) << how << "\n" << r.Describe();
    EXPECT_NE(r.out.find("SERVED"), std::string::npos) << r.Describe();
    EXPECT_EQ(r.out.find("TOUCHED"), std::string::npos) << r.Describe();
  }
}

TEST_F(PersistSignals, ALibraryInstalledLaterDoesNotSeeThePageFaultsAfterReinstallation) {
  ChildResult r = Run("Signals_LateLibrary", {"reinstall"}, {}, 60);
  EXPECT_FALSE(r.timed_out) << r.Describe();
  EXPECT_EQ(r.signal, SIGSEGV) << r.Describe();
  EXPECT_NE(r.out.find("SERVED"), std::string::npos) << r.Describe();
  EXPECT_EQ(r.out.find("TOUCHED"), std::string::npos) << r.Describe();
  // It reported the real crash, once; never a page fault of the runtime's.
  size_t first = r.err.find("crash reporter");
  EXPECT_NE(first, std::string::npos) << r.Describe();
  EXPECT_EQ(r.err.find("crash reporter", first + 1), std::string::npos) << r.Describe();
}

TEST_F(PersistSignals, ALibraryInstalledLaterTakesPageFaultsForCrashesWithoutReinstallation) {
  // The control of the test above: what cairn_install_fault_handler is for.
  ChildResult r = Run("Signals_LateLibrary", {"none"}, {}, 60);
  EXPECT_NE(r.err.find("crash reporter"), std::string::npos) << r.Describe();
  EXPECT_LT(r.err.find("crash reporter"), r.err.size()) << r.Describe();
  EXPECT_EQ(r.out.find("TOUCHED"), std::string::npos) << r.Describe();
}

TEST_F(PersistSignals, AnEmbeddersHandlerPassesFaultsInThroughCairnHandleFault) {
  ASSERT_CHILD_OK(Run("Signals_Embedder"));
  ASSERT_CHILD_OK(Run("FaultDb_Check", {"11", "2", "1"}));
}

TEST_F(PersistSignals, AFaultWithTheStackNearlyExhaustedIsServedOnTheAlternateStack) {
  for (const char *margin : {"1024", "4096", "16384"}) {
    ChildResult r = Run("Signals_NearStackLimit", {margin}, {}, 60);
    EXPECT_CHILD_OK(r);
    EXPECT_NE(r.out.find("READ_NEAR_LIMIT"), std::string::npos) << r.Describe();
  }
}

TEST_F(PersistSignals, AnotherThreadTouchingAPersistentPageIsAFatalErrorNamingIt) {
  for (const char *how : {"read", "write"}) {
    ChildResult r = Run("Signals_OtherThread", {how}, {}, 60);
    EXPECT_EQ(r.signal, SIGABRT) << how << "\n" << r.Describe();
    EXPECT_EQ(r.out.find("SURVIVED"), std::string::npos) << r.Describe();
    EXPECT_EQ(r.out.find("READ"), std::string::npos) << r.Describe();
    EXPECT_NE(r.err.find("\"toucher\""), std::string::npos) << r.Describe();
    EXPECT_NE(r.err.find("mutator"), std::string::npos) << r.Describe();
  }
}
