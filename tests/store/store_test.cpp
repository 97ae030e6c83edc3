// Opening stores and defining databases: every operation and every error it can report.
#include "cairn/store.h"

#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "catalogue.h"
#include "keys.h"
#include "temp_dir.h"

namespace cairn::store {
namespace {

using cairn::test::TempDir;

uint64_t GetBe64ForTest(const char *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

StoreOptions Creating() {
  StoreOptions o;
  o.create_if_missing = true;
  return o;
}

bool Contains(const Status &s, const std::string &text) {
  return s.message().find(text) != std::string::npos;
}

TEST(StoreDir, FlagThenEnvironmentThenDefault) {
  const char *saved = std::getenv("CAIRN_STORE");
  std::string keep = saved ? saved : "";
  unsetenv("CAIRN_STORE");
  EXPECT_EQ(ResolveStoreDir(""), "./cairn.store");
  setenv("CAIRN_STORE", "/tmp/from-env", 1);
  EXPECT_EQ(ResolveStoreDir(""), "/tmp/from-env");
  EXPECT_EQ(ResolveStoreDir("/tmp/from-flag"), "/tmp/from-flag");
  // Trailing slashes go (the root stays itself).
  EXPECT_EQ(ResolveStoreDir("/tmp/from-flag//"), "/tmp/from-flag");
  EXPECT_EQ(ResolveStoreDir("st/"), "st");
  EXPECT_EQ(ResolveStoreDir("/"), "/");
  setenv("CAIRN_STORE", "/tmp/from-env/", 1);
  EXPECT_EQ(ResolveStoreDir(""), "/tmp/from-env");
  setenv("CAIRN_STORE", "", 1);
  EXPECT_EQ(ResolveStoreDir(""), "./cairn.store");
  if (saved)
    setenv("CAIRN_STORE", keep.c_str(), 1);
  else
    unsetenv("CAIRN_STORE");
}

TEST(DatabaseName, ValidAndInvalid) {
  for (const char *ok : {"a", "oo7", "_x", "My.db-2",
                         "A234567890123456789012345678901234567890"
                         "123456789012345678901234"}) {
    EXPECT_TRUE(ValidateDatabaseName(ok).ok()) << ok;
  }
  for (const char *bad : {"", "7up", "-x", ".x", "a b", "a/b", "ä", "x\n",
                          "A2345678901234567890123456789012345678901234567890123456789012345"}) {
    Status s = ValidateDatabaseName(bad);
    EXPECT_EQ(s.code(), CAIRN_INVALID_ARGUMENT) << bad;
    EXPECT_TRUE(Contains(s, "is not a valid database name")) << s.message();
  }
}

TEST(StoreOpen, MissingStoreIsNotFound) {
  TempDir tmp;
  std::unique_ptr<Store> store;
  Status s = Store::Open(tmp.Sub("nothing"), StoreOptions(), &store);
  EXPECT_EQ(s.code(), CAIRN_NOT_FOUND);
  EXPECT_TRUE(Contains(s, "store " + tmp.Sub("nothing") + " does not exist")) << s.message();
  EXPECT_EQ(store, nullptr);
  // An existing directory that holds no store is not one either, and is left untouched.
  s = Store::Open(tmp.path(), StoreOptions(), &store);
  EXPECT_EQ(s.code(), CAIRN_NOT_FOUND);
  EXPECT_TRUE(Contains(s, "holds no Cairn store")) << s.message();
  EXPECT_TRUE(std::filesystem::is_empty(tmp.path()));
}

TEST(StoreOpen, CreatesThenReopens) {
  TempDir tmp;
  std::string dir = tmp.Sub("s");
  std::unique_ptr<Store> store;
  ASSERT_TRUE(Store::Open(dir, Creating(), &store).ok());
  EXPECT_EQ(store->dir(), dir);
  ASSERT_TRUE(store->CreateDatabase("a").ok());
  store.reset();
  ASSERT_TRUE(Store::Open(dir, StoreOptions(), &store).ok());
  std::vector<std::string> names;
  ASSERT_TRUE(store->ListDatabases(&names).ok());
  EXPECT_EQ(names, std::vector<std::string>{"a"});
}

TEST(StoreOpen, RefusesNonStoreDirectoriesAndFiles) {
  TempDir tmp;
  std::ofstream(tmp.Sub("file")) << "x";
  std::unique_ptr<Store> store;
  Status s = Store::Open(tmp.path(), Creating(), &store);
  EXPECT_EQ(s.code(), CAIRN_INVALID_ARGUMENT);
  EXPECT_TRUE(Contains(s, "is not empty and is not a Cairn store")) << s.message();
  s = Store::Open(tmp.Sub("file"), Creating(), &store);
  EXPECT_EQ(s.code(), CAIRN_INVALID_ARGUMENT);
  EXPECT_TRUE(Contains(s, "is not a directory")) << s.message();
}

TEST(StoreOpen, SecondOpenInTheSameProcessIsBusy) {
  TempDir tmp;
  std::unique_ptr<Store> a, b;
  ASSERT_TRUE(Store::Open(tmp.Sub("s"), Creating(), &a).ok());
  Status s = Store::Open(tmp.Sub("s"), Creating(), &b);
  EXPECT_EQ(s.code(), CAIRN_BUSY);
  EXPECT_TRUE(
      Contains(s, "store " + tmp.Sub("s") + " is in use by process " + std::to_string(getpid())))
      << s.message();
  a.reset();
  EXPECT_TRUE(Store::Open(tmp.Sub("s"), StoreOptions(), &b).ok());
}

// Rewrites the store header behind the store's back.
void WriteHeader(const std::string &dir, const std::string &value) {
  rocksdb::DB *raw = nullptr;
  ASSERT_TRUE(rocksdb::DB::Open(rocksdb::Options(), dir + "/db", &raw).ok());
  ASSERT_TRUE(raw->Put(rocksdb::WriteOptions(), StoreHeaderKey(), value).ok());
  delete raw;
}

TEST(StoreOpen, BadMagicVersionOrPageSize) {
  TempDir tmp;
  std::string dir = tmp.Sub("s");
  {
    std::unique_ptr<Store> s;
    ASSERT_TRUE(Store::Open(dir, Creating(), &s).ok());
  }
  StoreHeader h;
  h.page_size = kPageSize;
  h.format_version = kStoreFormatVersion + 1;
  WriteHeader(dir, EncodeStoreHeader(h));
  std::unique_ptr<Store> store;
  Status s = Store::Open(dir, StoreOptions(), &store);
  EXPECT_EQ(s.code(), CAIRN_UNSUPPORTED);
  EXPECT_TRUE(Contains(s, "format version " + std::to_string(kStoreFormatVersion + 1)))
      << s.message();

  h.format_version = kStoreFormatVersion;
  h.page_size = 4096;
  WriteHeader(dir, EncodeStoreHeader(h));
  s = Store::Open(dir, StoreOptions(), &store);
  EXPECT_EQ(s.code(), CAIRN_UNSUPPORTED);
  EXPECT_TRUE(Contains(s, "4096")) << s.message();

  std::string bad = EncodeStoreHeader(StoreHeader{});
  bad[5] ^= 0x20;  // in the magic number
  WriteHeader(dir, bad);
  s = Store::Open(dir, StoreOptions(), &store);
  EXPECT_EQ(s.code(), CAIRN_CORRUPTION);
  EXPECT_TRUE(Contains(s, "header of store")) << s.message();
}

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(Store::Open(tmp_.Sub("s"), Creating(), &store_).ok()); }
  TempDir tmp_;
  std::unique_ptr<Store> store_;
};

TEST_F(StoreTest, CreateListInfoDrop) {
  DatabaseId a = 0, b = 0;
  ASSERT_TRUE(store_->CreateDatabase("zeta", &a).ok());
  ASSERT_TRUE(store_->CreateDatabase("alpha", &b).ok());
  EXPECT_NE(a, b);
  std::vector<std::string> names;
  ASSERT_TRUE(store_->ListDatabases(&names).ok());
  EXPECT_EQ(names, (std::vector<std::string>{"alpha", "zeta"}));
  DatabaseInfo info;
  ASSERT_TRUE(store_->GetDatabaseInfo("zeta", &info).ok());
  EXPECT_EQ(info.name, "zeta");
  EXPECT_EQ(info.id, a);
  EXPECT_EQ(info.page_count, 0u);
  EXPECT_EQ(info.free_pages, 0u);
  EXPECT_EQ(info.root, 0u);
  EXPECT_EQ(info.type_count, 0u);
  EXPECT_EQ(info.format_version, kStoreFormatVersion);
  DatabaseId found = 0;
  ASSERT_TRUE(store_->FindDatabase("zeta", &found).ok());
  EXPECT_EQ(found, a);
  ASSERT_TRUE(store_->DropDatabase("zeta").ok());
  ASSERT_TRUE(store_->ListDatabases(&names).ok());
  EXPECT_EQ(names, (std::vector<std::string>{"alpha"}));
  // A new database of the same name is new: another id, empty.
  DatabaseId again = 0;
  ASSERT_TRUE(store_->CreateDatabase("zeta", &again).ok());
  EXPECT_NE(again, a);
}

TEST_F(StoreTest, DefinitionErrors) {
  ASSERT_TRUE(store_->CreateDatabase("db").ok());
  Status s = store_->CreateDatabase("db");
  EXPECT_EQ(s.code(), CAIRN_ALREADY_EXISTS);
  EXPECT_TRUE(Contains(s, "database 'db' already exists in store")) << s.message();
  s = store_->CreateDatabase("no good");
  EXPECT_EQ(s.code(), CAIRN_INVALID_ARGUMENT);
  s = store_->DropDatabase("missing");
  EXPECT_EQ(s.code(), CAIRN_NOT_FOUND);
  EXPECT_TRUE(Contains(s, "there is no database 'missing'")) << s.message();
  DatabaseInfo info;
  s = store_->GetDatabaseInfo("missing", &info);
  EXPECT_EQ(s.code(), CAIRN_NOT_FOUND);
  DatabaseId id;
  s = store_->FindDatabase("bad name", &id);
  EXPECT_EQ(s.code(), CAIRN_INVALID_ARGUMENT);
  CheckReport report;
  s = store_->Check("missing", &report);
  EXPECT_EQ(s.code(), CAIRN_NOT_FOUND);
}

TEST_F(StoreTest, DropRemovesEverythingAndRefusesWhileInUse) {
  DatabaseId id = 0;
  ASSERT_TRUE(store_->CreateDatabase("db", &id).ok());
  std::unique_ptr<Transaction> t;
  ASSERT_TRUE(store_->BeginTransaction(&t).ok());
  PageNo p = 0;
  ASSERT_TRUE(t->AllocatePage(id, &p).ok());
  Status s = store_->DropDatabase("db");
  EXPECT_EQ(s.code(), CAIRN_BUSY);
  EXPECT_TRUE(Contains(s, "in use by 1 open transaction")) << s.message();
  ASSERT_TRUE(t->Commit().ok());
  ASSERT_TRUE(store_->DropDatabase("db").ok());
  // The old id is gone for new transactions.
  ASSERT_TRUE(store_->BeginTransaction(&t).ok());
  char buf[kPageSize];
  s = t->ReadPage(id, 1, buf);
  EXPECT_EQ(s.code(), CAIRN_NOT_FOUND);
  EXPECT_TRUE(Contains(s, "no database #")) << s.message();
  t->Abort();
}

TEST_F(StoreTest, CreateSurvivesReopen) {
  ASSERT_TRUE(store_->CreateDatabase("kept").ok());
  store_.reset();
  ASSERT_TRUE(Store::Open(tmp_.Sub("s"), StoreOptions(), &store_).ok());
  DatabaseInfo info;
  ASSERT_TRUE(store_->GetDatabaseInfo("kept", &info).ok());
  CheckReport report;
  ASSERT_TRUE(store_->Check("kept", &report).ok());
  EXPECT_TRUE(report.clean());
}

}  // namespace
}  // namespace cairn::store

