// The RocksDB keys of a store: one byte naming the kind of entry, then its identity, numbers
// big-endian. All of a store is in RocksDB's default column family. docs/store-format.md, "Keys".
#ifndef CAIRN_STORE_KEYS_H
#define CAIRN_STORE_KEYS_H

#include <cstdint>
#include <string>
#include <string_view>

namespace cairn::store {

enum class KeyKind : char {
  kStoreHeader = 'S',   // "S": magic, format version, next database id
  kName = 'N',          // 'N' name: the database id
  kDatabase = 'D',      // 'D' id: the database record (root, page count, ...)
  kPage = 'P',          // 'P' id page: a page
  kFree = 'F',          // 'F' id page: page is free (empty value)
  kType = 'T',          // 'T' id fingerprint: type index and layout
  kTypeIndex = 'I',     // 'I' id index: fingerprint
  kIdentityHash = 'H',  // 'H' id page offset: an object's identity hash
  kDropped = 'X',       // 'X' id: dropped while a process had it open (Store::DetachDatabase):
                        // its keys go when that process closes the store, or at the next open
};

// A page or free-list key, built without allocating: 1 + 8 + 8 bytes.
struct PageKey {
  char bytes[17];
  PageKey(KeyKind kind, uint64_t db, uint64_t page);
  std::string_view view() const { return std::string_view(bytes, sizeof bytes); }
};

std::string StoreHeaderKey();
std::string NameKey(std::string_view name);
std::string DatabaseKey(uint64_t db);
std::string TypeKey(uint64_t db, uint64_t fingerprint);
std::string TypeIndexKey(uint64_t db, uint32_t index);
// 'H' id page offset (1 + 8 + 8 + 4 bytes), and the prefix of a page's 'H' keys (17 bytes).
std::string IdentityHashKey(uint64_t db, uint64_t page, uint32_t offset);
std::string IdentityHashPagePrefix(uint64_t db, uint64_t page);
// The page and offset of an 'H' key; false if it has not the length an 'H' key has.
bool ParseIdentityHashKey(std::string_view key, uint64_t *page, uint32_t *offset);
// The prefix shared by every key of `kind` for database `db` (1 + 8 bytes); for kName, "N".
std::string DatabasePrefix(KeyKind kind, uint64_t db);

// The number after a 9-byte prefix ('P'/'F' keys: the page; 'T': the fingerprint; 'I': the
// index). False if the key has not the length its kind needs.
bool ParseKeyNumber(std::string_view key, uint64_t *number);

}  // namespace cairn::store

#endif  // CAIRN_STORE_KEYS_H
