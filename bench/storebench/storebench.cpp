// cairn-storebench: what a commit through the page store costs next to the same writes done
// directly with RocksDB.
//
// For each durability mode (sync, async) and commit size (1, 8, 64 pages), it times commits
// of random pages out of 4096, through cairn::store (BeginTransaction, WritePage each page,
// Commit) and through plain RocksDB (a WriteBatch of the same pages' 8 KiB contents under the
// same keys, written with the same rocksdb::Options and WriteOptions: rocks_options.h). The
// two alternate, three rounds each, in separate directories; the median round counts. The store
// does more per page than the baseline: a 32-byte header and a CRC32C, a lock per page, and a
// snapshot per transaction.
//
//   cairn-storebench [--dir DIR] [--seconds S]   (default: a temporary directory, 0.4 s a round)
//
// Last line: RESULT storebench overhead_ratio=<ours/raw time per commit, 8 pages, sync>
//            commits_per_s=<ours, 1 page, sync>
#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "cairn/store.h"
#include "crc32c.h"
#include "keys.h"
#include "rocks_options.h"

using namespace cairn::store;
using Clock = std::chrono::steady_clock;

namespace {

constexpr PageNo kPages = 4096;
constexpr int kRounds = 3;

[[noreturn]] void Die(const std::string &what) {
  std::fprintf(stderr, "cairn-storebench: %s\n", what.c_str());
  std::exit(1);
}

void Check(const cairn::Status &s, const char *what) {
  if (!s.ok()) Die(std::string(what) + ": " + s.ToString());
}

void Check(const rocksdb::Status &s, const char *what) {
  if (!s.ok()) Die(std::string(what) + ": " + s.ToString());
}

// Incompressible page contents, reused.
std::vector<std::string> MakeContents() {
  std::mt19937_64 rng(99);
  std::vector<std::string> pool(64, std::string(kPageSize, '\0'));
  for (auto &p : pool) {
    for (size_t i = 0; i < p.size(); i += 8) {
      uint64_t w = rng();
      std::memcpy(p.data() + i, &w, 8);
    }
  }
  return pool;
}

// The pages of one commit: `n` distinct pages out of 1..kPages.
std::vector<PageNo> PickPages(std::mt19937_64 &rng, int n) {
  std::vector<PageNo> pages;
  while (static_cast<int>(pages.size()) < n) {
    PageNo p = 1 + rng() % kPages;
    if (std::find(pages.begin(), pages.end(), p) == pages.end()) pages.push_back(p);
  }
  return pages;
}

struct Ours {
  std::unique_ptr<Store> store;
  DatabaseId db = 0;

  Ours(const std::string &dir, Durability d, const std::vector<std::string> &contents) {
    StoreOptions o;
    o.durability = d;
    o.create_if_missing = true;
    Check(Store::Open(dir, o, &store), "opening the store");
    if (!store->FindDatabase("bench", &db).ok()) {
      Check(store->CreateDatabase("bench", &db), "creating the database");
      std::unique_ptr<Transaction> t;
      Check(store->BeginTransaction(&t), "begin");
      for (PageNo i = 1; i <= kPages; ++i) {
        PageNo p = 0;
        Check(t->AllocatePage(db, &p), "allocate");
        Check(t->WritePage(db, p, contents[p % contents.size()].data()), "write");
      }
      Check(t->Commit(), "commit");
    }
  }

  void Commit(const std::vector<PageNo> &pages, const std::vector<std::string> &contents,
              size_t k) {
    std::unique_ptr<Transaction> t;
    Check(store->BeginTransaction(&t), "begin");
    for (PageNo p : pages)
      Check(t->WritePage(db, p, contents[(p + k) % contents.size()].data()), "write");
    Check(t->Commit(), "commit");
  }
};

struct Raw {
  std::unique_ptr<rocksdb::DB> db;
  rocksdb::WriteOptions write_options;

  Raw(const std::string &dir, Durability d, const std::vector<std::string> &contents) {
    rocksdb::DB *raw = nullptr;
    Check(rocksdb::DB::Open(MakeRocksOptions(true), dir, &raw), "opening RocksDB");
    db.reset(raw);
    write_options = MakeWriteOptions(d);
    rocksdb::WriteBatch batch;
    for (PageNo p = 1; p <= kPages; ++p) {
      PageKey k(KeyKind::kPage, 1, p);
      Check(batch.Put(rocksdb::Slice(k.view().data(), k.view().size()),
                      contents[p % contents.size()]),
            "batch");
    }
    Check(db->Write(write_options, &batch), "preload");
  }

