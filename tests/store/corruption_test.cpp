// Damage done behind the store's back (through RocksDB directly, or to the files on disk) is
// reported by reads and by Check() as an error naming the database and page, never a crash and
// never wrong data.
#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>

#include "cairn/store.h"
#include "keys.h"
#include "temp_dir.h"

namespace cairn::store {
namespace {

using cairn::test::TempDir;

bool Contains(const std::string &s, const std::string &text) {
  return s.find(text) != std::string::npos;
}

class CorruptionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    StoreOptions o;
    o.create_if_missing = true;
    ASSERT_TRUE(Store::Open(dir_, o, &store_).ok());
    ASSERT_TRUE(store_->CreateDatabase("db", &db_).ok());
    std::unique_ptr<Transaction> t;
    ASSERT_TRUE(store_->BeginTransaction(&t).ok());
    std::mt19937_64 rng(1);
    for (int i = 1; i <= 5; ++i) {
      PageNo p = 0;
      ASSERT_TRUE(t->AllocatePage(db_, &p).ok());
      std::string contents(kPageSize, '\0');
      for (auto &c : contents) c = static_cast<char>(rng());  // incompressible
      std::memcpy(contents.data(), "MARK-PAGE-", 10);
      contents[10] = static_cast<char>('0' + i);
      pages_[i] = contents;
      ASSERT_TRUE(t->WritePage(db_, p, contents.data()).ok());
    }
    uint32_t index = 0;
    ASSERT_TRUE(t->PutType(db_, 0x77, "layout", &index).ok());
    ASSERT_TRUE(t->Commit().ok());
  }

  // Runs `damage` on the RocksDB instance directly, with the store closed.
  template <typename F>
  void BehindTheBack(F damage) {
    store_.reset();
    rocksdb::DB *raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(rocksdb::Options(), dir_ + "/db", &raw).ok());
    damage(raw);
    delete raw;
    ASSERT_TRUE(Store::Open(dir_, StoreOptions(), &store_).ok());
  }

  std::string RawPageKey(PageNo page) {
    PageKey k(KeyKind::kPage, db_, page);
    return std::string(k.view());
  }

  Status Read(PageNo page, std::string *out) {
    std::unique_ptr<Transaction> t;
    EXPECT_TRUE(store_->BeginTransaction(&t).ok());
    out->assign(kPageSize, '\0');
    return t->ReadPage(db_, page, out->data());
  }

  CheckReport Check() {
    CheckReport r;
    EXPECT_TRUE(store_->Check("db", &r).ok());
    return r;
  }

  std::string AllProblems(const CheckReport &r) {
    std::string all;
    for (const auto &p : r.problems) all += p + "\n";
    return all;
  }

  TempDir tmp_;
  std::string dir_ = tmp_.Sub("s");
  std::unique_ptr<Store> store_;
  DatabaseId db_ = 0;
  std::string pages_[6];
};

// A file of RocksDB's gone from the folder (a table file, the manifest) is damage, said as such
// (a missing manifest was "No such file or directory (check the disk and permissions)").
TEST_F(CorruptionTest, MissingManifestOrTableFileIsDamage) {
  // The pages into a table file; the store closed.
  BehindTheBack([&](rocksdb::DB *raw) { ASSERT_TRUE(raw->Flush(rocksdb::FlushOptions()).ok()); });
  store_.reset();
  namespace fs = std::filesystem;
  std::string manifest, table;
  for (const auto &e : fs::directory_iterator(dir_ + "/db")) {
    const std::string name = e.path().filename().string();
    if (name.rfind("MANIFEST-", 0) == 0) manifest = e.path().string();
    if (e.path().extension() == ".sst") table = e.path().string();
  }
  ASSERT_FALSE(manifest.empty());
  ASSERT_FALSE(table.empty());
  // A table file cut short is named with its size and the size the MANIFEST records (RocksDB
  // names only the second, run together with the path); a missing one by its own name (RocksDB
  // names the ".ldb" it tried last).
  const uintmax_t size = fs::file_size(table);
  fs::resize_file(table, 1000);
  std::unique_ptr<Store> s;
  Status st = Store::Open(dir_, StoreOptions(), &s);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), CAIRN_CORRUPTION) << st.message();
  EXPECT_TRUE(Contains(st.message(), "table file " + table + " is 1000 bytes, shorter than the " +
                                         std::to_string(size) + " bytes its MANIFEST records"))
      << st.message();
  fs::remove(table);
  st = Store::Open(dir_, StoreOptions(), &s);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), CAIRN_CORRUPTION) << st.message();
  EXPECT_TRUE(Contains(st.message(), "files are damaged: table file " + table +
                                         ", which its MANIFEST lists, is missing"))
      << st.message();
  fs::remove(manifest);
  st = Store::Open(dir_, StoreOptions(), &s);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), CAIRN_CORRUPTION) << st.message();
  EXPECT_TRUE(Contains(st.message(), "a file it needs is missing")) << st.message();
  EXPECT_TRUE(Contains(st.message(), "MANIFEST-")) << st.message();
}

