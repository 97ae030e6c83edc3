// The store's RocksDB info log (store_logger.h): L1, a line that cannot be written is dropped and
// the store goes on (RocksDB's own logger failed an assertion at its next write after a failed
// one: on a full disk every open of the store died by SIGABRT with no message); L2, the file is
// opened at the first line, again later if it could not be, and a log past kMaxLogBytes is kept
// as LOG.old.
#include "store_logger.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "cairn/store.h"
#include "temp_dir.h"

namespace cairn::store {
namespace {

namespace fs = std::filesystem;
using cairn::test::TempDir;

std::string Read(const std::string &path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void Line(rocksdb::Logger &log, const char *format, ...) {
  va_list ap;
  va_start(ap, format);
  log.Logv(format, ap);
  va_end(ap);
}

TEST(StoreLogger, WritesLinesWithATimeOnceTheDirectoryIsThere) {
  TempDir tmp;
  const std::string dir = tmp.Sub("db");
  std::shared_ptr<rocksdb::Logger> log = MakeStoreLogger(dir);
  Line(*log, "before the directory %d", 1);  // L2: dropped, no file, no failure
  fs::create_directory(dir);
  Line(*log, "after it %d", 2);
  log->Flush();
  const std::string text = Read(dir + "/LOG");
  EXPECT_EQ(text.find("before the directory"), std::string::npos) << text;
  ASSERT_NE(text.find(" after it 2\n"), std::string::npos) << text;
  EXPECT_TRUE(text[4] == '/' && text[10] == '-') << text;  // 2026/11/27-18:30:00.123456
  ASSERT_TRUE(log->Close().ok());
}

TEST(StoreLogger, ALineThatCannotBeWrittenIsDropped) {
  ASSERT_TRUE(fs::exists("/dev/full"));  // Linux's device whose every write fails (ENOSPC)
  TempDir tmp;
  const std::string dir = tmp.Sub("db");
  fs::create_directory(dir);
  fs::create_symlink("/dev/full", dir + "/LOG");  // every write fails: no space left on device
  std::shared_ptr<rocksdb::Logger> log = MakeStoreLogger(dir);
  for (int i = 0; i < 2000; i++) Line(*log, "line %d of a log that cannot be written", i);
  log->Flush();
  EXPECT_TRUE(log->Close().ok());
}

TEST(StoreLogger, ALogPastTheBoundAtOpenIsKeptAsLogOld) {
  TempDir tmp;
  const std::string dir = tmp.Sub("db");
  fs::create_directory(dir);
  {
    std::ofstream big(dir + "/LOG");
    big << std::string(kMaxLogBytes + 1, 'x');
  }
  std::shared_ptr<rocksdb::Logger> log = MakeStoreLogger(dir);
  Line(*log, "fresh");
  log->Flush();
  EXPECT_EQ(fs::file_size(dir + "/LOG.old"), uint64_t(kMaxLogBytes + 1));
  EXPECT_LT(fs::file_size(dir + "/LOG"), 100u);
  // A log under the bound is appended to.
  std::shared_ptr<rocksdb::Logger> again = MakeStoreLogger(dir);
  Line(*again, "appended");
  again->Flush();
  const std::string text = Read(dir + "/LOG");
  EXPECT_NE(text.find("fresh"), std::string::npos);
  EXPECT_NE(text.find("appended"), std::string::npos);
}

// A long-lived process's log is bounded too: past kMaxLogBytes it moves to LOG.old.
TEST(StoreLogger, ALogThatGrowsPastTheBoundMovesToLogOld) {
  TempDir tmp;
  const std::string dir = tmp.Sub("db");
  fs::create_directory(dir);
  std::shared_ptr<rocksdb::Logger> log = MakeStoreLogger(dir);
  const std::string line(1000, 'y');
  for (long i = 0; i < 3 * kMaxLogBytes / 1000; i++) Line(*log, "%s", line.c_str());
  log->Flush();
  EXPECT_LE(fs::file_size(dir + "/LOG"), uint64_t(kMaxLogBytes + 2000));
  EXPECT_LE(fs::file_size(dir + "/LOG.old"), uint64_t(kMaxLogBytes + 2000));
  EXPECT_GT(fs::file_size(dir + "/LOG.old"), uint64_t(kMaxLogBytes));
}

// The store's opens log through it: a store whose log cannot be written opens, commits and
// closes, and its LOG is the store's (RocksDB's logger renamed the file away and made its own).
TEST(StoreLogger, AStoreWhoseLogCannotBeWrittenWorks) {
  ASSERT_TRUE(fs::exists("/dev/full"));  // Linux's device whose every write fails (ENOSPC)
  TempDir tmp;
  const std::string dir = tmp.Sub("s");
  StoreOptions o;
  o.create_if_missing = true;
  {
    std::unique_ptr<Store> store;
    ASSERT_TRUE(Store::Open(dir, o, &store).ok());
  }
  fs::remove(dir + "/db/LOG");
  fs::create_symlink("/dev/full", dir + "/db/LOG");
  for (int round = 0; round < 2; round++) {
    std::unique_ptr<Store> store;
    Status s = Store::Open(dir, o, &store);
    ASSERT_TRUE(s.ok()) << s.message();
    DatabaseId id = 0;
    if (round == 0) {
      ASSERT_TRUE(store->CreateDatabase("d", &id).ok());
    } else {
      ASSERT_TRUE(store->FindDatabase("d", &id).ok());
    }
    std::unique_ptr<Transaction> t;
    ASSERT_TRUE(store->BeginTransaction(&t).ok());
    ASSERT_TRUE(t->SetRoot(id, 40 + round).ok());
    ASSERT_TRUE(t->Commit().ok());
  }
  EXPECT_TRUE(fs::is_symlink(dir + "/db/LOG"));
}

}  // namespace
}  // namespace cairn::store
