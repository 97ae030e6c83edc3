// The raw cost the cold traversal is compared with: one protection trap plus one page read
// from the store, measured on the benchmark's own database.
//
// A region of one frame per page of the database is mapped with no access; the pages are
// touched in a random order; each touch traps into a SIGSEGV handler that makes that frame
// writable and reads the page into it with cairn::store::Transaction::ReadPage (which verifies
// the page's checksum). Nothing else: no swizzling, no frames reserved for the pages it names,
// no protection set back to read-only.
#include "raw_fault.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <random>
#include <vector>

#include "cairn/store.h"

namespace persistbench {
namespace {

namespace st = cairn::store;

char *g_base = nullptr;
size_t g_frames = 0;
st::Transaction *g_txn = nullptr;
st::DatabaseId g_db = 0;
uint64_t g_traps = 0;

void OnFault(int, siginfo_t *info, void *) {
  char *at = static_cast<char *>(info->si_addr);
  if (at < g_base || at >= g_base + g_frames * st::kPageSize) {
    signal(SIGSEGV, SIG_DFL);  // not ours: let it crash
    return;
  }
  size_t frame = static_cast<size_t>(at - g_base) / st::kPageSize;
  char *page = g_base + frame * st::kPageSize;
  if (mprotect(page, st::kPageSize, PROT_READ | PROT_WRITE) != 0) _exit(90);
  cairn::Status s = g_txn->ReadPage(g_db, frame + 1, page);
  if (!s.ok()) {
    static const char msg[] = "cairn-persistbench: raw ReadPage failed\n";
    (void)!write(2, msg, sizeof msg - 1);
    _exit(91);
  }
  g_traps++;
}

[[noreturn]] void Die(const std::string &what) {
  std::fprintf(stderr, "cairn-persistbench: %s\n", what.c_str());
  std::exit(1);
}

}  // namespace

RawFigures MeasureRawFaults(const std::string &store_dir, const std::string &db_name) {
  std::unique_ptr<st::Store> store;
  cairn::Status s = st::Store::Open(store_dir, st::StoreOptions{}, &store);
  if (!s.ok()) Die("raw: " + s.ToString());
  st::DatabaseInfo info;
  s = store->GetDatabaseInfo(db_name, &info);
  if (!s.ok()) Die("raw: " + s.ToString());
  std::unique_ptr<st::Transaction> txn;
  s = store->BeginTransaction(&txn);
  if (!s.ok()) Die("raw: " + s.ToString());

  g_frames = info.page_count;
  void *region = mmap(nullptr, g_frames * st::kPageSize, PROT_NONE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (region == MAP_FAILED) Die("raw: mmap failed");
  g_base = static_cast<char *>(region);
  g_txn = txn.get();
  g_db = info.id;
  struct sigaction sa{};
  sa.sa_sigaction = OnFault;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  struct sigaction old{};
  sigaction(SIGSEGV, &sa, &old);

  std::vector<size_t> order(g_frames);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937_64(42));
  uint64_t sum = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (size_t f : order) sum += *reinterpret_cast<volatile uint64_t *>(g_base + f * st::kPageSize);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  sigaction(SIGSEGV, &old, nullptr);
  munmap(region, g_frames * st::kPageSize);
  txn->Abort();
  RawFigures r;
  r.pages = g_traps;
  r.us_per_page = g_traps ? seconds * 1e6 / static_cast<double>(g_traps) : 0;
  r.checksum = sum;
  return r;
}

}  // namespace persistbench