TEST_F(CorruptionTest, CleanStoreChecksClean) {
  CheckReport r = Check();
  EXPECT_TRUE(r.clean()) << AllProblems(r);
  EXPECT_EQ(r.pages_read, 5u);
  EXPECT_EQ(r.page_count, 5u);
  EXPECT_EQ(r.types, 1u);
}

TEST_F(CorruptionTest, FlippedByteInAPageFailsItsChecksum) {
  BehindTheBack([&](rocksdb::DB *raw) {
    std::string v;
    ASSERT_TRUE(raw->Get(rocksdb::ReadOptions(), RawPageKey(3), &v).ok());
    v[100] ^= 0x01;
    ASSERT_TRUE(raw->Put(rocksdb::WriteOptions(), RawPageKey(3), v).ok());
  });
  std::string got;
  Status s = Read(3, &got);
  EXPECT_EQ(s.code(), CAIRN_CORRUPTION);
  EXPECT_TRUE(Contains(s.message(), "page 3 of database 'db' is damaged: checksum mismatch"))
      << s.message();
  // It says what will help, once.
  EXPECT_TRUE(Contains(s.message(), "; `cairn db check --store " + dir_ +
                                        " db` lists all the damage it can read; restore the "
                                        "database from a copy"))
      << s.message();
  ASSERT_TRUE(Read(2, &got).ok());  // the others are fine
  EXPECT_EQ(got, pages_[2]);
  CheckReport r = Check();
  EXPECT_FALSE(r.clean());
  EXPECT_EQ(r.problem_count, 1u);
  EXPECT_TRUE(Contains(AllProblems(r), "page 3 is damaged: checksum mismatch")) << AllProblems(r);
}

TEST_F(CorruptionTest, PageStoredUnderTheWrongNumberIsCaught) {
  BehindTheBack([&](rocksdb::DB *raw) {
    std::string v;
    ASSERT_TRUE(raw->Get(rocksdb::ReadOptions(), RawPageKey(2), &v).ok());
    ASSERT_TRUE(raw->Put(rocksdb::WriteOptions(), RawPageKey(4), v).ok());
  });
  std::string got;
  Status s = Read(4, &got);
  EXPECT_EQ(s.code(), CAIRN_CORRUPTION);
  EXPECT_TRUE(Contains(s.message(), "page 4 of database 'db' is damaged: header names"))
      << s.message();
  EXPECT_TRUE(Contains(AllProblems(Check()), "page 4 is damaged")) << AllProblems(Check());
}

TEST_F(CorruptionTest, MissingPageIsCaught) {
  BehindTheBack([&](rocksdb::DB *raw) {
    ASSERT_TRUE(raw->Delete(rocksdb::WriteOptions(), RawPageKey(5)).ok());
  });
  std::string got;
  Status s = Read(5, &got);
  EXPECT_EQ(s.code(), CAIRN_CORRUPTION);
  EXPECT_TRUE(Contains(s.message(), "page 5 of database 'db' is missing")) << s.message();
  EXPECT_TRUE(Contains(s.message(), "`cairn db check --store " + dir_ + " db`")) << s.message();
  EXPECT_TRUE(Contains(AllProblems(Check()), "page 5 is missing")) << AllProblems(Check());
}

