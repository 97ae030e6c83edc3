// PrefixScan: an iterator over the keys that start with one prefix, bounded above.
//
// A RocksDB iterator steps through every deleted key (a tombstone, with the older values under it
// in the older table files) on its way to the next live one. A scan that stops only at the first
// key past its prefix therefore reads all the deleted keys that follow the prefix's range: after
// `cairn db gc` freed 61,000 pages, every open of the store (its catalogue's 'N' keys come just
// before the 'P' keys) stepped through all of them (campaign P: 1.4 s an open for 170,000).
// With iterate_upper_bound at the prefix's end, the scan stops there.
//
// Invariant: Valid() is true only on a key that starts with the prefix (also where RocksDB's
// iterator over a transaction's batch and the store would not keep the bound).
#ifndef CAIRN_STORE_PREFIX_SCAN_H
#define CAIRN_STORE_PREFIX_SCAN_H

#include <rocksdb/iterator.h>
#include <rocksdb/options.h>

#include <memory>
#include <string>
#include <utility>

namespace cairn::store {

// The least key greater than every key that starts with `prefix` (its last byte incremented,
// 0xff bytes dropped first); "" when there is none (a prefix of 0xff bytes only).
inline std::string PrefixEnd(std::string prefix) {
  while (!prefix.empty() && static_cast<unsigned char>(prefix.back()) == 0xff) prefix.pop_back();
  if (!prefix.empty())
    prefix.back() = static_cast<char>(static_cast<unsigned char>(prefix.back()) + 1);
  return prefix;
}

class PrefixScan {
 public:
  // `make(read_options)` returns the iterator (of a store or of a transaction), given `base`
  // with the bound set. Seeks to the prefix.
  template <class Make>
  PrefixScan(std::string prefix, const rocksdb::ReadOptions &base, Make &&make)
      : prefix_(std::move(prefix)), end_(PrefixEnd(prefix_)), upper_(end_), options_(base) {
    if (!end_.empty()) options_.iterate_upper_bound = &upper_;
    it_.reset(make(options_));
    it_->Seek(prefix_);
  }
  PrefixScan(const PrefixScan &) = delete;
  PrefixScan &operator=(const PrefixScan &) = delete;

  bool Valid() const { return it_->Valid() && it_->key().starts_with(prefix_); }
  void Next() { it_->Next(); }
  void Seek(const rocksdb::Slice &key) { it_->Seek(key); }  // key must start with the prefix
  rocksdb::Slice key() const { return it_->key(); }
  rocksdb::Slice value() const { return it_->value(); }
  rocksdb::Status status() const { return it_->status(); }

 private:
  std::string prefix_, end_;
  rocksdb::Slice upper_;  // points into end_
  rocksdb::ReadOptions options_;
  std::unique_ptr<rocksdb::Iterator> it_;
};

}  // namespace cairn::store

#endif  // CAIRN_STORE_PREFIX_SCAN_H
