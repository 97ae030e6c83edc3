// cairn-store-fixture: prepares stores for the `cairn db` tests, through the store's API or
// behind its back.
//
//   cairn-store-fixture DIR NAME fill N      commit N pages into existing database NAME, in one
//                                            transaction: page i holds one object of type
//                                            "fixture.Page" (a reference to page i - 1's, then
//                                            bytes of value i), the root is the last page's
//   cairn-store-fixture DIR NAME commits N   the same, one commit per page (N records in the
//                                            write-ahead log, left there at the close)
//   cairn-store-fixture DIR NAME corrupt P   flip one byte of page P's contents, behind the
//                                            store's back (through RocksDB directly)
//   cairn-store-fixture DIR NAME misref P    rewrite page P (through the store: its checksum is
//                                            right) so that its reference points 8 bytes into
//                                            page P - 1's object
//   cairn-store-fixture DIR NAME hash P      store an identity hash for page P's object (as a
//                                            program does that took one with `hash` or `str`)
//   cairn-store-fixture DIR NAME root R      set the root of NAME to the raw value R (through the
//                                            store: a malformed reference, if R is one)
//   cairn-store-fixture DIR wal-damage       flip one byte in the middle of the newest log
//   cairn-store-fixture DIR NAME catalogue-damage
//                                            flush the store into table files and flip a byte
//                                            of the block that holds NAME's catalogue entry
//   cairn-store-fixture DIR foreign          make DIR/db a RocksDB database of another program
//   cairn-store-fixture DIR hold             open the store, print "ready PID", hold it until
//                                            standard input closes
#include <rocksdb/db.h>
#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>

#include "cairn/store.h"
#include "cairn/type_builder.hpp"
#include "keys.h"
#include "persist/ref_codec.h"
#include "persist/type_layout.h"

using namespace cairn::store;
namespace fs = std::filesystem;

