// A store used by short-lived processes: each open adds level-0 table files (TransactionDB
// flushes what it recovers), and a close cancels the compaction that would merge them. A clean
// close with kLevel0CompactAtClose or more level-0 files waits for the compaction instead, so
// that level 0 never grows to RocksDB's write stall (at 20 files), where an open used to wait for
// a compaction of the whole store (docs/store-format.md, "Recovery and its cost").
#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include <random>
#include <string>

#include "cairn/store.h"
#include "rocks_options.h"
#include "temp_dir.h"

namespace cairn::store {
namespace {

using cairn::test::TempDir;

// Level-0 files of the store at `dir` (closed), read without changing it.
uint64_t Level0Files(const std::string &dir) {
  rocksdb::DB *raw = nullptr;
  rocksdb::Status s = rocksdb::DB::OpenForReadOnly(rocksdb::Options(), dir + "/db", &raw);
  EXPECT_TRUE(s.ok()) << s.ToString();
  if (!s.ok()) return 0;
  std::string n;
  EXPECT_TRUE(raw->GetProperty("rocksdb.num-files-at-level0", &n));
  delete raw;
  return std::stoull(n);
}

TEST(Level0, ACleanCloseFinishesTheCompactionOfACrowdedLevel0) {
  TempDir tmp;
  const std::string dir = tmp.Sub("s");
  {
    StoreOptions o;
    o.create_if_missing = true;
    std::unique_ptr<Store> store;
    ASSERT_TRUE(Store::Open(dir, o, &store).ok());
  }
  // kLevel0CompactAtClose + 1 level-0 files of 2 MiB each, all over the same keys (as pages
  // written at random are), made with compactions off: what a series of killed processes leaves.
  {
    rocksdb::Options o;
    o.disable_auto_compactions = true;
    rocksdb::DB *raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(o, dir + "/db", &raw).ok());
    std::mt19937_64 rng(7);
    std::string value(8192, '\0');
    for (uint64_t f = 0; f <= kLevel0CompactAtClose; ++f) {
      for (int k = 0; k < 256; ++k) {
        for (char &c : value) c = static_cast<char>(rng());
        ASSERT_TRUE(raw->Put(rocksdb::WriteOptions(), "zfill" + std::to_string(k), value).ok());
      }
      ASSERT_TRUE(raw->Flush(rocksdb::FlushOptions()).ok());
    }
    ASSERT_TRUE(raw->Close().ok());
    delete raw;
  }
  ASSERT_GE(Level0Files(dir), kLevel0CompactAtClose + 1);
  {
    std::unique_ptr<Store> store;  // opened (compaction starts) and closed at once
    ASSERT_TRUE(Store::Open(dir, StoreOptions(), &store).ok());
  }
  EXPECT_LT(Level0Files(dir), 4u) << "the close did not wait for the compaction";
}

}  // namespace
}  // namespace cairn::store
