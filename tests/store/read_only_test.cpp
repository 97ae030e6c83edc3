// A store opened read-only (StoreOptions::read_only): reads as usual, refuses every write, and
// writes nothing into the directory; readers share the store among themselves but never with a
// writer. A directory that holds another program's RocksDB database is refused before anything
// is written into it, read-only or not.
#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include "cairn/store.h"
#include "temp_dir.h"

namespace cairn::store {
namespace {

namespace fs = std::filesystem;
using cairn::test::TempDir;

bool Contains(const std::string &s, const std::string &text) {
  return s.find(text) != std::string::npos;
}

// Every file under `dir`, with its contents and modification time.
std::map<std::string, std::string> Snapshot(const std::string &dir) {
  std::map<std::string, std::string> files;
  for (const auto &e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    files[e.path().string()] =
        bytes + "@" + std::to_string(fs::last_write_time(e.path()).time_since_epoch().count());
  }
  return files;
}

StoreOptions ReadOnly() {
  StoreOptions o;
  o.read_only = true;
  return o;
}

class ReadOnlyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    StoreOptions o;
    o.create_if_missing = true;
    std::unique_ptr<Store> s;
    ASSERT_TRUE(Store::Open(dir_, o, &s).ok());
    ASSERT_TRUE(s->CreateDatabase("db", &id_).ok());
    std::unique_ptr<Transaction> t;
    ASSERT_TRUE(s->BeginTransaction(&t).ok());
    PageNo p = 0;
    ASSERT_TRUE(t->AllocatePage(id_, &p).ok());
    page_.assign(kPageSize, 'x');
    ASSERT_TRUE(t->WritePage(id_, p, page_.data()).ok());
    ASSERT_TRUE(t->SetRoot(id_, 42).ok());
    ASSERT_TRUE(t->Commit().ok());
  }
  TempDir tmp_;
  std::string dir_ = tmp_.Sub("s");
  DatabaseId id_ = 0;
  std::string page_;
};

TEST_F(ReadOnlyTest, ReadsWorkWritesAreRefusedAndNothingIsWritten) {
  const auto before = Snapshot(dir_);
  {
    std::unique_ptr<Store> s;
    Status st = Store::Open(dir_, ReadOnly(), &s);
    ASSERT_TRUE(st.ok()) << st.message();
    std::vector<std::string> names;
    ASSERT_TRUE(s->ListDatabases(&names).ok());
    EXPECT_EQ(names, std::vector<std::string>{"db"});
    DatabaseInfo info;
    ASSERT_TRUE(s->GetDatabaseInfo("db", &info).ok());
    EXPECT_EQ(info.root, 42u);
    EXPECT_EQ(info.page_count, 1u);
    CheckReport r;
    ASSERT_TRUE(s->Check("db", &r).ok());
    EXPECT_TRUE(r.clean());
    EXPECT_EQ(r.pages_read, 1u);

    std::unique_ptr<Transaction> t;
    ASSERT_TRUE(s->BeginTransaction(&t).ok());
    std::string buf(kPageSize, '\0');
    ASSERT_TRUE(t->ReadPage(id_, 1, buf.data()).ok());
    EXPECT_EQ(buf, page_);
    uint64_t root = 0;
    ASSERT_TRUE(t->GetRoot(id_, &root).ok());
    EXPECT_EQ(root, 42u);
    std::vector<TypeEntry> types;
    ASSERT_TRUE(t->ListTypes(id_, &types).ok());
    ASSERT_TRUE(t->Commit().ok());  // nothing to write

    ASSERT_TRUE(s->BeginTransaction(&t).ok());
    st = t->WritePage(id_, 1, buf.data());
    EXPECT_EQ(st.code(), CAIRN_MISUSE);
    EXPECT_TRUE(Contains(st.message(), "read-only")) << st.message();
    EXPECT_EQ(t->state(), Transaction::State::kFailed);
    t->Abort();
    ASSERT_TRUE(s->BeginTransaction(&t).ok());
    EXPECT_EQ(t->SetRoot(id_, 7).code(), CAIRN_MISUSE);
    t->Abort();
    ASSERT_TRUE(s->BeginTransaction(&t).ok());
    PageNo p = 0;
    EXPECT_EQ(t->AllocatePage(id_, &p).code(), CAIRN_MISUSE);
    t.reset();
    st = s->CreateDatabase("other");
    EXPECT_EQ(st.code(), CAIRN_MISUSE);
    EXPECT_TRUE(
        Contains(st.message(), "creating database 'other': store " + dir_ + " is open read-only"))
        << st.message();
    EXPECT_EQ(s->DropDatabase("db").code(), CAIRN_MISUSE);
    // What would be wrong in any store is said first: a name taken, a bad name, no such one.
    EXPECT_EQ(s->CreateDatabase("db").code(), CAIRN_ALREADY_EXISTS);
    st = s->CreateDatabase("no good");
    EXPECT_EQ(st.code(), CAIRN_INVALID_ARGUMENT) << st.message();
    st = s->DropDatabase("nothere");
    EXPECT_EQ(st.code(), CAIRN_NOT_FOUND) << st.message();
    EXPECT_TRUE(Contains(st.message(), "there is no database 'nothere'")) << st.message();
    EXPECT_EQ(s->DropDatabase("no good").code(), CAIRN_INVALID_ARGUMENT);
  }
  EXPECT_TRUE(Snapshot(dir_) == before) << "a read-only open changed the store's files";
}