TEST_F(CorruptionTest, MissingRunsAndStrayPagesAreCaught) {
  BehindTheBack([&](rocksdb::DB *raw) {
    std::string v;
    ASSERT_TRUE(raw->Get(rocksdb::ReadOptions(), RawPageKey(1), &v).ok());
    ASSERT_TRUE(raw->Put(rocksdb::WriteOptions(), RawPageKey(99), v).ok());
    ASSERT_TRUE(raw->Delete(rocksdb::WriteOptions(), RawPageKey(2)).ok());
    ASSERT_TRUE(raw->Delete(rocksdb::WriteOptions(), RawPageKey(3)).ok());
  });
  std::string all = AllProblems(Check());
  EXPECT_TRUE(Contains(all, "pages 2 to 3 are missing")) << all;
  EXPECT_TRUE(Contains(all, "page 99 is stored but outside 1..5 (S1)")) << all;
}

TEST_F(CorruptionTest, DamagedCatalogueRecordIsCaught) {
  BehindTheBack([&](rocksdb::DB *raw) {
    std::string v;
    ASSERT_TRUE(raw->Get(rocksdb::ReadOptions(), DatabaseKey(db_), &v).ok());
    v[12] ^= 0x40;  // in the root
    ASSERT_TRUE(raw->Put(rocksdb::WriteOptions(), DatabaseKey(db_), v).ok());
  });
  DatabaseInfo info;
  Status s = store_->GetDatabaseInfo("db", &info);
  EXPECT_EQ(s.code(), CAIRN_CORRUPTION);
  EXPECT_TRUE(Contains(s.message(), "the record of database 'db' is damaged")) << s.message();
  EXPECT_TRUE(Contains(s.message(), "`cairn db check --store " + dir_ + " db`")) << s.message();
  EXPECT_TRUE(Contains(AllProblems(Check()), "database record is damaged"));
  std::unique_ptr<Transaction> t;
  ASSERT_TRUE(store_->BeginTransaction(&t).ok());
  std::string buf(kPageSize, '\0');
  s = t->ReadPage(db_, 1, buf.data());
  EXPECT_EQ(s.code(), CAIRN_CORRUPTION);
}

TEST_F(CorruptionTest, InconsistentCatalogueIsCaught) {
  BehindTheBack([&](rocksdb::DB *raw) {
    // A free-list entry for a page that is also stored, and a type index with no entry.
    PageKey fk(KeyKind::kFree, db_, 1);
    ASSERT_TRUE(raw->Put(rocksdb::WriteOptions(), std::string(fk.view()), "").ok());
    ASSERT_TRUE(raw->Delete(rocksdb::WriteOptions(), TypeKey(db_, 0x77)).ok());
  });
  CheckReport r = Check();
  std::string all = AllProblems(r);
  EXPECT_TRUE(Contains(all, "page 1 is both stored and free (S2)")) << all;
  EXPECT_TRUE(Contains(all, "free pages")) << all;
  EXPECT_TRUE(Contains(all, "(S4)")) << all;
}