namespace {

// One object per page: small (not a large object), the rest of the page empty.
struct PageObject {
  void *next;
  unsigned char bytes[3000];
};
constexpr cairn_field kPageFields[] = {
    cairn::Field("next", offsetof(PageObject, next), CAIRN_KIND_REF),
    cairn::Field("bytes", offsetof(PageObject, bytes), CAIRN_KIND_I8, 3000),
};
constexpr cairn_type kPageType = cairn::PlainType<kPageFields>("fixture.Page", sizeof(PageObject));

int Fail(const cairn::Status &s) {
  std::fprintf(stderr, "fixture: %s\n", s.ToString().c_str());
  return 1;
}

uint64_t RefTo(PageNo page, uint32_t offset) {
  return cairn::persist::EncodeRef(cairn::persist::PersistentRef{page, offset, 0});
}

// Page `p`, holding an object of type index `index` that refers to page p - 1's.
void MakePage(unsigned char *page, PageNo p, uint32_t index) {
  std::memset(page, 0, kPageSize);
  uint64_t header = index, next = p > 1 ? RefTo(p - 1, 8) : 0;
  std::memcpy(page, &header, 8);
  std::memcpy(page + 8, &next, 8);
  std::memset(page + 16, int(p), sizeof(PageObject::bytes));
}

int Fill(const std::string &dir, const std::string &name, int n, bool one_commit_each) {
  std::unique_ptr<Store> store;
  StoreOptions o;
  // `commits`: the N records stay in the write-ahead log, as a process killed before its
  // close leaves them (a clean close writes them into a table file: StoreOptions).
  o.flush_at_close = !one_commit_each;
  cairn::Status s = Store::Open(dir, o, &store);
  DatabaseId db = 0;
  if (s.ok()) s = store->FindDatabase(name, &db);
  std::unique_ptr<Transaction> t;
  if (s.ok()) s = store->BeginTransaction(&t);
  uint32_t index = 0;
  if (s.ok())
    s = t->PutType(db, kPageType.fingerprint, cairn::persist::EncodeLayout(&kPageType), &index);
  static unsigned char page[kPageSize];
  for (int i = 1; s.ok() && i <= n; ++i) {
    PageNo p = 0;
    s = t->AllocatePage(db, &p);
    MakePage(page, p, index);
    if (s.ok()) s = t->WritePage(db, p, page);
    if (s.ok() && (one_commit_each || i == n)) s = t->SetRoot(db, RefTo(p, 8));
    if (s.ok() && one_commit_each) {
      s = t->Commit();
      if (s.ok()) s = store->BeginTransaction(&t);
    }
  }
  if (s.ok()) s = t->Commit();
  return s.ok() ? 0 : Fail(s);
}

// Opens the store in dir, runs `change` on database `name` in one transaction and commits it.
int InOneTransaction(const std::string &dir, const std::string &name,
                     const std::function<cairn::Status(Transaction &, DatabaseId)> &change) {
  std::unique_ptr<Store> store;
  cairn::Status s = Store::Open(dir, StoreOptions(), &store);
  DatabaseId db = 0;
  if (s.ok()) s = store->FindDatabase(name, &db);
  std::unique_ptr<Transaction> t;
  if (s.ok()) s = store->BeginTransaction(&t);
  if (s.ok()) s = change(*t, db);
  if (s.ok()) s = t->Commit();
  return s.ok() ? 0 : Fail(s);
}

int SetRawRoot(const std::string &dir, const std::string &name, uint64_t root) {
  return InOneTransaction(dir, name,
                          [&](Transaction &t, DatabaseId db) { return t.SetRoot(db, root); });
}

int Misref(const std::string &dir, const std::string &name, PageNo page) {
  return InOneTransaction(dir, name, [&](Transaction &t, DatabaseId db) {
    static unsigned char buf[kPageSize];
    cairn::Status s = t.ReadPage(db, page, buf);
    uint64_t into = RefTo(page - 1, 16);
    std::memcpy(buf + 8, &into, 8);
    return s.ok() ? t.WritePage(db, page, buf) : s;
  });
}

int PutHash(const std::string &dir, const std::string &name, PageNo page) {
  return InOneTransaction(dir, name, [&](Transaction &t, DatabaseId db) {
    return t.PutIdentityHash(db, page, 8, 0x5eed + page);
  });
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

int WalDamage(const std::string &dir) {
  fs::path newest;
  for (const auto &e : fs::directory_iterator(dir + "/db"))
    if (e.path().extension() == ".log" && (newest.empty() || e.path() > newest)) newest = e.path();
  if (newest.empty()) {
    std::fprintf(stderr, "fixture: no log in %s/db\n", dir.c_str());
    return 1;
  }
  std::fstream f(newest, std::ios::in | std::ios::out | std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (bytes.size() < 1000) {
    std::fprintf(stderr, "fixture: %s holds too little to damage\n", newest.c_str());
    return 1;
  }
  size_t at = bytes.size() / 2;
  char c = static_cast<char>(bytes[at] ^ 0x10);
  f.seekp(static_cast<std::streamoff>(at));
  f.write(&c, 1);
  std::printf("%s\n", newest.c_str());
  return 0;
}

int CatalogueDamage(const std::string &dir, const std::string &name) {
  rocksdb::DB *raw = nullptr;
  rocksdb::Status rs = rocksdb::DB::Open(rocksdb::Options(), dir + "/db", &raw);
  if (rs.ok()) rs = raw->Flush(rocksdb::FlushOptions());
  if (rs.ok()) rs = raw->Close();
  delete raw;
  if (!rs.ok()) {
    std::fprintf(stderr, "fixture: %s\n", rs.ToString().c_str());
    return 1;
  }
  for (const auto &e : fs::directory_iterator(dir + "/db")) {
    if (e.path().extension() != ".sst") continue;
    std::fstream f(e.path(), std::ios::in | std::ios::out | std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const size_t at = bytes.find(name);
    if (at == std::string::npos) continue;
    char c = static_cast<char>(bytes[at] ^ 0x20);
    f.seekp(static_cast<std::streamoff>(at));
    f.write(&c, 1);
    std::printf("%s\n", e.path().c_str());
    return 0;
  }
  std::fprintf(stderr, "fixture: no table file of %s/db holds '%s'\n", dir.c_str(), name.c_str());
  return 1;
}

int Foreign(const std::string &dir) {
  rocksdb::Options o;
  o.create_if_missing = true;
  rocksdb::DB *raw = nullptr;
  fs::create_directories(dir);
  rocksdb::Status rs = rocksdb::DB::Open(o, dir + "/db", &raw);
  if (rs.ok()) rs = raw->Put(rocksdb::WriteOptions(), "their-key", "their-value");
  if (rs.ok()) rs = raw->Close();
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
  if (argc == 3 && std::strcmp(argv[2], "wal-damage") == 0) return WalDamage(argv[1]);
  if (argc == 3 && std::strcmp(argv[2], "foreign") == 0) return Foreign(argv[1]);
  if (argc == 4 && std::strcmp(argv[3], "catalogue-damage") == 0)
    return CatalogueDamage(argv[1], argv[2]);
  if (argc == 5 && std::strcmp(argv[3], "fill") == 0) {
    return Fill(argv[1], argv[2], std::atoi(argv[4]), false);
  }
  if (argc == 5 && std::strcmp(argv[3], "commits") == 0) {
    return Fill(argv[1], argv[2], std::atoi(argv[4]), true);
  }
  if (argc == 5 && std::strcmp(argv[3], "corrupt") == 0) {
    return Corrupt(argv[1], argv[2], std::strtoull(argv[4], nullptr, 10));
  }
  if (argc == 5 && std::strcmp(argv[3], "root") == 0) {
    return SetRawRoot(argv[1], argv[2], std::strtoull(argv[4], nullptr, 10));
  }
  if (argc == 5 && std::strcmp(argv[3], "hash") == 0) {
    return PutHash(argv[1], argv[2], std::strtoull(argv[4], nullptr, 10));
  }
  if (argc == 5 && std::strcmp(argv[3], "misref") == 0) {
    return Misref(argv[1], argv[2], std::strtoull(argv[4], nullptr, 10));
  }
  std::fprintf(
      stderr,
      "usage: %s DIR NAME fill|commits N | DIR NAME corrupt|misref|hash PAGE | DIR NAME root R | "
      "DIR wal-damage | DIR NAME catalogue-damage | DIR foreign | DIR hold\n",
      argv[0]);
  return 2;
}