namespace cairn::store {
namespace {

// Short-lived processes must not make the store's write-ahead log grow without bound (see
// Store::Impl::ReleaseOldLogs).
TEST(StoreOpen, WriteAheadLogsDoNotAccumulateAcrossOpens) {
  cairn::test::TempDir tmp;
  std::string dir = tmp.Sub("s");
  StoreOptions o;
  o.create_if_missing = true;
  for (int round = 0; round < 6; ++round) {
    std::unique_ptr<Store> store;
    ASSERT_TRUE(Store::Open(dir, o, &store).ok());
    ASSERT_TRUE(store->CreateDatabase("db" + std::to_string(round)).ok());
  }
  int logs = 0;
  for (const auto &e : std::filesystem::directory_iterator(dir + "/db")) {
    if (e.path().extension() == ".log") ++logs;
  }
  EXPECT_LE(logs, 2);
}

// The files of a kind (".log", ".sst") in the store's RocksDB directory, by name.
std::set<std::string> FilesEndingIn(const std::string &dir, const std::string &extension) {
  std::set<std::string> names;
  for (const auto &e : std::filesystem::directory_iterator(dir + "/db"))
    if (e.path().extension() == extension) names.insert(e.path().filename().string());
  return names;
}

// An open after sessions that committed nothing writes nothing but RocksDB's own bookkeeping:
// no flush, so no table file (and no compaction every few opens), and the empty logs are gone
// (wal_scan.h, CountLogs). What was committed before is all there, and the store writes on.
TEST(StoreOpen, OpensAfterSessionsThatWroteNothingMakeNoTableFile) {
  cairn::test::TempDir tmp;
  std::string dir = tmp.Sub("s");
  {
    std::unique_ptr<Store> store;
    ASSERT_TRUE(Store::Open(dir, Creating(), &store).ok());
    ASSERT_TRUE(store->CreateDatabase("first").ok());
  }
  {
    std::unique_ptr<Store> store;  // recovers the log that holds "first" (and may flush it)
    ASSERT_TRUE(Store::Open(dir, StoreOptions(), &store).ok());
  }
  const std::set<std::string> tables = FilesEndingIn(dir, ".sst");
  for (int round = 0; round < 5; ++round) {
    std::unique_ptr<Store> store;
    ASSERT_TRUE(Store::Open(dir, StoreOptions(), &store).ok());
    std::vector<std::string> names;
    ASSERT_TRUE(store->ListDatabases(&names).ok());
    EXPECT_EQ(names, std::vector<std::string>{"first"});
  }
  EXPECT_EQ(FilesEndingIn(dir, ".sst"), tables) << "an open that needed no flush made one";
  EXPECT_EQ(FilesEndingIn(dir, ".log").size(), 1u);
  {
    std::unique_ptr<Store> store;
    ASSERT_TRUE(Store::Open(dir, StoreOptions(), &store).ok());
    ASSERT_TRUE(store->CreateDatabase("second").ok());
  }
  std::unique_ptr<Store> store;
  ASSERT_TRUE(Store::Open(dir, StoreOptions(), &store).ok());
  std::vector<std::string> names;
  ASSERT_TRUE(store->ListDatabases(&names).ok());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"first", "second"}));
}

