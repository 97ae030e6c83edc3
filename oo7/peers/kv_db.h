// The key-value peer's store: the conventional way to keep objects in RocksDB. Every object is a
// record under its own key (kv_codec.h), a reference is the id of the object it names, and every
// Get is a RocksDB lookup (block cache, else the files) and a decode into a fresh struct. Writes
// go into a WriteBatchWithIndex (reads see them) that Commit writes in one synced RocksDB write,
// as Cairn's store commits. See store_interface.md for the members.
//
// Keys (tag, then big-endian numbers): 'A' part id -> AtomicPart (also the part-by-id index and
// the extent of parts); 'C' connection id -> Connection; 'P' composite id -> CompositePart (also
// its index); 'D' document id -> Document (also the doc-by-id index); 'T' title -> document id;
// 'S' assembly id -> Assembly; 'B' base assembly id -> "" (its index); 'M' module id -> Module
// (the module extent); 'n' name -> module id; 'N' module id -> Manual; 'd' (date, part id) -> ""
// (the date index); 'z' -> the instance's configuration and next connection id.
#ifndef CAIRN_OO7_PEERS_KV_DB_H
#define CAIRN_OO7_PEERS_KV_DB_H

#include <rocksdb/db.h>
#include <rocksdb/statistics.h>
#include <rocksdb/utilities/write_batch_with_index.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "index_sizes.h"
#include "kv_codec.h"
#include "schema.h"

namespace oo7 {

// What the key-value database records about the instance it holds.
struct KvMeta {
  std::string config;  // configuration name
  int64_t conns = 0;   // connections per part
  int64_t seed = 0;    // generator seed
  int64_t next_conn = 0;
};

// RocksDB counters since the database was opened.
struct KvCounters {
  uint64_t blocks_read = 0;  // block cache misses: blocks read from the files
  uint64_t wal_bytes = 0;    // bytes written to the write-ahead log
};

class KvDb {
 public:
  using Refs = IdRefs;
  using Part = AtomicPart<Refs>;
  using Conn = Connection<Refs>;
  using Comp = CompositePart<Refs>;
  using Doc = Document<Refs>;
  using Man = Manual<Refs>;
  using Assm = Assembly<Refs>;
  using Mod = Module<Refs>;

  // Opens the database in dir; with create, removes whatever is there and makes an empty one.
  // nullptr and *error on failure.
  static std::unique_ptr<KvDb> Open(const std::string &dir, bool create, std::string *error);
  ~KvDb();

  Oid<Part> NewPart(int64_t id) { return {id}; }
  Oid<Conn> NewConn() { return {++meta_.next_conn}; }
  Oid<Comp> NewComp(int64_t id) { return {id}; }
  Oid<Doc> NewDoc(int64_t id) { return {id}; }
  Oid<Assm> NewAssembly(int64_t id) { return {id}; }
  Oid<Mod> NewModule(int64_t id) { return {id}; }
  Oid<Man> NewManual(int64_t id) { return {id}; }

  template <class T>
  void Put(Oid<T> ref, const T &object) {
    Encode(object, &buffer_);
    PutKey(KeyOf(ref), buffer_);
  }
  template <class T>
  T Get(Oid<T> ref) {
    T object;
    std::string key = KeyOf(ref);
    if (!Read(key, &value_)) Missing(key);
    if (!Decode(value_, &object)) Corrupt(key);
    return object;
  }
  template <class T, class F>
  void Modify(Oid<T> ref, const T &current, F f) {
    T copy = current;
    f(copy);
    Put(ref, copy);
  }
  template <class T, class F>
  void Update(Oid<T> ref, F f) {
    T object = Get(ref);
    f(object);
    Put(ref, object);
  }
  template <class T>
  void Remove(Oid<T> ref) {
    DeleteKey(KeyOf(ref));
  }

