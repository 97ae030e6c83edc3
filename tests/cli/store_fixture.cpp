// cairn-store-fixture: prepares stores for the `cairn db` tests, through the store's API or
// behind its back.
//
//   cairn-store-fixture DIR NAME fill N      commit N pages (page i filled with byte i), one type
//                                            and root 42 into existing database NAME
//   cairn-store-fixture DIR NAME corrupt P   flip one byte of page P's contents, behind the
//                                            store's back (through RocksDB directly)
//   cairn-store-fixture DIR hold             open the store, print "ready PID", hold it until
//                                            standard input closes
#include <rocksdb/db.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "cairn/store.h"
#include "keys.h"
#include "persist/type_layout.h"

using namespace cairn::store;

namespace {

int Fail(const cairn::Status &s) {
  std::fprintf(stderr, "fixture: %s\n", s.ToString().c_str());
  return 1;
}

int Fill(const std::string &dir, const std::string &name, int n) {
  std::unique_ptr<Store> store;
  cairn::Status s = Store::Open(dir, StoreOptions(), &store);
  DatabaseId db = 0;
  if (s.ok()) s = store->FindDatabase(name, &db);
  std::unique_ptr<Transaction> t;
  if (s.ok()) s = store->BeginTransaction(&t);
  static unsigned char page[kPageSize];
  for (int i = 1; s.ok() && i <= n; ++i) {
    PageNo p = 0;
    s = t->AllocatePage(db, &p);
    std::memset(page, i, sizeof page);
    if (s.ok()) s = t->WritePage(db, p, page);
  }
  // One type-table entry in the current layout encoding (a plain type of 8 bytes, no fields),
  // so that what is wrong with the database is its pages and its root, not its type table.
  cairn_type plain{};
  plain.abi = CAIRN_TYPE_ABI;
  plain.name = "Fixture";
  plain.size = 8;
  uint32_t index = 0;
  if (s.ok()) s = t->PutType(db, 0x1234, cairn::persist::EncodeLayout(&plain), &index);
  if (s.ok()) s = t->SetRoot(db, 42);
  if (s.ok()) s = t->Commit();
  return s.ok() ? 0 : Fail(s);
}

int Corrupt(const std::string &dir, const std::string &name, PageNo page) {
  DatabaseId db = 0;
  {
    std::unique_ptr<Store> store;
    cairn::Status s = Store::Open(dir, StoreOptions(), &store);
    if (s.ok()) s = store->FindDatabase(name, &db);
    if (!s.ok()) return Fail(s);
  }
  rocksdb::DB *raw = nullptr;
  rocksdb::Status rs = rocksdb::DB::Open(rocksdb::Options(), dir + "/db", &raw);
  PageKey k(KeyKind::kPage, db, page);
  rocksdb::Slice key(k.view().data(), k.view().size());
  std::string v;
  if (rs.ok()) rs = raw->Get(rocksdb::ReadOptions(), key, &v);
  if (rs.ok()) {
    v[v.size() / 2] ^= 0x5a;
    rs = raw->Put(rocksdb::WriteOptions(), key, v);
  }
  delete raw;
  if (!rs.ok()) {
    std::fprintf(stderr, "fixture: %s\n", rs.ToString().c_str());
    return 1;
  }
  return 0;
}

int Hold(const std::string &dir) {
  std::unique_ptr<Store> store;
  cairn::Status s = Store::Open(dir, StoreOptions(), &store);
  if (!s.ok()) return Fail(s);
  std::printf("ready %d\n", static_cast<int>(getpid()));
  std::fflush(stdout);
  char c;
  while (read(0, &c, 1) > 0) {
  }
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc == 3 && std::strcmp(argv[2], "hold") == 0) return Hold(argv[1]);
  if (argc == 5 && std::strcmp(argv[3], "fill") == 0) {
    return Fill(argv[1], argv[2], std::atoi(argv[4]));
  }
  if (argc == 5 && std::strcmp(argv[3], "corrupt") == 0) {
    return Corrupt(argv[1], argv[2], std::strtoull(argv[4], nullptr, 10));
  }
  std::fprintf(stderr, "usage: %s DIR NAME fill N | DIR NAME corrupt PAGE | DIR hold\n", argv[0]);
  return 2;
}