// DetachDatabase (a database dropped by a process that has it open): its name is gone at once,
// its pages stay readable by id for this Store, and go when it is destroyed; a process that
// ends without that leaves an 'X' key, and the next writing open deletes them.
TEST(StoreDetach, NameGoesAtOncePagesAtCloseOrNextOpen) {
  TempDir tmp;
  const std::string dir = tmp.Sub("s"), copy = tmp.Sub("copy");
  StoreOptions o;
  o.create_if_missing = true;
  std::unique_ptr<Store> store;
  ASSERT_TRUE(Store::Open(dir, o, &store).ok());
  DatabaseId id = 0;
  ASSERT_TRUE(store->CreateDatabase("a", &id).ok());
  std::string page(kPageSize, '\x5a');
  {
    std::unique_ptr<Transaction> t;
    ASSERT_TRUE(store->BeginTransaction(&t).ok());
    PageNo p = 0;
    ASSERT_TRUE(t->AllocatePage(id, &p).ok());
    ASSERT_TRUE(t->WritePage(id, p, page.data()).ok());
    ASSERT_TRUE(t->Commit().ok());
  }
  DatabaseId detached = 0;
  ASSERT_TRUE(store->DetachDatabase("a", &detached).ok());
  EXPECT_EQ(detached, id);
  DatabaseId found = 0;
  EXPECT_EQ(store->FindDatabase("a", &found).code(), CAIRN_NOT_FOUND);
  std::vector<std::string> names;
  ASSERT_TRUE(store->ListDatabases(&names).ok());
  EXPECT_TRUE(names.empty());
  EXPECT_EQ(store->DetachDatabase("a").code(), CAIRN_NOT_FOUND);
  // Readable and writable by id until the store closes.
  {
    std::unique_ptr<Transaction> t;
    ASSERT_TRUE(store->BeginTransaction(&t).ok());
    std::string back(kPageSize, '\0');
    ASSERT_TRUE(t->ReadPage(id, 1, back.data()).ok());
    EXPECT_TRUE(back == page);
    ASSERT_TRUE(t->WritePage(id, 1, page.data()).ok());
    ASSERT_TRUE(t->Commit().ok());
  }
  // A new database of the name is another one.
  DatabaseId again = 0;
  ASSERT_TRUE(store->CreateDatabase("a", &again).ok());
  EXPECT_NE(again, id);
  std::vector<std::string> problems;
  uint64_t keys = 0;
  ASSERT_TRUE(store->CheckKeys(&problems, &keys).ok());
  EXPECT_TRUE(problems.empty()) << problems[0];
  // A copy taken now is the store of a process that ended without closing it.
  std::filesystem::copy(dir, copy, std::filesystem::copy_options::recursive);
  auto count_keys = [](const std::string &d, uint64_t db) {
    rocksdb::DB *raw = nullptr;
    rocksdb::Options ro;
    EXPECT_TRUE(rocksdb::DB::OpenForReadOnly(ro, d + "/db", &raw).ok());
    std::unique_ptr<rocksdb::Iterator> it(raw->NewIterator(rocksdb::ReadOptions()));
    size_t n = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next())
      if (it->key().size() >= 9 && it->key()[0] != 'N' && it->key()[0] != 'S' &&
          GetBe64ForTest(it->key().data() + 1) == db)
        ++n;
    it.reset();
    delete raw;
    return n;
  };
  store.reset();
  EXPECT_EQ(count_keys(dir, id), 0u) << "the close left the dropped database's keys";
  EXPECT_GT(count_keys(copy, id), 0u);
  ASSERT_TRUE(Store::Open(copy, StoreOptions(), &store).ok());
  store.reset();
  EXPECT_EQ(count_keys(copy, id), 0u) << "the next open left the dropped database's keys";
  ASSERT_TRUE(Store::Open(copy, StoreOptions(), &store).ok());
  ASSERT_TRUE(store->FindDatabase("a", &found).ok());
  EXPECT_EQ(found, again);
  // A mark on a database a name leads to is damage: `db check` says so, and an open keeps it.
  store.reset();
  {
    rocksdb::DB *raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(rocksdb::Options(), copy + "/db", &raw).ok());
    std::string mark(1, 'X');
    for (int i = 7; i >= 0; --i) mark.push_back(static_cast<char>(again >> (8 * i)));
    ASSERT_TRUE(raw->Put(rocksdb::WriteOptions(), mark, "").ok());
    delete raw;
  }
  ASSERT_TRUE(Store::Open(copy, StoreOptions(), &store).ok());
  ASSERT_TRUE(store->FindDatabase("a", &found).ok()) << "an open deleted a named database";
  ASSERT_TRUE(store->CheckKeys(&problems, &keys).ok());
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("database 'a' (#" + std::to_string(again) + ") is marked dropped"),
            std::string::npos)
      << problems[0];
}

}  // namespace
}  // namespace cairn::store

