// A store whose files are damaged: the errors that say what to do, and `cairn db recover`
// (Store::Recover), which accepts the loss of the commits after damage in the write-ahead log.
#include <rocksdb/write_batch.h>

#include <cstring>
#include <ctime>
#include <filesystem>
#include <map>
#include <regex>
#include <system_error>

#include "catalogue.h"
#include "encoding.h"
#include "keys.h"
#include "rocks_status.h"
#include "store_files.h"
#include "store_impl.h"

namespace cairn::store {
namespace fs = std::filesystem;

namespace {

std::string Plural(uint64_t n, const char *one, const char *many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// Which databases the lost commits wrote, from their write batches.
class LossCounter : public rocksdb::WriteBatch::Handler {
 public:
  std::map<uint64_t, RecoveryReport::Database> by_id;

  void Put(const rocksdb::Slice &key, const rocksdb::Slice &value) override {
    if (key.empty()) return;
    switch (static_cast<KeyKind>(key[0])) {
      case KeyKind::kPage:
        if (key.size() == 17) by_id[GetBe64(key.data() + 1)].page_writes++;
        break;
      case KeyKind::kDatabase:
        if (key.size() == 9) {
          RecoveryReport::Database &d = by_id[GetBe64(key.data() + 1)];
          d.catalogue = true;
          if (DatabaseRecord r; DecodeDatabaseRecord(View(value), &r, &problem_)) d.name = r.name;
        }
        break;
      case KeyKind::kName:
        if (uint64_t id = 0; DecodeNameEntry(View(value), &id, &problem_)) {
          by_id[id].created = true;
          by_id[id].name = std::string(key.data() + 1, key.size() - 1);
        }
        break;
      case KeyKind::kType:
      case KeyKind::kTypeIndex:
        if (key.size() >= 9) by_id[GetBe64(key.data() + 1)].catalogue = true;
        break;
      default:
        break;
    }
  }
  // A page delta (store format 2 and later) is a page written.
  void Merge(const rocksdb::Slice &key, const rocksdb::Slice &) override {
    if (key.size() == 17 && static_cast<KeyKind>(key[0]) == KeyKind::kPage)
      by_id[GetBe64(key.data() + 1)].page_writes++;
  }
  void Delete(const rocksdb::Slice &key) override {
    if (key.size() == 17 && static_cast<KeyKind>(key[0]) == KeyKind::kPage)
      by_id[GetBe64(key.data() + 1)].pages_freed++;
  }

  // Transaction markers (a write-committed transaction's batch starts with a no-op): nothing to
  // count, and RocksDB asserts that a handler accepts them.
  rocksdb::Status MarkNoop(bool) override { return rocksdb::Status::OK(); }
  rocksdb::Status MarkBeginPrepare(bool) override { return rocksdb::Status::OK(); }
  rocksdb::Status MarkEndPrepare(const rocksdb::Slice &) override { return rocksdb::Status::OK(); }
  rocksdb::Status MarkCommit(const rocksdb::Slice &) override { return rocksdb::Status::OK(); }
  rocksdb::Status MarkRollback(const rocksdb::Slice &) override { return rocksdb::Status::OK(); }

 private:
  static std::string_view View(const rocksdb::Slice &s) { return {s.data(), s.size()}; }
  std::string problem_;  // ignored: a value that does not decode names nothing
};

}  // namespace

std::string DamageAdvice(const std::string &dir, std::string_view database) {
  return "`cairn db check --store " + dir + " " + std::string(database) +
         "` lists all the damage it can read; restore the database from a copy";
}

Status WalDamageError(const std::string &dir, const WalScan &scan) {
  const WalFile *f = scan.FirstDamaged();
  uint64_t lost = scan.Lost().size();
  return Status(
      CAIRN_CORRUPTION,
      "store " + dir + " cannot be opened: its write-ahead log " + f->path +
          " is damaged at byte " + std::to_string(f->end_offset) + " (" + f->damage +
          "): the commits in its " +
          Plural(f->resumed_offset - f->end_offset, "damaged byte", "damaged bytes") +
          " (one or more) and " + Plural(lost, "intact commit", "intact commits") +
          " after them cannot be replayed. Nothing was changed. To open the store as of the last "
          "commit before the damage, run `cairn db recover --store " +
          dir +
          "`: it keeps a copy of the log and reports what was lost. Otherwise restore the "
          "store from a copy");
}

// Two of RocksDB's ways of saying that a table file its MANIFEST lists is damaged, said plainly
// (campaign P): a missing one is named by the ".ldb" name RocksDB tried last, and one cut short
// by the size the MANIFEST records, run together with its path. "" for anything else.
std::string PlainTableDamage(const std::string &detail) {
  static const std::regex missing(R"(([^ :]*/)?([0-9]+)\.ldb: No such file or directory)");
  static const std::regex cut(R"(file is too short \(([0-9]+) bytes\) to be an sstable(\S+))");
  std::smatch m;
  std::error_code ec;
  if (std::regex_search(detail, m, missing)) {
    const std::string sst = m[1].str() + m[2].str() + ".sst";
    if (fs::exists(sst, ec)) return "";
    return "table file " + sst + ", which its MANIFEST lists, is missing";
  }
  if (std::regex_search(detail, m, cut)) {
    const uintmax_t size = fs::file_size(m[2].str(), ec);
    return "table file " + m[2].str() + " is " +
           (ec ? std::string("unreadable") : std::to_string(size) + " bytes") +
           ", shorter than the " + m[1].str() + " bytes its MANIFEST records";
  }
  return "";
}

Status Store::Impl::OpenError(const rocksdb::Status &s) const {
  if (s.IsNoSpace() || (s.getState() && std::strstr(s.getState(), "No space left"))) {
    // A writing open first writes what the logs hold into a table file (campaign P: after a
    // writer filled the disk, freeing a little let nothing open, db drop included).
    std::error_code ec;
    uintmax_t logs = 0;
    for (const auto &e : fs::directory_iterator(fs::path(dir) / kRocksSubdir, ec))
      if (e.path().extension() == ".log") logs += e.file_size(ec);
    return Status(CAIRN_IO_ERROR,
                  "opening store " + dir + ": " + (s.getState() ? s.getState() : s.ToString()) +
                      " (the disk is full: a writing open first writes the store's write-ahead "
                      "logs, " +
                      std::to_string((logs + (1 << 20) - 1) >> 20) +
                      " MiB, into a table file, so free about that much space; meanwhile "
                      "the store can be read: CAIRN_STORE_READ_ONLY=1, `cairn db list`, "
                      "`info`, `check`)");
  }
  if (!s.IsCorruption()) return FromRocks(s, "opening store " + dir);
  std::string detail = s.getState() != nullptr ? s.getState() : s.ToString();
  std::string plain = PlainTableDamage(detail);
  return Status(CAIRN_CORRUPTION,
                "store " + dir + " cannot be opened: its files are damaged" +
                    (plain.empty() ? "" : ": " + plain) + " (RocksDB says: " + detail +
                    "). Nothing was changed. Restore the store from a copy (the damage is not "
                    "in the write-ahead log, so `cairn db recover` cannot help)");
}

Status Store::Impl::KeepLogs(const WalScan &scan, RecoveryReport *report) {
  const WalFile *damaged = scan.FirstDamaged();
  report->damaged = true;
  report->log_file = damaged->path;
  report->damage_offset = damaged->end_offset;
  report->damage = damaged->damage;
  report->commits_lost = scan.Lost().size();
  report->damaged_bytes = damaged->resumed_offset - damaged->end_offset;
  bool after = false;
  for (const WalFile &f : scan.files) {
    if (&f == damaged) {
      after = true;
      report->bytes_lost += f.size - f.batch_offset;  // CutAtDamage cuts where its batch starts
    } else if (after) {
      report->bytes_lost += f.size;
    }
  }
  char stamp[32];
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  std::error_code ec;
  fs::path copy = fs::path(dir) / (std::string("recovered-") + stamp);
  for (int n = 2; fs::exists(copy, ec); ++n)
    copy = fs::path(dir) / (std::string("recovered-") + stamp + "-" + std::to_string(n));
  if (!fs::create_directories(copy, ec)) {
    return Status(CAIRN_IO_ERROR, "cannot create " + copy.string() +
                                      " for a copy of the damaged log: " + ec.message() +
                                      "; nothing was changed");
  }
  for (const WalFile &f : scan.files) {
    fs::copy_file(f.path, copy / fs::path(f.path).filename(), ec);
    if (ec) {
      return Status(CAIRN_IO_ERROR, "cannot copy " + f.path + " to " + copy.string() + ": " +
                                        ec.message() + "; nothing was changed");
    }
    if (Status st = SyncToDisk((copy / fs::path(f.path).filename()).string()); !st.ok())
      return Status(st.code(), st.message() + "; nothing was changed");
  }
  // The copy is on disk, files and names, before anything is cut.
  for (const fs::path &d : {copy, fs::path(dir)}) {
    if (Status st = SyncToDisk(d.string()); !st.ok())
      return Status(st.code(), st.message() + "; nothing was changed");
  }
  report->kept_copy = copy.string();
  return Status::Ok();
}

void Store::Impl::DescribeLoss(const WalScan &scan, RecoveryReport *report) {
  LossCounter counter;
  for (const WalBatch *b : scan.Lost()) {
    rocksdb::WriteBatch batch(b->rep);
    batch.Iterate(&counter).PermitUncheckedError();
  }
  std::lock_guard<std::mutex> g(mu);
  for (auto &[id, d] : counter.by_id) {
    if (auto e = by_id.find(id); e != by_id.end()) {
      d.name = e->second.name;
      d.created = false;  // it exists: its creation was not lost
    }
    if (d.name.empty()) d.name = "#" + std::to_string(id);
    report->databases.push_back(d);
  }
}

}  // namespace cairn::store
