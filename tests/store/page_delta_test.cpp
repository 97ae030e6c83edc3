// Page deltas (store format 2, page_delta.h): a page of which little changed is written as the
// words that changed, read back whole, folded by compaction; damaged or misapplied deltas are
// corruption (PD1, PD2); a version 1 store is upgraded by a writing open.
#include "page_delta.h"

#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include <cstring>
#include <random>
#include <string>

#include "cairn/store.h"
#include "catalogue.h"
#include "encoding.h"
#include "keys.h"
#include "page_codec.h"
#include "rocks_options.h"
#include "temp_dir.h"

namespace cairn::store {
namespace {

using cairn::test::TempDir;

std::string Contents(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::string c(kPageSize, '\0');
  for (size_t i = 0; i < kPageSize; i += 8) PutLe64(c.data() + i, rng());
  return c;
}

std::string Stored(uint64_t db, PageNo page, const std::string &contents) {
  std::string s(kStoredPageSize, '\0');
  EncodePage(db, page, contents.data(), s.data());
  return s;
}

TEST(PageDelta, EncodesOnlyChangedWordsAndAppliesExactly) {
  std::string base = Contents(1), now = base;
  PutLe64(now.data() + 16, 99);   // one word
  PutLe64(now.data() + 4000, 1);  // a run of two words
  PutLe64(now.data() + 4008, 2);
  PutLe64(now.data() + 8184, 3);  // the last word
  std::string delta, problem;
  ASSERT_TRUE(EncodePageDelta(5, 9, base.data(), now.data(), kPageSize / 2, &delta));
  EXPECT_EQ(delta.size(), kPageDeltaHeaderSize + 3 * 4 + 4 * 8);
  std::string stored = Stored(5, 9, base);
  ASSERT_TRUE(ApplyPageDelta(delta, 5, 9, &stored, &problem)) << problem;
  EXPECT_EQ(stored, Stored(5, 9, now));  // header (checksum) and contents, byte for byte
  // Too much changed: no delta.
  std::string other = Contents(2);
  EXPECT_FALSE(EncodePageDelta(5, 9, base.data(), other.data(), kPageSize / 2, &delta));
}

TEST(PageDelta, DamageOrTheWrongBaseOrPageIsRefused) {
  std::string base = Contents(1), now = base;
  PutLe64(now.data() + 800, 7);
  std::string delta, problem;
  ASSERT_TRUE(EncodePageDelta(5, 9, base.data(), now.data(), kPageSize / 2, &delta));
  for (size_t byte = 0; byte < delta.size(); byte++) {  // PD1: every byte is covered
    std::string bad = delta, stored = Stored(5, 9, base);
    bad[byte] ^= 0x04;
    EXPECT_FALSE(ApplyPageDelta(bad, 5, 9, &stored, &problem)) << byte;
  }
  std::string stored = Stored(5, 9, base);
  EXPECT_FALSE(ApplyPageDelta(delta, 5, 10, &stored, &problem));  // another page
  EXPECT_NE(problem.find("page 9"), std::string::npos) << problem;
  std::string other_base = base;  // PD2: the version before, or any other, gives another page
  PutLe64(other_base.data() + 1600, 1);
  stored = Stored(5, 9, other_base);
  EXPECT_FALSE(ApplyPageDelta(delta, 5, 9, &stored, &problem));
  EXPECT_NE(problem.find("not the version the delta was made against"), std::string::npos)
      << problem;
}

class DeltaStore : public ::testing::Test {
 protected:
  void SetUp() override { Open(); }
  void Open() {
    store_.reset();
    StoreOptions o;
    o.create_if_missing = true;
    ASSERT_TRUE(Store::Open(tmp_.Sub("s"), o, &store_).ok());
    if (store_->FindDatabase("db", &db_).ok()) return;
    ASSERT_TRUE(store_->CreateDatabase("db", &db_).ok());
  }
  // Writes `contents` to `page` (allocating it first if `allocate`), returns the bytes written.
  uint64_t Write(PageNo page, const std::string &contents, bool allocate = false) {
    std::unique_ptr<Transaction> t;
    EXPECT_TRUE(store_->BeginTransaction(&t).ok());
    if (allocate) {
      PageNo p = 0;
      EXPECT_TRUE(t->AllocatePage(db_, &p).ok());
      EXPECT_EQ(p, page);
    }
    uint64_t bytes = 0;
    EXPECT_TRUE(t->WritePage(db_, page, contents.data(), &bytes).ok());
    EXPECT_TRUE(t->Commit().ok());
    return bytes;
  }
  std::string Read(PageNo page) {
    std::unique_ptr<Transaction> t;
    EXPECT_TRUE(store_->BeginTransaction(&t).ok());
    std::string c(kPageSize, '\0');
    Status s = t->ReadPage(db_, page, c.data());
    EXPECT_TRUE(s.ok()) << s.message();
    t->Abort();
    return c;
  }
  TempDir tmp_;
  std::unique_ptr<Store> store_;
  DatabaseId db_ = 0;
};

TEST_F(DeltaStore, SmallChangesAreWrittenAsDeltasAndReadWhole) {
  std::string v = Contents(3);
  EXPECT_EQ(Write(1, v, true), kStoredPageSize);  // a new page: whole
  std::string expect = v;
  for (int round = 0; round < 20; round++) {  // deltas stack up on the base
    PutLe64(expect.data() + 8 * (round * 37 % 1024), uint64_t(round) + 1000);
    EXPECT_LT(Write(1, expect), 100u) << round;
    ASSERT_EQ(Read(1), expect) << round;
  }
  std::string most = Contents(4);  // more than half changed: the whole page
  EXPECT_EQ(Write(1, most), kStoredPageSize);
  EXPECT_EQ(Read(1), most);
  PutLe64(most.data() + 8, 5);
  EXPECT_LT(Write(1, most), 100u);
  // After a reopen (the log replayed), and after a compaction folded the deltas (the table
  // files then hold the whole page), the page reads the same and the store checks clean.
  Open();
  EXPECT_EQ(Read(1), most);
  store_.reset();
  {
    rocksdb::DB *raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(MakeRocksOptions(false), tmp_.Sub("s") + "/db", &raw).ok());
    ASSERT_TRUE(raw->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr).ok());
    PageKey k(KeyKind::kPage, db_, 1);
    std::string value, problem, back(kPageSize, '\0');
    ASSERT_TRUE(raw->Get(rocksdb::ReadOptions(), std::string(k.view()), &value).ok());
    ASSERT_TRUE(DecodePage(value, db_, 1, back.data(), &problem)) << problem;
    EXPECT_EQ(back, most);
    delete raw;
  }
  Open();
  EXPECT_EQ(Read(1), most);
  CheckReport r;
  ASSERT_TRUE(store_->Check("db", &r).ok());
  EXPECT_TRUE(r.clean()) << (r.problems.empty() ? "" : r.problems[0]);
}

