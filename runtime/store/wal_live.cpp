// FirstLiveLog (wal_scan.h): which write-ahead logs RocksDB will replay, asked of RocksDB itself;
// RemoveObsoleteLogs and CountLogs: the logs an open deletes before RocksDB reads them.
#include <rocksdb/db.h>
#include <rocksdb/wal_filter.h>

#include <filesystem>
#include <map>
#include <memory>
#include <system_error>

#include "rocks_options.h"
#include "rocks_status.h"
#include "store_logger.h"
#include "wal_scan.h"

namespace cairn::store {
namespace {

// Told the log number of each column family before any record is read; stops the replay at
// the first record, so the probe costs the MANIFEST and nothing of the logs.
class LogNumberProbe : public rocksdb::WalFilter {
 public:
  bool known = false;
  uint64_t first_live = 0;

  void ColumnFamilyLogNumberMap(const std::map<uint32_t, uint64_t> &cf_lognumber_map,
                                const std::map<std::string, uint32_t> &) override {
    for (const auto &[cf, number] : cf_lognumber_map) {
      first_live = known ? std::min(first_live, number) : number;
      known = true;
    }
  }
  WalProcessingOption LogRecordFound(unsigned long long, const std::string &,
                                     const rocksdb::WriteBatch &, rocksdb::WriteBatch *,
                                     bool *) override {
    return WalProcessingOption::kStopReplay;
  }
  const char *Name() const override { return "cairn.LogNumberProbe"; }
};

}  // namespace

bool FirstLiveLog(const std::string &rocks_dir, uint64_t *first_live) {
  LogNumberProbe probe;
  rocksdb::Options o = MakeRocksOptions(false);
  o.info_log = MakeStoreLogger("");  // a look before the open: nothing written (store_logger.h)
  o.wal_filter = &probe;
  o.max_open_files = 32;  // table files are opened when read, and none is
  rocksdb::DB *raw = nullptr;
  // Its status does not matter: the map comes before the logs are read, and the real open
  // reports whatever else is wrong.
  rocksdb::Status s = rocksdb::DB::OpenForReadOnly(o, rocks_dir, &raw);
  if (s.ok()) {
    raw->Close().PermitUncheckedError();
    delete raw;
  }
  if (!probe.known) return false;
  *first_live = probe.first_live;
  return true;
}

Status RemoveObsoleteLogs(const std::string &rocks_dir, uint64_t first_live, uint64_t *removed) {
  namespace fs = std::filesystem;
  *removed = 0;
  std::error_code ec;
  for (const auto &e : fs::directory_iterator(rocks_dir, ec)) {
    const fs::path &p = e.path();
    const std::string stem = p.stem().string();
    if (p.extension() != ".log" || stem.empty() ||
        stem.find_first_not_of("0123456789") != std::string::npos)
      continue;
    if (std::stoull(stem) >= first_live) continue;
    if (!fs::remove(p, ec)) {
      return Status(CAIRN_IO_ERROR, "cannot delete the obsolete write-ahead log " + p.string() +
                                        ": " + ec.message());
    }
    ++*removed;
  }
  return Status::Ok();
}

Status CountLogs(const std::string &rocks_dir, bool remove_empty, uint64_t *with_records) {
  namespace fs = std::filesystem;
  *with_records = 0;
  std::error_code ec;
  for (const auto &e : fs::directory_iterator(rocks_dir, ec)) {
    const fs::path &p = e.path();
    const std::string stem = p.stem().string();
    if (p.extension() != ".log" || stem.empty() ||
        stem.find_first_not_of("0123456789") != std::string::npos)
      continue;
    std::error_code size_ec;
    const uintmax_t size = e.file_size(size_ec);
    if (size_ec || size > 0) {
      ++*with_records;  // unknown size: counted, so that it is scanned
      continue;
    }
    if (remove_empty && !fs::remove(p, ec)) {
      return Status(CAIRN_IO_ERROR,
                    "cannot delete the empty write-ahead log " + p.string() + ": " + ec.message());
    }
  }
  if (ec) {
    return Status(CAIRN_IO_ERROR,
                  "cannot list the write-ahead logs in " + rocks_dir + ": " + ec.message() +
                      (ec == std::errc::permission_denied ? PermissionAdvice() : std::string()));
  }
  return Status::Ok();
}

}  // namespace cairn::store
