// The key-value peer's store (kv_db.h).
#include "kv_db.h"

#include <rocksdb/cache.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/table.h>

#include <cstring>
#include <filesystem>

namespace oo7 {
namespace {

constexpr char kMetaKey[] = "z";

void EncodeMeta(const KvMeta &m, std::string *out) {
  out->clear();
  for (int64_t v : {m.conns, m.seed, m.next_conn})
    out->append(reinterpret_cast<const char *>(&v), 8);
  out->append(m.config);
}

bool DecodeMeta(const std::string &in, KvMeta *m) {
  if (in.size() < 24) return false;
  std::memcpy(&m->conns, in.data(), 8);
  std::memcpy(&m->seed, in.data() + 8, 8);
  std::memcpy(&m->next_conn, in.data() + 16, 8);
  m->config = in.substr(24);
  return true;
}

}  // namespace

std::unique_ptr<KvDb> KvDb::Open(const std::string &dir, bool create, std::string *error) {
  std::unique_ptr<KvDb> kv(new KvDb());
  if (create) {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  // The options of Cairn's page store (runtime/store/rocks_options.cpp), with what a user
  // tuning point lookups would add: a block cache large enough to hold the small and medium
  // databases once read, and Bloom filters.
  rocksdb::Options o;
  o.create_if_missing = create;
  o.max_background_jobs = 2;
  o.keep_log_file_num = 4;
  o.max_log_file_size = 1 << 20;
  o.paranoid_checks = true;
  o.wal_recovery_mode = rocksdb::WALRecoveryMode::kPointInTimeRecovery;
  rocksdb::BlockBasedTableOptions table;
  table.block_cache = rocksdb::NewLRUCache(size_t{256} << 20);
  table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  kv->stats_ = rocksdb::CreateDBStatistics();
  o.statistics = kv->stats_;
  rocksdb::DB *raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(o, dir, &raw);
  if (!s.ok()) {
    *error = "cannot open the key-value database " + dir + ": " + s.ToString();
    return nullptr;
  }
  kv->db_.reset(raw);
  std::string meta;
  s = kv->db_->Get(rocksdb::ReadOptions(), kMetaKey, &meta);
  if (s.ok()) {
    if (!DecodeMeta(meta, &kv->meta_)) {
      *error = "the key-value database " + dir + " has a damaged meta record";
      return nullptr;
    }
  } else if (!s.IsNotFound()) {
    *error = "cannot read " + dir + ": " + s.ToString();
    return nullptr;
  } else if (!create) {
    *error = dir + " holds no OO7 instance (make one with 'gen')";
    return nullptr;
  }
  return kv;
}

KvDb::~KvDb() {
  if (db_) db_->Close();
}

bool KvDb::Read(const std::string &key, std::string *value) {
  // With nothing pending (every read-only operation) a plain Get, else through the batch.
  rocksdb::Status s = batch_.GetWriteBatch()->Count() == 0
                          ? db_->Get(rocksdb::ReadOptions(), key, value)
                          : batch_.GetFromBatchAndDB(db_.get(), rocksdb::ReadOptions(), key, value);
  if (s.IsNotFound()) return false;
  if (!s.ok()) {
    std::fprintf(stderr, "kv: reading a record failed: %s\n", s.ToString().c_str());
    std::exit(1);
  }
  return true;
}

void KvDb::PutKey(const std::string &key, const std::string &value) {
  rocksdb::Status s = batch_.Put(key, value);
  if (!s.ok()) {
    std::fprintf(stderr, "kv: a write failed: %s\n", s.ToString().c_str());
    std::exit(1);
  }
}

void KvDb::DeleteKey(const std::string &key) {
  rocksdb::Status s = batch_.Delete(key);
  if (!s.ok()) {
    std::fprintf(stderr, "kv: a delete failed: %s\n", s.ToString().c_str());
    std::exit(1);
  }
}

void KvDb::CheckIterator(rocksdb::Iterator *it) {
  if (!it->status().ok()) {
    std::fprintf(stderr, "kv: a scan failed: %s\n", it->status().ToString().c_str());
    std::exit(1);
  }
}

void KvDb::Missing(const std::string &key) {
  std::fprintf(stderr, "kv: no record under key tag '%c' id %lld: the database is damaged\n",
               key[0], static_cast<long long>(KeyNumber(key, 1)));
  std::exit(1);
}

void KvDb::Corrupt(const std::string &key) {
  std::fprintf(stderr, "kv: the record under key tag '%c' id %lld cannot be decoded\n", key[0],
               static_cast<long long>(KeyNumber(key, 1)));
  std::exit(1);
}

int64_t KvDb::LastNumber(char tag) {
  std::unique_ptr<rocksdb::Iterator> it(
      batch_.NewIteratorWithBase(db_->NewIterator(rocksdb::ReadOptions())));
  it->SeekForPrev(KeyOf(tag, INT64_MAX));
  int64_t n = 0;
  if (it->Valid() && it->key().size() == 9 && it->key()[0] == tag)
    n = KeyNumber(std::string_view(it->key().data(), it->key().size()), 1);
  CheckIterator(it.get());
  return n;
}

int64_t KvDb::CountPrefix(char tag) {
  int64_t n = 0;
  Scan(std::string(1, tag), tag, [&](const rocksdb::Slice &, const rocksdb::Slice &) { n++; });
  return n;
}

Oid<Document<IdRefs>> KvDb::DocByTitle(const std::string &title) {
  if (!Read(TitleKey(title), &value_) || value_.size() != 8) return {};
  Oid<Doc> d;
  std::memcpy(&d.v, value_.data(), 8);
  return d;
}

void KvDb::AddModule(Oid<Mod> m, const std::string &name) {
  std::string v;
  v.append(reinterpret_cast<const char *>(&m.v), sizeof m.v);
  PutKey("n" + name, v);
}

std::vector<Oid<Module<IdRefs>>> KvDb::Modules() {
  std::vector<Oid<Mod>> out;
  Scan(std::string(1, 'M'), 'M', [&](const rocksdb::Slice &key, const rocksdb::Slice &) {
    out.push_back(Oid<Mod>{KeyNumber(std::string_view(key.data(), key.size()), 1)});
  });
  return out;
}

IndexSizes KvDb::Sizes() {
  IndexSizes s;
  s.part_by_id = CountPrefix('A');
  s.part_by_date = CountPrefix('d');
  s.comp_by_id = CountPrefix('P');
  s.doc_by_title = CountPrefix('T');
  s.doc_by_id = CountPrefix('D');
  s.base_by_id = CountPrefix('B');
  s.modules = CountPrefix('M');
  return s;
}

void KvDb::Commit() {
  if (batch_.GetWriteBatch()->Count() == 0) return;  // nothing changed: nothing to write
  std::string meta;
  EncodeMeta(meta_, &meta);
  PutKey(kMetaKey, meta);
  rocksdb::WriteOptions w;
  w.sync = true;
  rocksdb::Status s = db_->Write(w, batch_.GetWriteBatch());
  if (!s.ok()) {
    std::fprintf(stderr, "kv: commit failed: %s\n", s.ToString().c_str());
    std::exit(1);
  }
  batch_.Clear();
}

KvCounters KvDb::Counters() const {
  KvCounters c;
  c.blocks_read = stats_->getTickerCount(rocksdb::BLOCK_CACHE_MISS);
  c.wal_bytes = stats_->getTickerCount(rocksdb::WAL_FILE_BYTES);
  return c;
}

}  // namespace oo7
