// RocksDB's statuses become Cairn's (rocks_status.h): the table's rows that say what to do.
#include "rocks_status.h"

#include <gtest/gtest.h>

namespace cairn::store {
namespace {

// Out of file descriptors is the process's limit, not damage nor a bug of Cairn's: said so,
// however RocksDB wraps it (an open's options check makes it "Invalid argument", which was
// reported as "unexpected RocksDB status ... (a bug in Cairn: please report it)").
TEST(RocksStatus, TooManyOpenFilesSaysToRaiseTheLimit) {
  const rocksdb::Status wrapped = rocksdb::Status::InvalidArgument(
      "Found options incompatible with filesystem",
      "IO error: While open a file for random read: s/db/CURRENT: Too many open files");
  const rocksdb::Status plain = rocksdb::Status::IOError(
      "While open a file for appending: s/db/000012.log", "Too many open files");
  for (const rocksdb::Status &r : {wrapped, plain}) {
    Status s = FromRocks(r, "opening store s");
    EXPECT_EQ(s.code(), CAIRN_IO_ERROR) << s.message();
    EXPECT_EQ(s.message().rfind("opening store s: ", 0), 0u) << s.message();
    EXPECT_NE(s.message().find("raise its limit, as with `ulimit -n 4096`"), std::string::npos)
        << s.message();
    EXPECT_EQ(s.message().find("a bug in Cairn"), std::string::npos) << s.message();
  }
}

// The system's limit (ENFILE) is not the process's: ulimit -n would not help.
TEST(RocksStatus, TooManyOpenFilesInSystemSaysItIsTheSystemsLimit) {
  Status s = FromRocks(rocksdb::Status::IOError("While open a file for appending: s/db/000012.log",
                                                "Too many open files in system"),
                       "opening store s");
  EXPECT_EQ(s.code(), CAIRN_IO_ERROR);
  EXPECT_NE(s.message().find("the system has as many files open as it allows"), std::string::npos)
      << s.message();
  EXPECT_EQ(s.message().find("ulimit"), std::string::npos) << s.message();
}

TEST(RocksStatus, AnUnknownStatusIsReportedAsABug) {
  Status s = FromRocks(rocksdb::Status::InvalidArgument("something else"), "opening store s");
  EXPECT_EQ(s.code(), CAIRN_INTERNAL);
  EXPECT_NE(s.message().find("a bug in Cairn: please report it"), std::string::npos);
}

}  // namespace
}  // namespace cairn::store
