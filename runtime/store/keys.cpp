// Building and parsing the store's RocksDB keys (see keys.h).
#include "keys.h"

#include "encoding.h"

namespace cairn::store {

PageKey::PageKey(KeyKind kind, uint64_t db, uint64_t page) {
  bytes[0] = static_cast<char>(kind);
  PutBe64(bytes + 1, db);
  PutBe64(bytes + 9, page);
}

std::string StoreHeaderKey() { return std::string(1, static_cast<char>(KeyKind::kStoreHeader)); }

std::string NameKey(std::string_view name) {
  std::string k(1, static_cast<char>(KeyKind::kName));
  k.append(name);
  return k;
}

std::string DatabasePrefix(KeyKind kind, uint64_t db) {
  std::string k(1, static_cast<char>(kind));
  if (kind != KeyKind::kName) AppendBe64(&k, db);
  return k;
}

std::string DatabaseKey(uint64_t db) { return DatabasePrefix(KeyKind::kDatabase, db); }

std::string TypeKey(uint64_t db, uint64_t fingerprint) {
  std::string k = DatabasePrefix(KeyKind::kType, db);
  AppendBe64(&k, fingerprint);
  return k;
}

std::string TypeIndexKey(uint64_t db, uint32_t index) {
  std::string k = DatabasePrefix(KeyKind::kTypeIndex, db);
  char b[4];
  PutBe32(b, index);
  k.append(b, 4);
  return k;
}

std::string IdentityHashPagePrefix(uint64_t db, uint64_t page) {
  std::string k = DatabasePrefix(KeyKind::kIdentityHash, db);
  AppendBe64(&k, page);
  return k;
}

std::string IdentityHashKey(uint64_t db, uint64_t page, uint32_t offset) {
  std::string k = IdentityHashPagePrefix(db, page);
  char b[4];
  PutBe32(b, offset);
  k.append(b, 4);
  return k;
}

bool ParseIdentityHashKey(std::string_view key, uint64_t *page, uint32_t *offset) {
  if (key.size() != 21 || key[0] != static_cast<char>(KeyKind::kIdentityHash)) return false;
  *page = GetBe64(key.data() + 9);
  *offset = GetBe32(key.data() + 17);
  return true;
}

bool ParseKeyNumber(std::string_view key, uint64_t *number) {
  if (key.size() == 17) {
    *number = GetBe64(key.data() + 9);
    return true;
  }
  if (key.size() == 13 && key[0] == static_cast<char>(KeyKind::kTypeIndex)) {
    *number = GetBe32(key.data() + 9);
    return true;
  }
  return false;
}

}  // namespace cairn::store
