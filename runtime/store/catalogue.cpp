// Encoding and checking catalogue values (layouts in catalogue.h).
#include "catalogue.h"

#include <cstdio>
#include <cstring>

#include "crc32c.h"
#include "encoding.h"

namespace cairn::store {
namespace {

// Prepends the checksum of `rest`.
std::string Seal(const std::string &rest) {
  std::string v(4, '\0');
  PutLe32(v.data(), Crc32c(rest.data(), rest.size()));
  v += rest;
  return v;
}

// Checks the checksum and that the rest has at least `min_rest` bytes; `*rest` gets it.
bool Unseal(std::string_view value, size_t min_rest, std::string_view *rest, std::string *problem) {
  char why[120];
  if (value.size() < 4 + min_rest) {
    std::snprintf(why, sizeof why, "value is %zu bytes, too short", value.size());
    *problem = why;
    return false;
  }
  uint32_t want = GetLe32(value.data());
  uint32_t got = Crc32c(value.data() + 4, value.size() - 4);
  if (want != got) {
    std::snprintf(why, sizeof why, "checksum mismatch (stored 0x%08x, computed 0x%08x)", want, got);
    *problem = why;
    return false;
  }
  *rest = value.substr(4);
  return true;
}

}  // namespace

std::string EncodeStoreHeader(const StoreHeader &h) {
  std::string rest(kStoreMagic, sizeof kStoreMagic);
  AppendLe32(&rest, h.format_version);
  AppendLe32(&rest, h.page_size);
  AppendLe64(&rest, h.next_database_id);
  AppendLe64(&rest, h.created_unix);
  return Seal(rest);
}

bool DecodeStoreHeader(std::string_view value, StoreHeader *h, std::string *problem) {
  std::string_view rest;
  if (!Unseal(value, 32, &rest, problem)) return false;
  if (std::memcmp(rest.data(), kStoreMagic, sizeof kStoreMagic) != 0) {
    *problem = "bad magic number (not a Cairn store)";
    return false;
  }
  const char *p = rest.data() + 8;
  h->format_version = GetLe32(p);
  h->page_size = GetLe32(p + 4);
  h->next_database_id = GetLe64(p + 8);
  h->created_unix = GetLe64(p + 16);
  return true;
}

std::string EncodeDatabaseRecord(const DatabaseRecord &r) {
  std::string rest;
  AppendLe64(&rest, r.id);
  AppendLe64(&rest, r.root);
  AppendLe64(&rest, r.page_count);
  AppendLe64(&rest, r.free_pages);
  AppendLe32(&rest, r.type_count);
  AppendLe64(&rest, r.created_unix);
  char n[2];
  PutLe16(n, static_cast<uint16_t>(r.name.size()));
  rest.append(n, 2);
  rest += r.name;
  return Seal(rest);
}

bool DecodeDatabaseRecord(std::string_view value, DatabaseRecord *r, std::string *problem) {
  std::string_view rest;
  constexpr size_t kFixed = 8 * 4 + 4 + 8 + 2;
  if (!Unseal(value, kFixed, &rest, problem)) return false;
  const char *p = rest.data();
  r->id = GetLe64(p);
  r->root = GetLe64(p + 8);
  r->page_count = GetLe64(p + 16);
  r->free_pages = GetLe64(p + 24);
  r->type_count = GetLe32(p + 32);
  r->created_unix = GetLe64(p + 36);
  uint16_t name_len = GetLe16(p + 44);
  if (rest.size() != kFixed + name_len) {
    *problem = "record length does not match its name length";
    return false;
  }
  r->name.assign(p + kFixed, name_len);
  return true;
}

std::string EncodeNameEntry(uint64_t id) {
  std::string rest;
  AppendLe64(&rest, id);
  return Seal(rest);
}

bool DecodeNameEntry(std::string_view value, uint64_t *id, std::string *problem) {
  std::string_view rest;
  if (!Unseal(value, 8, &rest, problem)) return false;
  *id = GetLe64(rest.data());
  return true;
}

std::string EncodeTypeEntry(uint32_t index, std::string_view layout) {
  std::string rest;
  AppendLe32(&rest, index);
  rest.append(layout);
  return Seal(rest);
}

bool DecodeTypeEntry(std::string_view value, uint32_t *index, std::string *layout,
                     std::string *problem) {
  std::string_view rest;
  if (!Unseal(value, 4, &rest, problem)) return false;
  *index = GetLe32(rest.data());
  layout->assign(rest.substr(4));
  return true;
}

std::string EncodeTypeIndexEntry(uint64_t fingerprint) {
  std::string rest;
  AppendLe64(&rest, fingerprint);
  return Seal(rest);
}

bool DecodeTypeIndexEntry(std::string_view value, uint64_t *fingerprint, std::string *problem) {
  std::string_view rest;
  if (!Unseal(value, 8, &rest, problem)) return false;
  *fingerprint = GetLe64(rest.data());
  return true;
}

std::string EncodeIdentityHashEntry(uint64_t hash) {
  std::string rest;
  AppendLe64(&rest, hash);
  return Seal(rest);
}

bool DecodeIdentityHashEntry(std::string_view value, uint64_t *hash, std::string *problem) {
  std::string_view rest;
  if (!Unseal(value, 8, &rest, problem)) return false;
  *hash = GetLe64(rest.data());
  return true;
}

}  // namespace cairn::store
