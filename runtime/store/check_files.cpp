// Store::CheckFiles: every table file read whole, its block checksums verified (cairn/store.h).
#include <rocksdb/metadata.h>
#include <rocksdb/sst_file_reader.h>

#include <algorithm>
#include <filesystem>

#include "rocks_options.h"
#include "store_files.h"
#include "store_impl.h"

namespace cairn::store {

namespace {

// Reads the table file at `path` whole; a problem naming it if a block checksum fails.
void CheckTableFile(const std::string &path, std::vector<std::string> *problems) {
  rocksdb::SstFileReader reader(MakeRocksOptions(false));
  rocksdb::Status s = reader.Open(path);
  if (s.ok()) s = reader.VerifyChecksum();
  if (s.ok()) return;
  std::string detail = s.getState() != nullptr ? s.getState() : s.ToString();
  problems->push_back("table file " + path + " is damaged: " + detail);
}

}  // namespace

Status Store::CheckFiles(std::vector<std::string> *problems, uint64_t *files) {
  if (Status u = impl_->Usable(); !u.ok()) return u;
  problems->clear();
  *files = 0;
  std::vector<rocksdb::LiveFileMetaData> live;
  impl_->reader->GetLiveFilesMetaData(&live);
  for (const rocksdb::LiveFileMetaData &f : live) {
    CheckTableFile(f.directory + "/" + f.relative_filename, problems);
    ++*files;
  }
  return Status::Ok();
}

Status Store::CheckFilesAt(const std::string &dir, std::vector<std::string> *problems,
                           uint64_t *files) {
  problems->clear();
  *files = 0;
  std::error_code ec;
  std::vector<std::string> paths;
  for (const auto &e : std::filesystem::directory_iterator(dir + "/" + kRocksSubdir, ec))
    if (e.path().extension() == ".sst") paths.push_back(e.path().string());
  if (ec)
    return Status(CAIRN_IO_ERROR,
                  "cannot list the table files of store " + dir + ": " + ec.message());
  std::sort(paths.begin(), paths.end());
  for (const std::string &path : paths) {
    CheckTableFile(path, problems);
    ++*files;
  }
  return Status::Ok();
}

}  // namespace cairn::store