TEST_F(DeltaStore, AllocatedInTheSameTransactionIsWrittenWhole) {
  std::unique_ptr<Transaction> t;
  ASSERT_TRUE(store_->BeginTransaction(&t).ok());
  PageNo p = 0;
  ASSERT_TRUE(t->AllocatePage(db_, &p).ok());
  std::string v = Contents(5);
  uint64_t bytes = 0;
  ASSERT_TRUE(t->WritePage(db_, p, v.data(), &bytes).ok());
  EXPECT_EQ(bytes, kStoredPageSize);
  PutLe64(v.data(), 1);  // written twice in one transaction: the second is a delta of the first
  ASSERT_TRUE(t->WritePage(db_, p, v.data(), &bytes).ok());
  EXPECT_LT(bytes, 100u);
  ASSERT_TRUE(t->Commit().ok());
  EXPECT_EQ(Read(p), v);
}

TEST_F(DeltaStore, ADamagedDeltaIsCorruptionNamingThePage) {
  std::string v = Contents(6);
  Write(1, v, true);
  PutLe64(v.data() + 64, 1);
  std::string delta;
  std::string base = Read(1);
  ASSERT_TRUE(EncodePageDelta(db_, 1, base.data(), v.data(), kPageSize / 2, &delta));
  delta[40] ^= 1;  // damaged on its way to the disk
  store_.reset();
  {
    rocksdb::DB *raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(MakeRocksOptions(false), tmp_.Sub("s") + "/db", &raw).ok());
    PageKey k(KeyKind::kPage, db_, 1);
    ASSERT_TRUE(raw->Merge(rocksdb::WriteOptions(), std::string(k.view()), delta).ok());
    delete raw;
  }
  Open();
  std::unique_ptr<Transaction> t;
  ASSERT_TRUE(store_->BeginTransaction(&t).ok());
  std::string c(kPageSize, '\0');
  Status s = t->ReadPage(db_, 1, c.data());
  EXPECT_EQ(s.code(), CAIRN_CORRUPTION) << s.message();
  EXPECT_NE(s.message().find("page 1"), std::string::npos) << s.message();
  t->Abort();
  CheckReport r;
  ASSERT_TRUE(store_->Check("db", &r).ok());
  EXPECT_FALSE(r.clean());
  // PD4: the open's flush folded it without failing, and the store goes on: other pages are
  // written and read, and rewriting the damaged page whole repairs it.
  std::string w = Contents(7);
  Write(2, w, true);
  EXPECT_EQ(Read(2), w);
  std::unique_ptr<Transaction> fix;
  ASSERT_TRUE(store_->BeginTransaction(&fix).ok());
  uint64_t bytes = 0;
  ASSERT_TRUE(fix->WritePage(db_, 1, v.data(), &bytes).ok());
  EXPECT_EQ(bytes, kStoredPageSize);  // no readable base: whole
  ASSERT_TRUE(fix->Commit().ok());
  EXPECT_EQ(Read(1), v);
}

