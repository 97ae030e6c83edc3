// The runtime's SIGSEGV handler, and how it lives with the other handlers in a process (LLVM's,
// a sanitizer's, the program's own).
//
//   - A fault on a persistent page, on the mutator thread, is the runtime's: the page is loaded
//     or made writable (Persistence::HandleFault), or, if it cannot be loaded, the embedder's
//     fault-error hook runs (cairn/persist.h).
//   - The same fault on any other thread is a fatal error naming that thread (one mutator).
//   - Any other fault goes to the handler that was installed before the runtime's: called as it
//     asked (SA_SIGINFO or not, its sa_mask blocked, SA_RESETHAND honoured). If that was the
//     default action (or SIG_IGN, which the kernel does not honour for a fault), the default is
//     restored and the fault happens again: the process dies by SIGSEGV, with a core dump if
//     enabled. A SIGSEGV sent by kill(2) is sent again the same way.
//   - The handler runs on an alternate signal stack (SA_ONSTACK; the mutator thread gets one of
//     kAltStackBytes when the handler is installed), so a fault near the stack's limit does not
//     overflow inside a store read.
//   - Installing it again after another library installed its own puts the runtime's on top
//     again (cairn_install_fault_handler). Each installation is a separate entry point that
//     remembers what it displaced, so a library that, like LLVM's, puts back the handler it
//     found and returns when it sees a crash hands the fault to the runtime's earlier entry
//     point, which passes it further down, to the default action in the end: never a loop.
#pragma once

#include <cstddef>

#include "cairn/status.h"

namespace cairn::persist {

// The alternate signal stack of the mutator thread. A fault's store read (RocksDB, with its
// block cache, file reads and decompression) measured about 20 KiB at most; this leaves room.
inline constexpr size_t kAltStackBytes = 256 * 1024;

// Installs the runtime's SIGSEGV handler on top of the current one (nothing if it is on top
// already) and gives the calling thread, the mutator, an alternate signal stack unless it has one
// of at least kAltStackBytes. CAIRN_INTERNAL if the system (or a sanitizer that owns SIGSEGV)
// refuses.
Status InstallFaultHandler();

// cairn_handle_fault: 1 if the fault at addr was the runtime's and the access can proceed.
int HandleFaultFromEmbedder(void *addr, int is_write);

}  // namespace cairn::persist
