// Damage in the write-ahead log: before its tail it refuses the open (CAIRN_CORRUPTION naming
// the log, nothing changed on disk, the log kept) until Store::Recover accepts the loss and says
// what was lost; a record cut short at the end (a process killed while committing) is dropped
// silently, as it was never acknowledged.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>

#include "cairn/store.h"
#include "crc32c.h"
#include "encoding.h"
#include "temp_dir.h"
#include "wal_scan.h"

namespace cairn::store {
namespace {

namespace fs = std::filesystem;
using cairn::test::TempDir;

// The commits Commit() makes: kPageCommits that each add a page (large log records, several to a
// block, some cut across blocks), then kRootCommits that only set the root (small records, at
// the end of the log).
constexpr int kPageCommits = 24;
constexpr int kRootCommits = 4;
constexpr int kCommits = kPageCommits + kRootCommits;

bool Contains(const std::string &s, const std::string &text) {
  return s.find(text) != std::string::npos;
}

std::string ReadFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void WriteFile(const fs::path &p, const std::string &bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Every file under `dir` with its contents.
std::map<std::string, std::string> Snapshot(const std::string &dir) {
  std::map<std::string, std::string> files;
  for (const auto &e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) files[e.path().string()] = ReadFile(e.path());
  return files;
}

// Page i's contents, written by commit i (incompressible).
std::string PageContents(int i) {
  std::string s(kPageSize, '\0');
  uint64_t x = 0x9e3779b97f4a7c15ull * static_cast<uint64_t>(i + 1);
  for (size_t k = 0; k < s.size(); ++k) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    s[k] = static_cast<char>(x);
  }
  return s;
}

class WalDamageTest : public ::testing::Test {
 protected:
  // A store with database "db" and the kCommits commits, all in the one log the last open
  // started (not flushed at close: StoreOptions::flush_at_close); pristine_ keeps a copy of it.
  void SetUp() override {
    StoreOptions o;
    o.create_if_missing = true;
    {
      std::unique_ptr<Store> store;
      ASSERT_TRUE(Store::Open(dir_, o, &store).ok());
      ASSERT_TRUE(store->CreateDatabase("db").ok());
    }
    std::unique_ptr<Store> store;
    StoreOptions keep_log;
    keep_log.flush_at_close = false;  // the commits stay in the log, as after a crash
    ASSERT_TRUE(Store::Open(dir_, keep_log, &store).ok());
    DatabaseId id = 0;
    ASSERT_TRUE(store->FindDatabase("db", &id).ok());
    for (int i = 1; i <= kCommits; ++i) {
      std::unique_ptr<Transaction> t;
      ASSERT_TRUE(store->BeginTransaction(&t).ok());
      if (i <= kPageCommits) {
        PageNo p = 0;
        ASSERT_TRUE(t->AllocatePage(id, &p).ok());
        ASSERT_EQ(p, static_cast<PageNo>(i));
        ASSERT_TRUE(t->WritePage(id, p, PageContents(i).data()).ok());
      }
      ASSERT_TRUE(t->SetRoot(id, static_cast<uint64_t>(i)).ok());
      ASSERT_TRUE(t->Commit().ok());
    }
    store.reset();
    fs::copy(dir_, pristine_, fs::copy_options::recursive);
    log_ = Log();
    bytes_ = ReadFile(log_);
    batches_ = BatchOffsets();
    ASSERT_EQ(batches_.size(), static_cast<size_t>(kCommits));
  }

  // Puts the store back as SetUp left it.
  void Restore() {
    fs::remove_all(dir_);
    fs::copy(pristine_, dir_, fs::copy_options::recursive);
  }

  // The newest log.
  fs::path Log() {
    fs::path newest;
    for (const auto &e : fs::directory_iterator(dir_ + "/db"))
      if (e.path().extension() == ".log" && (newest.empty() || e.path() > newest))
        newest = e.path();
    return newest;
  }

  // The offsets of the log's batches, from the scanner: those of a copy whose first byte is
  // broken are all "after the damage", and kept.
  std::vector<uint64_t> BatchOffsets() {
    WalScan scan;
    EXPECT_TRUE(ScanWal(dir_ + "/db", &scan).ok());
    EXPECT_EQ(scan.FirstDamaged(), nullptr);
    EXPECT_EQ(scan.files.back().batches, static_cast<uint64_t>(kCommits));
    fs::path copy_dir = tmp_.Sub("scan");
    fs::create_directories(copy_dir);
    std::string broken = bytes_;
    broken[0] ^= 0x55;
    WriteFile(copy_dir / log_.filename(), broken);
    EXPECT_TRUE(ScanWal(copy_dir.string(), &scan).ok());
    std::vector<uint64_t> offsets{0};
    for (const WalBatch *b : scan.Lost()) offsets.push_back(b->offset);
    fs::remove_all(copy_dir);
    return offsets;  // offsets[k] is where commit k + 1 starts
  }

