// Store::CheckFiles: every table file read whole, its block checksums verified (cairn/store.h).
#include <rocksdb/metadata.h>
#include <rocksdb/sst_file_reader.h>

#include "rocks_options.h"
#include "store_impl.h"

namespace cairn::store {

Status Store::CheckFiles(std::vector<std::string> *problems, uint64_t *files) {
  if (Status u = impl_->Usable(); !u.ok()) return u;
  problems->clear();
  *files = 0;
  std::vector<rocksdb::LiveFileMetaData> live;
  impl_->reader->GetLiveFilesMetaData(&live);
  const rocksdb::Options options = MakeRocksOptions(false);
  for (const rocksdb::LiveFileMetaData &f : live) {
    const std::string path = f.directory + "/" + f.relative_filename;
    rocksdb::SstFileReader reader(options);
    rocksdb::Status s = reader.Open(path);
    if (s.ok()) s = reader.VerifyChecksum();
    ++*files;
    if (s.ok()) continue;
    std::string detail = s.getState() != nullptr ? s.getState() : s.ToString();
    problems->push_back("table file " + path + " is damaged: " + detail);
  }
  return Status::Ok();
}

}  // namespace cairn::store