// Identity hash entries (S6): a damaged one, and one naming a page that does not exist, are
// found by Check and by the read; dropping the database deletes them with everything else.
TEST_F(CorruptionTest, DamagedIdentityHashEntriesAreCaughtAndDropRemovesThem) {
  {
    std::unique_ptr<Transaction> t;
    ASSERT_TRUE(store_->BeginTransaction(&t).ok());
    ASSERT_TRUE(t->PutIdentityHash(db_, 2, 8, 0xabc).ok());
    ASSERT_TRUE(t->Commit().ok());
  }
  EXPECT_TRUE(Check().clean()) << AllProblems(Check());
  BehindTheBack([&](rocksdb::DB *raw) {
    std::string v;
    ASSERT_TRUE(raw->Get(rocksdb::ReadOptions(), IdentityHashKey(db_, 2, 8), &v).ok());
    v[6] ^= 0x01;
    ASSERT_TRUE(raw->Put(rocksdb::WriteOptions(), IdentityHashKey(db_, 2, 8), v).ok());
    ASSERT_TRUE(raw->Put(rocksdb::WriteOptions(), IdentityHashKey(db_, 9, 8), v).ok());
  });
  std::string all = AllProblems(Check());
  EXPECT_TRUE(Contains(all, "the identity hash of page 2, offset 8 is damaged")) << all;
  EXPECT_TRUE(Contains(all, "(S6)")) << all;
  std::unique_ptr<Transaction> t;
  ASSERT_TRUE(store_->BeginTransaction(&t).ok());
  std::vector<IdentityHashEntry> entries;
  Status s = t->ListIdentityHashes(db_, 2, &entries);
  EXPECT_EQ(s.code(), CAIRN_CORRUPTION);
  EXPECT_TRUE(Contains(s.message(), "page 2 of database 'db'")) << s.message();
  EXPECT_TRUE(Contains(s.message(), "`cairn db check --store " + dir_ + " db`")) << s.message();
  t->Abort();
  t.reset();

  ASSERT_TRUE(store_->DropDatabase("db").ok());
  const DatabaseId dropped = db_;
  BehindTheBack([&](rocksdb::DB *raw) {
    std::unique_ptr<rocksdb::Iterator> it(raw->NewIterator(rocksdb::ReadOptions()));
    const std::string prefix = DatabasePrefix(KeyKind::kIdentityHash, dropped);
    it->Seek(prefix);
    EXPECT_FALSE(it->Valid() && it->key().starts_with(prefix)) << "an 'H' key outlived its drop";
  });
}