TEST_F(ReadOnlyTest, ReadersShareTheStoreButNeverWithAWriter) {
  std::unique_ptr<Store> reader1, reader2, writer;
  ASSERT_TRUE(Store::Open(dir_, ReadOnly(), &reader1).ok());
  Status st = Store::Open(dir_, ReadOnly(), &reader2);
  EXPECT_TRUE(st.ok()) << st.message();
  st = Store::Open(dir_, StoreOptions(), &writer);
  EXPECT_EQ(st.code(), CAIRN_BUSY);
  EXPECT_TRUE(Contains(st.message(), "in use by another process, which is reading it"))
      << st.message();
  // ... and what a program that only reads would do.
  EXPECT_TRUE(Contains(st.message(),
                       "a program that only reads may share it: set "
                       "CAIRN_STORE_READ_ONLY=1"))
      << st.message();
  reader1.reset();
  reader2.reset();
  ASSERT_TRUE(Store::Open(dir_, StoreOptions(), &writer).ok());
  st = Store::Open(dir_, ReadOnly(), &reader1);
  EXPECT_EQ(st.code(), CAIRN_BUSY);
  EXPECT_TRUE(Contains(st.message(), "in use by process")) << st.message();
}

// A reader that found no lock file to lock (deleted, or unreadable) holds only the directory's
// shared lock: a writer is told a reader has the store, not that a lock file was removed; and a
// reader is kept out of a writer's store whose lock file it cannot find.
TEST_F(ReadOnlyTest, AReaderWithoutTheLockFileKeepsAWriterOutAndIsNamedAsAReader) {
  ASSERT_TRUE(fs::remove(dir_ + "/cairn.lock"));
  std::unique_ptr<Store> reader, writer;
  Status st = Store::Open(dir_, ReadOnly(), &reader);
  ASSERT_TRUE(st.ok()) << st.message();
  st = Store::Open(dir_, StoreOptions(), &writer);
  EXPECT_EQ(st.code(), CAIRN_BUSY);
  EXPECT_TRUE(Contains(st.message(), "in use by another process, which is reading it"))
      << st.message();
  EXPECT_FALSE(Contains(st.message(), "removed")) << st.message();
  reader.reset();
  ASSERT_TRUE(Store::Open(dir_, StoreOptions(), &writer).ok());
  ASSERT_TRUE(fs::remove(dir_ + "/cairn.lock"));
  st = Store::Open(dir_, ReadOnly(), &reader);
  EXPECT_EQ(st.code(), CAIRN_BUSY);
  EXPECT_TRUE(Contains(st.message(), "in use by another process, which is writing it"))
      << st.message();
}

// A directory with a RocksDB database of its own (another program's) in db/.
TEST(NotAStoreTest, AnotherProgramsRocksDbIsRefusedWithNothingWritten) {
  TempDir tmp;
  const std::string dir = tmp.Sub("foreign");
  fs::create_directories(dir);
  {
    rocksdb::Options o;
    o.create_if_missing = true;
    rocksdb::DB *raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(o, dir + "/db", &raw).ok());
    ASSERT_TRUE(raw->Put(rocksdb::WriteOptions(), "their-key", "their-value").ok());
    ASSERT_TRUE(raw->Close().ok());
    delete raw;
  }
  const auto before = Snapshot(dir);
  std::unique_ptr<Store> s;
  StoreOptions create;
  create.create_if_missing = true;
  for (const StoreOptions &o : {StoreOptions(), create, ReadOnly()}) {
    Status st = Store::Open(dir, o, &s);
    EXPECT_FALSE(st.ok());
    EXPECT_TRUE(Contains(st.message(), "not a Cairn store") ||
                Contains(st.message(), "no Cairn store header"))
        << st.message();
    EXPECT_TRUE(Snapshot(dir) == before) << "a refused open wrote into " << dir;
  }
}

}  // namespace
}  // namespace cairn::store
