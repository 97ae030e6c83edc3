// One process per store: a second process is refused with "store DIR is in use by process N",
// without waiting and without damage; the lock of a killed process is taken over; deleting the
// lock files under a holder lets no second process in.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "cairn/store.h"
#include "child_process.h"
#include "temp_dir.h"

namespace cairn::store {
namespace {

using cairn::test::ChildProcess;
using cairn::test::TempDir;
using namespace std::chrono_literals;

StoreOptions Creating() {
  StoreOptions o;
  o.create_if_missing = true;
  return o;
}

TEST(StoreLock, SecondProcessIsRefusedWhileWeHoldTheStore) {
  TempDir tmp;
  std::string dir = tmp.Sub("s");
  std::unique_ptr<Store> store;
  ASSERT_TRUE(Store::Open(dir, Creating(), &store).ok());
  ASSERT_TRUE(store->CreateDatabase("db").ok());
  auto start = std::chrono::steady_clock::now();
  ChildProcess child({CAIRN_STORE_HOLDER, dir});
  std::string out = child.ReadAll();
  EXPECT_EQ(child.Wait(), 3);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);  // refused, not hung
  EXPECT_EQ(out, "busy: store " + dir + " is in use by process " + std::to_string(getpid()) +
                     " (wait for it to finish, or use another store)\n");
  // And nothing was damaged.
  CheckReport r;
  ASSERT_TRUE(store->Check("db", &r).ok());
  EXPECT_TRUE(r.clean());
}

TEST(StoreLock, WeAreRefusedWhileAnotherProcessHoldsTheStore) {
  TempDir tmp;
  std::string dir = tmp.Sub("s");
  ChildProcess holder({CAIRN_STORE_HOLDER, dir});
  std::string line = holder.ReadLine(30s);
  ASSERT_EQ(line, "ready " + std::to_string(holder.pid()) + "\n");
  std::unique_ptr<Store> store;
  Status s = Store::Open(dir, StoreOptions(), &store);
  EXPECT_EQ(s.code(), CAIRN_BUSY);
  EXPECT_EQ(s.message().rfind(
                "store " + dir + " is in use by process " + std::to_string(holder.pid()), 0),
            0u)
      << s.message();
  holder.CloseInput();  // the holder closes the store and exits
  EXPECT_EQ(holder.Wait(), 0);
  ASSERT_TRUE(Store::Open(dir, StoreOptions(), &store).ok());
}

// A lock file emptied or rewritten in place under its writer (same file, other contents): the
// next opener is refused as by a writer, not told the store is being read, nor a number that is
// no process (the file's 23 digits were read as the largest long).
TEST(StoreLock, ALockFileChangedUnderItsWriterStillNamesAWriter) {
  TempDir tmp;
  std::string dir = tmp.Sub("s");
  ChildProcess holder({CAIRN_STORE_HOLDER, dir});
  ASSERT_EQ(holder.ReadLine(30s), "ready " + std::to_string(holder.pid()) + "\n");
  for (const char *contents : {"", "99999999999999999999999\n", "pid 12\n"}) {
    SCOPED_TRACE(contents);
    std::FILE *f = std::fopen((dir + "/cairn.lock").c_str(), "r+");  // the same file
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(ftruncate(fileno(f), 0), 0);
    std::fputs(contents, f);
    std::fclose(f);
    for (bool read_only : {false, true}) {
      StoreOptions o;
      o.read_only = read_only;
      std::unique_ptr<Store> store;
      Status s = Store::Open(dir, o, &store);
      EXPECT_EQ(s.code(), CAIRN_BUSY);
      EXPECT_NE(s.message().find("is in use by another process, which is writing it (its lock "
                                 "file " +
                                 dir + "/cairn.lock does not hold its process id"),
                std::string::npos)
          << s.message();
    }
  }
  holder.CloseInput();
  EXPECT_EQ(holder.Wait(), 0);
}

// Deleting the lock files (ours and RocksDB's) under a running holder does not let a second
// process in: the store directory is locked too.
TEST(StoreLock, RemovingTheLockFilesUnderAHolderDoesNotLetASecondProcessIn) {
  TempDir tmp;
  std::string dir = tmp.Sub("s");
  ChildProcess holder({CAIRN_STORE_HOLDER, dir});
  ASSERT_EQ(holder.ReadLine(30s), "ready " + std::to_string(holder.pid()) + "\n");
  size_t removed = 0;
  for (const auto &e : std::filesystem::recursive_directory_iterator(dir))
    if (e.path().filename() == "LOCK" || e.path().filename() == "cairn.lock") {
      std::filesystem::remove(e.path());
      removed++;
    }
  EXPECT_EQ(removed, 2u);
  std::unique_ptr<Store> store;
  Status s = Store::Open(dir, StoreOptions(), &store);
  EXPECT_EQ(s.code(), CAIRN_BUSY);
  EXPECT_EQ(s.message(), "store " + dir + " is in use by another process, whose lock file " + dir +
                             "/cairn.lock was removed or replaced while it ran (wait for it to "
                             "finish, or use another store; do not delete the lock file of a "
                             "store in use)");
  StoreOptions read_only;
  read_only.read_only = true;
  EXPECT_EQ(Store::Open(dir, read_only, &store).code(), CAIRN_BUSY);
  holder.CloseInput();  // the holder closes the store and exits
  EXPECT_EQ(holder.Wait(), 0);
  s = Store::Open(dir, StoreOptions(), &store);
  EXPECT_TRUE(s.ok()) << s.ToString();
}

TEST(StoreLock, LockOfAKilledProcessIsTakenOver) {
  TempDir tmp;
  std::string dir = tmp.Sub("s");
  {
    ChildProcess holder({CAIRN_STORE_HOLDER, dir});
    ASSERT_EQ(holder.ReadLine(30s).rfind("ready", 0), 0u);
    holder.Kill();
    EXPECT_EQ(holder.Wait(), 128 + SIGKILL);
  }
  // The lock file is still there, with the dead holder's pid in it; the OS lock is gone.
  EXPECT_TRUE(std::filesystem::exists(dir + "/cairn.lock"));
  std::unique_ptr<Store> store;
  Status s = Store::Open(dir, StoreOptions(), &store);
  EXPECT_TRUE(s.ok()) << s.ToString();
}

// The lock file is written by the store's writer: a link there (symbolic, dangling or hard) is
// refused, saying what it is, and the file it leads to is neither emptied nor made.
TEST(StoreLock, ALinkInPlaceOfTheLockFileIsRefusedAndItsTargetLeftAlone) {
  TempDir tmp;
  const std::string dir = tmp.Sub("s");
  {
    std::unique_ptr<Store> store;
    ASSERT_TRUE(Store::Open(dir, Creating(), &store).ok());
    ASSERT_TRUE(store->CreateDatabase("db").ok());
  }
  const std::string lock_path = dir + "/cairn.lock";
  const std::string target = tmp.Sub("precious.txt");
  auto write_target = [&] {
    std::FILE *f = std::fopen(target.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("keep me\n", f);
    std::fclose(f);
  };
  auto target_text = [&] {
    std::string text;
    if (std::FILE *f = std::fopen(target.c_str(), "r")) {
      char buf[64];
      size_t n = std::fread(buf, 1, sizeof buf, f);
      text.assign(buf, n);
      std::fclose(f);
    }
    return text;
  };
  for (const char *kind : {"symbolic", "hard", "dangling"}) {
    SCOPED_TRACE(kind);
    std::filesystem::remove(lock_path);
    std::filesystem::remove(target);
    if (std::string(kind) != "dangling") write_target();
    if (std::string(kind) == "hard")
      std::filesystem::create_hard_link(target, lock_path);
    else
      std::filesystem::create_symlink(target, lock_path);
    std::unique_ptr<Store> store;
    Status s = Store::Open(dir, StoreOptions(), &store);
    EXPECT_EQ(s.code(), CAIRN_IO_ERROR);
    EXPECT_NE(s.message().find("the lock file " + lock_path + " is a link to another file"),
              std::string::npos)
        << s.message();
    if (std::string(kind) == "dangling")
      EXPECT_FALSE(std::filesystem::exists(target));
    else
      EXPECT_EQ(target_text(), "keep me\n");
  }
  // Removed, as the message says, the store opens.
  std::filesystem::remove(lock_path);
  std::unique_ptr<Store> store;
  EXPECT_TRUE(Store::Open(dir, StoreOptions(), &store).ok());
}

}  // namespace
}  // namespace cairn::store