// Damage to the bytes of a table file: RocksDB's own block checksum catches it, and the store
// reports it as corruption of that page.
TEST_F(CorruptionTest, DamagedTableFileIsReportedForThePage) {
  BehindTheBack([&](rocksdb::DB *raw) { ASSERT_TRUE(raw->Flush(rocksdb::FlushOptions()).ok()); });
  store_.reset();
  bool damaged = false;
  for (const auto &e : std::filesystem::directory_iterator(dir_ + "/db")) {
    if (e.path().extension() != ".sst") continue;
    std::fstream f(e.path(), std::ios::in | std::ios::out | std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    size_t at = bytes.find("MARK-PAGE-3");
    if (at == std::string::npos) continue;
    f.seekp(static_cast<std::streamoff>(at + 500));
    char c = static_cast<char>(bytes[at + 500] ^ 0xff);
    f.write(&c, 1);
    damaged = true;
  }
  ASSERT_TRUE(damaged) << "page 3's bytes were not found in a table file";
  ASSERT_TRUE(Store::Open(dir_, StoreOptions(), &store_).ok());
  std::string got;
  Status s = Read(3, &got);
  EXPECT_EQ(s.code(), CAIRN_CORRUPTION);
  EXPECT_TRUE(Contains(s.message(), "reading page 3 of database 'db'")) << s.message();
  EXPECT_TRUE(Contains(s.message(), "the store's files are damaged (RocksDB: ")) << s.message();
  EXPECT_TRUE(Contains(
      s.message(), "; `cairn db check --store " + dir_ + " db` lists all the damage it can read"))
      << s.message();
  CheckReport r = Check();
  EXPECT_FALSE(r.clean());
}

// Damage in two places of a table file: Check reads past the first (key by key once RocksDB's
// iterator has stopped) and reports both, and still verifies every other page.
TEST_F(CorruptionTest, CheckReportsAllTheDamageItCanRead) {
  BehindTheBack([&](rocksdb::DB *raw) { ASSERT_TRUE(raw->Flush(rocksdb::FlushOptions()).ok()); });
  store_.reset();
  int damaged = 0;
  for (const auto &e : std::filesystem::directory_iterator(dir_ + "/db")) {
    if (e.path().extension() != ".sst") continue;
    std::fstream f(e.path(), std::ios::in | std::ios::out | std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    for (const char *mark : {"MARK-PAGE-2", "MARK-PAGE-4"}) {
      size_t at = bytes.find(mark);
      if (at == std::string::npos) continue;
      f.seekp(static_cast<std::streamoff>(at + 500));
      char c = static_cast<char>(bytes[at + 500] ^ 0xff);
      f.write(&c, 1);
      damaged++;
    }
  }
  ASSERT_EQ(damaged, 2) << "the pages' bytes were not found in a table file";
  ASSERT_TRUE(Store::Open(dir_, StoreOptions(), &store_).ok());
  CheckReport r = Check();
  std::string all = AllProblems(r);
  EXPECT_EQ(r.problem_count, 2u) << all;
  EXPECT_TRUE(Contains(all, "page 2 cannot be read: the store's files are damaged there")) << all;
  EXPECT_TRUE(Contains(all, "page 4 cannot be read: the store's files are damaged there")) << all;
  EXPECT_FALSE(Contains(all, "cairn db check")) << all;
  EXPECT_EQ(r.pages_read, 3u);  // 1, 3 and 5
}

// Damage early in the pages while free pages come after it: the walk of the free list goes on
// past where the walk of the pages stopped, and the pages between were called missing ("pages
// 3 to 9 are missing", campaign L); they are read key by key instead, and only the damaged
// one is reported.
TEST_F(CorruptionTest, DamagedPagesBeforeFreeOnesAreNotCalledMissing) {
  {
    std::unique_ptr<Transaction> t;
    ASSERT_TRUE(store_->BeginTransaction(&t).ok());
    for (int i = 6; i <= 9; ++i) {
      PageNo p = 0;
      ASSERT_TRUE(t->AllocatePage(db_, &p).ok());
      std::string contents(kPageSize, static_cast<char>(i));
      ASSERT_TRUE(t->WritePage(db_, p, contents.data()).ok());
    }
    ASSERT_TRUE(t->FreePage(db_, 8).ok());
    ASSERT_TRUE(t->FreePage(db_, 9).ok());
    ASSERT_TRUE(t->Commit().ok());
  }
  BehindTheBack([&](rocksdb::DB *raw) { ASSERT_TRUE(raw->Flush(rocksdb::FlushOptions()).ok()); });
  store_.reset();
  int damaged = 0;
  for (const auto &e : std::filesystem::directory_iterator(dir_ + "/db")) {
    if (e.path().extension() != ".sst") continue;
    std::fstream f(e.path(), std::ios::in | std::ios::out | std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    size_t at = bytes.find("MARK-PAGE-2");
    if (at == std::string::npos) continue;
    f.seekp(static_cast<std::streamoff>(at + 500));
    char c = static_cast<char>(bytes[at + 500] ^ 0xff);
    f.write(&c, 1);
    damaged++;
  }
  ASSERT_EQ(damaged, 1) << "page 2's bytes were not found in a table file";
  ASSERT_TRUE(Store::Open(dir_, StoreOptions(), &store_).ok());
  CheckReport r = Check();
  std::string all = AllProblems(r);
  EXPECT_EQ(r.problem_count, 1u) << all;
  EXPECT_TRUE(Contains(all, "page 2 cannot be read: the store's files are damaged there")) << all;
  EXPECT_FALSE(Contains(all, "missing")) << all;
  EXPECT_EQ(r.pages_read, 6u);  // 1, 3 to 7
  EXPECT_EQ(r.free_pages, 2u);
}

// Damage in a table file where no read of a database goes (here a key of no database; in a
// store, older versions of its header, rewritten at every open): each database checks clean, but
// a compaction meets it and then every write fails (the crash campaign met this). CheckFiles
// reads the files whole and finds it.
TEST_F(CorruptionTest, CheckFilesFindsDamageNoPageReadMeets) {
  BehindTheBack([&](rocksdb::DB *raw) {
    std::string value(8192, '\0');
    std::mt19937_64 rng(5);
    for (auto &c : value) c = static_cast<char>(rng());
    std::memcpy(value.data(), "MARK-OTHER", 10);
    ASSERT_TRUE(raw->Put(rocksdb::WriteOptions(), "0-not-a-database", value).ok());
    ASSERT_TRUE(raw->Flush(rocksdb::FlushOptions()).ok());
  });
  std::vector<std::string> problems;
  uint64_t files = 0;
  ASSERT_TRUE(store_->CheckFiles(&problems, &files).ok());
  EXPECT_TRUE(problems.empty()) << problems[0];
  EXPECT_GE(files, 1u);
  store_.reset();
  std::string damaged;
  for (const auto &e : std::filesystem::directory_iterator(dir_ + "/db")) {
    if (e.path().extension() != ".sst") continue;
    std::fstream f(e.path(), std::ios::in | std::ios::out | std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    size_t at = bytes.find("MARK-OTHER");
    if (at == std::string::npos) continue;
    f.seekp(static_cast<std::streamoff>(at + 500));
    char c = static_cast<char>(bytes[at + 500] ^ 0xff);
    f.write(&c, 1);
    damaged = e.path().string();
  }
  ASSERT_FALSE(damaged.empty()) << "the value was not found in a table file";
  // As `cairn db check` opens it: read-only (a writing open may already fail, when the
  // compaction it starts meets the damage: "flushing the recovered log of store S: the store's
  // files are damaged").
  StoreOptions read_only;
  read_only.read_only = true;
  ASSERT_TRUE(Store::Open(dir_, read_only, &store_).ok());
  EXPECT_TRUE(Check().clean()) << AllProblems(Check());
  ASSERT_TRUE(store_->CheckFiles(&problems, &files).ok());
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_TRUE(Contains(problems[0], "table file " + damaged + " is damaged: ")) << problems[0];
  EXPECT_TRUE(Contains(problems[0], "checksum mismatch")) << problems[0];
}

// Check(name) reads what a name leads to; CheckKeys reads every key, so data that no name leads
// to is found (a campaign rewrote a name key's kind byte, and a page key's database id, in a log
// record with its checksum recomputed: `cairn db check` said ok).
TEST_F(CorruptionTest, CheckKeysFindsDataNoNameLeadsTo) {
  std::vector<std::string> problems;
  uint64_t keys = 0;
  ASSERT_TRUE(store_->CheckKeys(&problems, &keys).ok());
  EXPECT_TRUE(problems.empty()) << problems[0];
  // The header, the name, the record, 5 pages, the type and its index.
  EXPECT_EQ(keys, 10u);
  ASSERT_TRUE(store_->CreateDatabase("other").ok());

  struct Case {
    const char *what;
    std::function<void(rocksdb::DB *)> damage;
    std::vector<std::string> expect;
  } cases[] = {
      {"the name entry lost",
       [&](rocksdb::DB *raw) { ASSERT_TRUE(raw->Delete({}, NameKey("db")).ok()); },
       {"database #" + std::to_string(db_) + " (its record names it 'db'): no name leads to it",
        "its record, 5 pages, 1 type entry"}},
      {"a page under an id of no database",
       [&](rocksdb::DB *raw) {
         PageKey k(KeyKind::kPage, 257, 1);
         ASSERT_TRUE(raw->Put({}, k.view(), pages_[1]).ok());
       },
       {"database #257: no name leads to it, but the store holds 1 page"}},
      {"a key of unknown kind",
       [&](rocksdb::DB *raw) { ASSERT_TRUE(raw->Put({}, "Odb", "x").ok()); },
       {"a key of unknown kind 'O' (3 bytes)"}},
      {"two names for one database",
       [&](rocksdb::DB *raw) {
         std::string entry;
         ASSERT_TRUE(raw->Get({}, NameKey("db"), &entry).ok());
         ASSERT_TRUE(raw->Put({}, NameKey("twin"), entry).ok());
       },
       {"the names 'db' and 'twin' both lead to database #" + std::to_string(db_)}},
  };
  namespace fs = std::filesystem;
  const std::string pristine = tmp_.Sub("pristine");
  store_.reset();
  fs::copy(dir_, pristine, fs::copy_options::recursive);
  for (const Case &c : cases) {
    SCOPED_TRACE(c.what);
    store_.reset();
    fs::remove_all(dir_);
    fs::copy(pristine, dir_, fs::copy_options::recursive);
    BehindTheBack(c.damage);
    ASSERT_TRUE(store_->CheckKeys(&problems, &keys).ok());
    ASSERT_EQ(problems.size(), 1u);
    for (const std::string &e : c.expect) EXPECT_TRUE(Contains(problems[0], e)) << problems[0];
  }
}

}  // namespace
}  // namespace cairn::store