  void Commit(const std::vector<PageNo> &pages, const std::vector<std::string> &contents,
              size_t k) {
    rocksdb::WriteBatch batch;
    for (PageNo p : pages) {
      PageKey key(KeyKind::kPage, 1, p);
      Check(batch.Put(rocksdb::Slice(key.view().data(), key.view().size()),
                      contents[(p + k) % contents.size()]),
            "batch");
    }
    Check(db->Write(write_options, &batch), "write");
  }
};

// Commits per second of `commit` over about `seconds` (at least 20 commits).
template <typename F>
double Rate(double seconds, int pages, uint64_t seed, F &&commit) {
  std::mt19937_64 rng(seed);
  auto start = Clock::now();
  auto end = start + std::chrono::duration<double>(seconds);
  size_t n = 0;
  while (n < 20 || Clock::now() < end) {
    commit(PickPages(rng, pages), n);
    ++n;
  }
  double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  return static_cast<double>(n) / elapsed;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char **argv) {
  std::string base;
  double seconds = 0.4;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--dir" && i + 1 < argc) {
      base = argv[++i];
    } else if (a == "--seconds" && i + 1 < argc) {
      seconds = std::atof(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: %s [--dir DIR] [--seconds S]\n", argv[0]);
      return 2;
    }
  }
  bool temporary = base.empty();
  if (temporary) {
    const char *t = std::getenv("TMPDIR");
    std::string templ = std::string(t != nullptr && t[0] ? t : "/tmp") + "/cairn-storebench-XXXXXX";
    if (mkdtemp(templ.data()) == nullptr) Die("cannot make a temporary directory");
    base = templ;
  }
  std::vector<std::string> contents = MakeContents();
  std::printf(
      "cairn-storebench: commits of random 8 KiB pages (out of %llu), ours = cairn::store "
      "transaction, raw = RocksDB WriteBatch with the same options\n",
      static_cast<unsigned long long>(kPages));
  std::printf("directory %s, %.2f s a round, median of %d rounds, CRC32C in %s\n\n", base.c_str(),
              seconds, kRounds, Crc32cIsHardware() ? "hardware (SSE4.2)" : "software");
  std::printf("%-6s %5s  %14s %14s  %12s %12s  %6s\n", "mode", "pages", "ours commits/s",
              "raw commits/s", "ours us", "raw us", "ratio");
  double ratio_8_sync = 0, ours_1_sync = 0;
  for (Durability d : {Durability::kSync, Durability::kAsync}) {
    const char *mode = d == Durability::kSync ? "sync" : "async";
    std::string ours_dir = base + "/ours-" + mode, raw_dir = base + "/raw-" + mode;
    Ours ours(ours_dir, d, contents);
    Raw raw(raw_dir, d, contents);
    for (int pages : {1, 8, 64}) {
      std::vector<double> ours_rates, raw_rates;
      for (int round = 0; round < kRounds; ++round) {
        uint64_t seed = 1000 * pages + round;
        raw_rates.push_back(
            Rate(seconds, pages, seed, [&](auto p, size_t k) { raw.Commit(p, contents, k); }));
        ours_rates.push_back(
            Rate(seconds, pages, seed, [&](auto p, size_t k) { ours.Commit(p, contents, k); }));
      }
      double o = Median(ours_rates), r = Median(raw_rates);
      double ratio = r / o;  // ours' time per commit over raw's
      std::printf("%-6s %5d  %14.0f %14.0f  %12.1f %12.1f  %6.3f\n", mode, pages, o, r, 1e6 / o,
                  1e6 / r, ratio);
      std::fflush(stdout);
      if (d == Durability::kSync && pages == 8) ratio_8_sync = ratio;
      if (d == Durability::kSync && pages == 1) ours_1_sync = o;
    }
  }
  if (temporary) {
    std::error_code ec;
    std::filesystem::remove_all(base, ec);
  }
  std::printf("\nratio = ours' time per commit / raw's (goal: <= 1.1 for 8 pages, sync)\n");
  std::printf("RESULT storebench overhead_ratio=%.3f commits_per_s=%.0f\n", ratio_8_sync,
              ours_1_sync);
  return 0;
}