TEST(StoreFormat, AWritingOpenUpgradesVersion1AndAReadOnlyOneDoesNot) {
  TempDir tmp;
  std::string dir = tmp.Sub("s");
  {
    std::unique_ptr<Store> s;
    StoreOptions o;
    o.create_if_missing = true;
    ASSERT_TRUE(Store::Open(dir, o, &s).ok());
  }
  auto header_version = [&] {
    rocksdb::DB *raw = nullptr;
    EXPECT_TRUE(rocksdb::DB::OpenForReadOnly(MakeRocksOptions(false), dir + "/db", &raw).ok());
    std::string value, problem;
    EXPECT_TRUE(raw->Get(rocksdb::ReadOptions(), StoreHeaderKey(), &value).ok());
    delete raw;
    StoreHeader h;
    EXPECT_TRUE(DecodeStoreHeader(value, &h, &problem)) << problem;
    return h.format_version;
  };
  EXPECT_EQ(header_version(), 2u);
  {  // make it a version 1 store, as an older Cairn wrote it
    rocksdb::DB *raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(MakeRocksOptions(false), dir + "/db", &raw).ok());
    std::string value, problem;
    ASSERT_TRUE(raw->Get(rocksdb::ReadOptions(), StoreHeaderKey(), &value).ok());
    StoreHeader h;
    ASSERT_TRUE(DecodeStoreHeader(value, &h, &problem));
    h.format_version = 1;
    ASSERT_TRUE(raw->Put(rocksdb::WriteOptions(), StoreHeaderKey(), EncodeStoreHeader(h)).ok());
    delete raw;
  }
  {
    std::unique_ptr<Store> s;
    StoreOptions o;
    o.read_only = true;
    ASSERT_TRUE(Store::Open(dir, o, &s).ok());
  }
  EXPECT_EQ(header_version(), 1u);
  {
    std::unique_ptr<Store> s;
    ASSERT_TRUE(Store::Open(dir, StoreOptions(), &s).ok());
  }
  EXPECT_EQ(header_version(), 2u);
}

}  // namespace
}  // namespace cairn::store
