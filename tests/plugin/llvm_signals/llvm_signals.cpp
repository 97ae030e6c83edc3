// The runtime's SIGSEGV handler beside LLVM's own (llvm::InitLLVM, PrintStackTraceOnErrorSignal),
// as in the REPL, which links libLLVM and the runtime into one process (docs/persistence.md,
// "Page faults and SIGSEGV"). Run by check.sh:
//
//   llvm_signals write DIR        commits a database whose root is a large [int] (its own pages)
//   llvm_signals first DIR        LLVM's handlers, then the store: the runtime's handler is on top
//   llvm_signals later DIR        the store, then LLVM's handlers, then cairn_install_fault_handler
//
// The read modes touch the root's pages (faults the runtime serves: LLVM must not print a stack
// dump for them), print SERVED, then touch an address no one maps: LLVM prints its stack dump
// and the process dies by SIGSEGV. (Mode "unprotected", the control: the store, then LLVM's
// handlers, and no cairn_install_fault_handler: LLVM takes the first page fault for a crash.)
#include <llvm/ADT/StringRef.h>
#include <llvm/Support/InitLLVM.h>
#include <llvm/Support/Signals.h>
#include <sys/mman.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "cairn/persist.h"

namespace {

constexpr size_t kLength = 3000;  // 24 KB: a large object of three pages

int Fail(const char *what) {
  std::fprintf(stderr, "llvm_signals: %s: %s\n", what, cairn_last_error());
  return 1;
}

int Write(const char *dir) {
  cairn_persist_options o{};
  o.store_dir = dir;
  if (cairn_store_open(&o) != CAIRN_OK) return Fail("cairn_store_open");
  cairn_db *db = nullptr;
  if (cairn_db_create("signals", &db) != CAIRN_OK) return Fail("cairn_db_create");
  if (cairn_txn_begin() != CAIRN_OK) return Fail("cairn_txn_begin");
  void *arr = cairn_malloc_array(&cairn_i64_array_type, kLength);
  auto *data = reinterpret_cast<int64_t *>(static_cast<char *>(arr) + CAIRN_ARRAY_DATA_OFFSET);
  for (size_t i = 0; i < kLength; i++) data[i] = int64_t(i) * 3;
  if (cairn_db_set_root(db, arr) != CAIRN_OK) return Fail("cairn_db_set_root");
  if (cairn_txn_commit() != CAIRN_OK) return Fail("cairn_txn_commit");
  return 0;
}

// What happens after the store is opened: nothing (LLVM's handlers came first), LLVM's handlers
// and then the runtime's again, or LLVM's handlers only.
enum class After { kNothing, kLlvmThenReinstall, kLlvmOnly };

int Read(const char *dir, After after) {
  cairn_persist_options o{};
  o.store_dir = dir;
  if (cairn_store_open(&o) != CAIRN_OK) return Fail("cairn_store_open");
  if (after != After::kNothing) llvm::sys::PrintStackTraceOnErrorSignal("llvm_signals");
  if (after == After::kLlvmThenReinstall && cairn_install_fault_handler() != CAIRN_OK)
    return Fail("cairn_install_fault_handler");
  cairn_db *db = nullptr;
  if (cairn_db_open("signals", &db) != CAIRN_OK) return Fail("cairn_db_open");
  if (cairn_txn_begin() != CAIRN_OK) return Fail("cairn_txn_begin");
  void *arr = nullptr;
  if (cairn_db_get_root(db, &arr) != CAIRN_OK) return Fail("cairn_db_get_root");
  auto *data = reinterpret_cast<int64_t *>(static_cast<char *>(arr) + CAIRN_ARRAY_DATA_OFFSET);
  for (size_t i = 0; i < kLength; i++) {
    if (data[i] != int64_t(i) * 3) {
      std::fprintf(stderr, "llvm_signals: element %zu is %lld\n", i, (long long)data[i]);
      return 1;
    }
  }
  data[7] = -1;  // a write fault
  if (cairn_txn_abort() != CAIRN_OK) return Fail("cairn_txn_abort");
  std::printf("SERVED\n");
  std::fflush(stdout);
  std::fprintf(stderr, "SERVED\n");  // what LLVM prints after this is about the real crash
  void *p = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  std::printf("TOUCHED %d\n", *static_cast<volatile char *>(p));
  return 1;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: llvm_signals write|first|later DIR\n");
    return 2;
  }
  if (std::strcmp(argv[1], "write") == 0) return Write(argv[2]);
  if (std::strcmp(argv[1], "first") == 0) {
    llvm::InitLLVM init(argc, argv);  // LLVM's handlers for SIGSEGV and the other crash signals
    return Read(argv[2], After::kNothing);
  }
  if (std::strcmp(argv[1], "later") == 0) return Read(argv[2], After::kLlvmThenReinstall);
  if (std::strcmp(argv[1], "unprotected") == 0) return Read(argv[2], After::kLlvmOnly);
  return 2;
}