namespace cairn::store {
namespace {

// The memtable history TransactionDB keeps for its write-conflict checks is a quarter of a
// memtable (docs/store-format.md, "RocksDB options": its default of two memtables made a process
// that commits often grow to about 250 MiB). What RocksDB was given is in the OPTIONS file it
// writes at each open.
TEST(StoreOptions, TheMemtableHistoryIsAQuarterOfAMemtable) {
  TempDir dir;
  {
    std::unique_ptr<Store> s;
    ASSERT_TRUE(Store::Open(dir.path(), Creating(), &s).ok());
  }
  std::string newest;
  for (const auto &e : std::filesystem::directory_iterator(dir.path() + "/db"))
    if (e.path().filename().string().rfind("OPTIONS-", 0) == 0 && e.path().string() > newest)
      newest = e.path().string();
  ASSERT_FALSE(newest.empty());
  std::ifstream in(newest);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto value = [&](const std::string &key) -> int64_t {
    const size_t at = text.find("\n  " + key + "=");
    if (at == std::string::npos) return -1;
    return std::stoll(text.substr(at + key.size() + 4));
  };
  const int64_t memtable = value("write_buffer_size");
  ASSERT_GT(memtable, 0) << newest;
  EXPECT_EQ(value("max_write_buffer_size_to_maintain"), memtable / 4) << newest;
  EXPECT_EQ(memtable / 4, int64_t{16} << 20);  // 16 MiB, as the docs say
}

}  // namespace
}  // namespace cairn::store