  void IndexPart(Oid<Part>, int64_t id, int64_t date) { PutKey(KeyOf2('d', date, id), ""); }
  void UnindexPart(Oid<Part>, int64_t id, int64_t date) { DeleteKey(KeyOf2('d', date, id)); }
  void MoveDate(Oid<Part>, int64_t id, int64_t old_date, int64_t new_date) {
    DeleteKey(KeyOf2('d', old_date, id));
    PutKey(KeyOf2('d', new_date, id), "");
  }
  Oid<Part> PartById(int64_t id) { return Exists(KeyOf('A', id)) ? Oid<Part>{id} : Oid<Part>{}; }
  template <class F>
  void ForEachPartByDate(int64_t lo, F f) {
    Scan(KeyOf('d', lo), 'd', [&](const rocksdb::Slice &key, const rocksdb::Slice &) {
      f(Oid<Part>{KeyNumber(std::string_view(key.data(), key.size()), 9)});
    });
  }
  template <class F>
  void ForEachPart(F f) {
    Part part;
    Scan(std::string(1, 'A'), 'A', [&](const rocksdb::Slice &key, const rocksdb::Slice &value) {
      std::string_view k(key.data(), key.size());
      if (!Decode(std::string_view(value.data(), value.size()), &part)) Corrupt(std::string(k));
      f(Oid<Part>{KeyNumber(k, 1)}, part);
    });
  }
  int64_t MaxPartId() { return LastNumber('A'); }

  void IndexComp(Oid<Comp>, int64_t) {}  // the record's key is the index
  void UnindexComp(int64_t) {}
  Oid<Comp> CompById(int64_t id) { return Exists(KeyOf('P', id)) ? Oid<Comp>{id} : Oid<Comp>{}; }
  template <class F>
  void ForEachCompFrom(int64_t lo, F f) {
    std::vector<int64_t> ids;
    Scan(KeyOf('P', lo), 'P', [&](const rocksdb::Slice &key, const rocksdb::Slice &) {
      ids.push_back(KeyNumber(std::string_view(key.data(), key.size()), 1));
    });
    for (int64_t id : ids) f(Oid<Comp>{id});
  }
  int64_t MaxCompId() { return LastNumber('P'); }

  void IndexDoc(Oid<Doc> d, const std::string &title, int64_t) {
    std::string v;
    v.append(reinterpret_cast<const char *>(&d.v), sizeof d.v);
    PutKey(TitleKey(title), v);
  }
  void UnindexDoc(const std::string &title, int64_t) { DeleteKey(TitleKey(title)); }
  Oid<Doc> DocByTitle(const std::string &title);
  Oid<Doc> DocById(int64_t id) { return Exists(KeyOf('D', id)) ? Oid<Doc>{id} : Oid<Doc>{}; }

  void IndexBase(Oid<Assm>, int64_t id) { PutKey(KeyOf('B', id), ""); }

  void AddModule(Oid<Mod> m, const std::string &name);
  std::vector<Oid<Mod>> Modules();

  IndexSizes Sizes();
  // Writes the batch (and the meta record) in one synced write; nothing if nothing changed.
  void Commit();

  // Records (puts and deletes) waiting for Commit.
  uint64_t PendingRecords() { return batch_.GetWriteBatch()->Count(); }

  KvMeta &meta() { return meta_; }
  KvCounters Counters() const;

 private:
  KvDb() = default;
  bool Read(const std::string &key, std::string *value);
  bool Exists(const std::string &key) { return Read(key, &value_); }
  void PutKey(const std::string &key, const std::string &value);
  void DeleteKey(const std::string &key);
  int64_t LastNumber(char tag);
  int64_t CountPrefix(char tag);
  static std::string TitleKey(const std::string &title) { return "T" + title; }
  template <class F>
  void Scan(const std::string &from, char tag, F f) {
    std::unique_ptr<rocksdb::Iterator> it(
        batch_.NewIteratorWithBase(db_->NewIterator(rocksdb::ReadOptions())));
    for (it->Seek(from); it->Valid() && it->key().size() > 0 && it->key()[0] == tag; it->Next())
      f(it->key(), it->value());
    CheckIterator(it.get());
  }
  void CheckIterator(rocksdb::Iterator *it);
  [[noreturn]] static void Missing(const std::string &key);
  [[noreturn]] static void Corrupt(const std::string &key);

  std::unique_ptr<rocksdb::DB> db_;
  std::shared_ptr<rocksdb::Statistics> stats_;
  rocksdb::WriteBatchWithIndex batch_{rocksdb::BytewiseComparator(), 0, true};
  KvMeta meta_;
  std::string buffer_;
  std::string value_;
};

}  // namespace oo7

#endif  // CAIRN_OO7_PEERS_KV_DB_H