  // The database as a reopened store sees it: the last commit is `last`.
  void ExpectCommitsUpTo(int last) {
    std::unique_ptr<Store> store;
    Status s = Store::Open(dir_, StoreOptions(), &store);
    ASSERT_TRUE(s.ok()) << s.message();
    DatabaseInfo info;
    ASSERT_TRUE(store->GetDatabaseInfo("db", &info).ok());
    EXPECT_EQ(info.root, static_cast<uint64_t>(last));
    const int pages = std::min(last, kPageCommits);
    EXPECT_EQ(info.page_count, static_cast<uint64_t>(pages));
    std::unique_ptr<Transaction> t;
    ASSERT_TRUE(store->BeginTransaction(&t).ok());
    std::string buf(kPageSize, '\0');
    for (int i = 1; i <= pages; ++i) {
      ASSERT_TRUE(t->ReadPage(info.id, static_cast<PageNo>(i), buf.data()).ok());
      EXPECT_TRUE(buf == PageContents(i)) << "page " << i;
    }
  }

  TempDir tmp_;
  std::string dir_ = tmp_.Sub("s");
  std::string pristine_ = tmp_.Sub("pristine");
  fs::path log_;
  std::string bytes_;
  std::vector<uint64_t> batches_;
};

TEST_F(WalDamageTest, AnIntactLogScansClean) {
  WalScan scan;
  ASSERT_TRUE(ScanWal(dir_ + "/db", &scan).ok());
  EXPECT_EQ(scan.FirstDamaged(), nullptr);
  EXPECT_TRUE(scan.Lost().empty());
  EXPECT_EQ(scan.files.back().end, WalFile::End::kClean);
  ExpectCommitsUpTo(kCommits);
}

// One flipped bit in the middle of the log: RocksDB's point-in-time recovery would drop the
// commits after it without a word (and then delete the log). The open is refused instead, with
// nothing changed on disk, until Recover accepts the loss and reports it.
TEST_F(WalDamageTest, DamageMidLogIsRefusedWithNothingChangedThenRecovered) {
  const int damaged_commit = 10;
  const uint64_t at = batches_[damaged_commit - 1] + 100;
  std::string log = bytes_;
  log[at] ^= 0x08;
  WriteFile(log_, log);
  const auto before = Snapshot(dir_);

  std::unique_ptr<Store> store;
  Status s = Store::Open(dir_, StoreOptions(), &store);
  ASSERT_EQ(s.code(), CAIRN_CORRUPTION) << s.message();
  EXPECT_TRUE(Contains(s.message(), log_.string())) << s.message();
  EXPECT_TRUE(Contains(s.message(), "checksum mismatch")) << s.message();
  EXPECT_TRUE(Contains(s.message(), "cairn db recover")) << s.message();
  EXPECT_TRUE(Contains(s.message(), std::to_string(kCommits - damaged_commit) + " intact commits"))
      << s.message();
  EXPECT_TRUE(Contains(s.message(), "the commits in its ")) << s.message();
  EXPECT_TRUE(Snapshot(dir_) == before) << "a refused open changed the store's files";
  // Refused again, the same way: nothing was dropped or deleted.
  s = Store::Open(dir_, StoreOptions(), &store);
  EXPECT_EQ(s.code(), CAIRN_CORRUPTION);
  EXPECT_TRUE(Snapshot(dir_) == before);

  RecoveryReport report;
  s = Store::Recover(dir_, StoreOptions(), &report);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_TRUE(report.damaged);
  EXPECT_EQ(report.log_file, log_.string());
  EXPECT_EQ(report.damage, "checksum mismatch");
  EXPECT_GE(report.damage_offset, batches_[damaged_commit - 1]);
  EXPECT_LE(report.damage_offset, at);
  EXPECT_EQ(report.commits_lost, static_cast<uint64_t>(kCommits - damaged_commit));
  // The damaged record, from where its damage was found to the next intact one.
  EXPECT_EQ(report.damaged_bytes, batches_[damaged_commit] - report.damage_offset);
  EXPECT_EQ(report.bytes_lost, bytes_.size() - report.damage_offset);
  ASSERT_EQ(report.databases.size(), 1u);
  EXPECT_EQ(report.databases[0].name, "db");
  EXPECT_EQ(report.databases[0].page_writes, static_cast<uint64_t>(kPageCommits - damaged_commit));
  EXPECT_TRUE(report.databases[0].catalogue);
  EXPECT_FALSE(report.databases[0].created);
  // The damaged log was kept, as it was.
  ASSERT_FALSE(report.kept_copy.empty());
  EXPECT_EQ(ReadFile(fs::path(report.kept_copy) / log_.filename()), log);

  // The store is as of the last commit before the damage, and opens normally from now on.
  ExpectCommitsUpTo(damaged_commit - 1);
  ExpectCommitsUpTo(damaged_commit - 1);
  RecoveryReport again;
  ASSERT_TRUE(Store::Recover(dir_, StoreOptions(), &again).ok());
  EXPECT_FALSE(again.damaged);
}

// A log whose writes are already in table files (obsolete: RocksDB will not replay it, but a
// process killed before RocksDB deleted it leaves it on disk) may be damaged: nothing is lost.
// A TransactionDB may still read it (when the process was killed before the flush that follows
// recovery, as the crash campaign found) and fail, so a writing open (here, Recover's) deletes it
// first; a read-only open (a plain RocksDB) skips it. Made here by putting the pristine log back,
// damaged, after an open that flushed its writes and moved on to a new log.
TEST_F(WalDamageTest, DamageInAnObsoleteLogIsNotRefused) {
  {
    std::unique_ptr<Store> store;
    ASSERT_TRUE(Store::Open(dir_, StoreOptions(), &store).ok());
  }
  uint64_t first_live = 0;
  ASSERT_TRUE(FirstLiveLog(dir_ + "/db", &first_live));
  const uint64_t old_number = std::stoull(log_.stem().string());
  ASSERT_GT(first_live, old_number) << "the reopen did not move on to a new log";
  std::string log = bytes_;
  log[batches_[9] + 100] ^= 0x08;
  WriteFile(log_, log);

  WalScan scan;
  ASSERT_TRUE(ScanWal(dir_ + "/db", &scan, first_live).ok());
  EXPECT_EQ(scan.FirstDamaged(), nullptr);
  EXPECT_EQ(scan.skipped, 1u);
  // A read-only open reads past it and changes nothing.
  StoreOptions read_only;
  read_only.read_only = true;
  std::unique_ptr<Store> store;
  Status s = Store::Open(dir_, read_only, &store);
  ASSERT_TRUE(s.ok()) << s.message();
  store.reset();
  EXPECT_TRUE(fs::exists(log_));

  RecoveryReport report;
  s = Store::Recover(dir_, StoreOptions(), &report);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_FALSE(report.damaged);
  EXPECT_EQ(report.obsolete_logs_removed, 1u);
  EXPECT_FALSE(fs::exists(log_));
  ExpectCommitsUpTo(kCommits);
  ASSERT_TRUE(Store::Open(dir_, read_only, &store).ok());
}

// A process killed while committing leaves the last record cut short: it was never
// acknowledged, and the store opens without it, silently, wherever the cut falls. The same holds
// for a large commit cut between its fragments.
TEST_F(WalDamageTest, ARecordCutShortAtTheEndIsDroppedSilently) {
  const uint64_t last = batches_.back();
  for (uint64_t cut : {last + 3, last + 7, last + 9, bytes_.size() - 1}) {
    SCOPED_TRACE("cut at " + std::to_string(cut) + " of " + std::to_string(bytes_.size()));
    Restore();
    WriteFile(log_, bytes_.substr(0, cut));
    WalScan scan;
    ASSERT_TRUE(ScanWal(dir_ + "/db", &scan).ok());
    EXPECT_EQ(scan.FirstDamaged(), nullptr);
    EXPECT_EQ(scan.files.back().end, WalFile::End::kIncomplete);
    ExpectCommitsUpTo(kCommits - 1);
  }
  // A page commit cut off after its first fragment (in the block before).
  for (int commit = kPageCommits; commit >= 1; --commit) {
    uint64_t begin = batches_[commit - 1], end = batches_[commit];
    if (begin / 32768 == (end - 1) / 32768) continue;  // not cut across blocks
    SCOPED_TRACE("commit " + std::to_string(commit) + " cut across blocks");
    Restore();
    WriteFile(log_, bytes_.substr(0, (end - 1) / 32768 * 32768));
    WalScan scan;
    ASSERT_TRUE(ScanWal(dir_ + "/db", &scan).ok());
    EXPECT_EQ(scan.FirstDamaged(), nullptr);
    EXPECT_EQ(scan.files.back().end_offset, begin);
    ExpectCommitsUpTo(commit - 1);
    break;
  }
}

// Damage that looks like a tail but is not: a record's length made to run past the end of the
// file with intact records after it, a zeroed header (RocksDB would skip the rest of the block
// and replay what follows: a hole), an impossible length or type, a damaged last record.
TEST_F(WalDamageTest, DamageThatLooksLikeATailIsStillDamage) {
  const uint64_t header = batches_[kCommits - 2];  // the next to last commit, a small record
  ASSERT_EQ(header / 32768, (bytes_.size() - 1) / 32768) << "not in the last block";
  const uint64_t past_end = bytes_.size() - header - 7 + 1;
  struct Case {
    const char *what;
    std::function<void(std::string &)> damage;
    const char *expect;
  } cases[] = {
      {"length past the end",
       [&](std::string &b) {
         b[header + 4] = static_cast<char>(past_end & 0xff);
         b[header + 5] = static_cast<char>(past_end >> 8);
       },
       "a record cut short with intact records after it"},
      {"zeroed header", [&](std::string &b) { std::memset(b.data() + header, 0, 7); },
       "zeroed record header"},
      {"length past the block",
       [&](std::string &b) { b[header + 4] = char(0xff), b[header + 5] = char(0x7f); },
       "runs past its block"},
      {"unknown type", [&](std::string &b) { b[header + 6] = 42; }, "unknown type 42"},
      {"the last record", [&](std::string &b) { b[b.size() - 2] ^= 1; }, "checksum mismatch"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.what);
    Restore();
    std::string bytes = bytes_;
    c.damage(bytes);
    WriteFile(log_, bytes);
    std::unique_ptr<Store> store;
    Status s = Store::Open(dir_, StoreOptions(), &store);
    EXPECT_EQ(s.code(), CAIRN_CORRUPTION) << s.message();
    EXPECT_TRUE(Contains(s.message(), c.expect)) << s.message();
  }
  Restore();
  ExpectCommitsUpTo(kCommits);
}

// A record whose checksum holds but whose batch has a sequence number that cannot be (made here
// by rewriting it and recomputing the record's checksum: a writer's bug, or editing). RocksDB
// would replay it (its Debian build then aborts in MemTable::Add, as a campaign found, even in
// `cairn db recover`): the scan calls it damage, and Recover cuts the log before it.
TEST_F(WalDamageTest, AnIntactBatchWithAnImpossibleSequenceNumberIsDamage) {
  auto set_sequence = [&](std::string &b, int commit, uint64_t sequence) {
    const uint64_t header = batches_[commit - 1];
    const size_t len = uint8_t(b[header + 4]) | (size_t(uint8_t(b[header + 5])) << 8);
    PutLe64(b.data() + header + 7, sequence);
    const uint32_t crc = Crc32c(b.data() + header + 6, 1 + len);
    PutLe32(b.data() + header, ((crc >> 15) | (crc << 17)) + 0xa282ead8u);
  };
  auto sequence_of = [&](int commit) { return GetLe64(bytes_.data() + batches_[commit - 1] + 7); };
  struct Case {
    const char *what;
    int commit;         // whose sequence number is rewritten
    uint64_t sequence;  // to this
    int damaged;        // the first commit the scan calls damaged
    const char *expect;
  } cases[] = {
      {"a page commit's number goes back", 10, 1, 10, "or later was due"},
      {"a small commit's number goes back", kCommits - 1, sequence_of(2), kCommits - 1,
       "or later was due"},
      {"beyond RocksDB's largest", 12, uint64_t{1} << 60, 12, "beyond RocksDB's largest"},
      // The campaign's case: the first batch's number far ahead; the second then goes back.
      {"the first far ahead", 1, sequence_of(1) + (uint64_t{1} << 24), 2, "or later was due"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.what);
    Restore();
    std::string bytes = bytes_;
    set_sequence(bytes, c.commit, c.sequence);
    WriteFile(log_, bytes);
    const auto before = Snapshot(dir_);
    std::unique_ptr<Store> store;
    Status s = Store::Open(dir_, StoreOptions(), &store);
    ASSERT_EQ(s.code(), CAIRN_CORRUPTION) << s.message();
    EXPECT_TRUE(Contains(s.message(), "sequence number")) << s.message();
    EXPECT_TRUE(Contains(s.message(), c.expect)) << s.message();
    EXPECT_TRUE(Contains(s.message(), "cairn db recover")) << s.message();
    EXPECT_TRUE(Snapshot(dir_) == before) << "a refused open changed the store's files";

    RecoveryReport report;
    s = Store::Recover(dir_, StoreOptions(), &report);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_TRUE(report.damaged);
    EXPECT_EQ(report.damage_offset, batches_[c.damaged - 1]);
    EXPECT_EQ(report.commits_lost, static_cast<uint64_t>(kCommits - c.damaged));
    EXPECT_EQ(ReadFile(fs::path(report.kept_copy) / log_.filename()), bytes);
    ExpectCommitsUpTo(c.damaged - 1);
    // The store goes on: a new commit, seen by the next open.
    {
      ASSERT_TRUE(Store::Open(dir_, StoreOptions(), &store).ok());
      DatabaseId id = 0;
      ASSERT_TRUE(store->FindDatabase("db", &id).ok());
      std::unique_ptr<Transaction> t;
      ASSERT_TRUE(store->BeginTransaction(&t).ok());
      ASSERT_TRUE(t->SetRoot(id, 4242).ok());
      ASSERT_TRUE(t->Commit().ok());
      store.reset();
      ASSERT_TRUE(Store::Open(dir_, StoreOptions(), &store).ok());
      DatabaseInfo info;
      ASSERT_TRUE(store->GetDatabaseInfo("db", &info).ok());
      EXPECT_EQ(info.root, 4242u);
    }
  }
}

TEST_F(WalDamageTest, RecoverWithoutDamageChangesNothing) {
  RecoveryReport report;
  ASSERT_TRUE(Store::Recover(dir_, StoreOptions(), &report).ok());
  EXPECT_FALSE(report.damaged);
  EXPECT_TRUE(report.kept_copy.empty());
  for (const auto &e : fs::directory_iterator(dir_))
    EXPECT_FALSE(Contains(e.path().filename().string(), "recovered")) << e.path();
  ExpectCommitsUpTo(kCommits);
}

// A clean close writes what the log holds into a table file (StoreOptions::flush_at_close): a
// log deleted after it loses no commit (it lost every commit since the last flush, silently,
// and `cairn db check` found nothing wrong). Without the flush (a process killed before its
// close), the deleted log's commits are gone: the reason for the flush.
TEST(WalAtClose, ALogDeletedAfterACleanCloseLosesNothing) {
  for (bool flush : {true, false}) {
    TempDir tmp;
    const std::string dir = tmp.Sub("s");
    StoreOptions o;
    o.create_if_missing = true;
    o.flush_at_close = flush;
    {
      std::unique_ptr<Store> store;
      ASSERT_TRUE(Store::Open(dir, o, &store).ok());
      DatabaseId id = 0;
      ASSERT_TRUE(store->CreateDatabase("db", &id).ok());
      std::unique_ptr<Transaction> t;
      ASSERT_TRUE(store->BeginTransaction(&t).ok());
      ASSERT_TRUE(t->SetRoot(id, 77).ok());
      ASSERT_TRUE(t->Commit().ok());
    }
    for (const auto &e : fs::directory_iterator(dir + "/db"))
      if (e.path().extension() == ".log") fs::remove(e.path());
    std::unique_ptr<Store> store;
    ASSERT_TRUE(Store::Open(dir, StoreOptions(), &store).ok());
    DatabaseId id = 0;
    Status found = store->FindDatabase("db", &id);
    if (!flush) {
      EXPECT_FALSE(found.ok()) << "without the flush the log held the commits";
      continue;
    }
    ASSERT_TRUE(found.ok()) << found.message();
    std::unique_ptr<Transaction> t;
    ASSERT_TRUE(store->BeginTransaction(&t).ok());
    uint64_t root = 0;
    ASSERT_TRUE(t->GetRoot(id, &root).ok());
    EXPECT_EQ(root, 77u);
    t->Abort();
  }
}

}  // namespace
}  // namespace cairn::store
