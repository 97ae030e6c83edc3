// The catalogue: the store header, each database's record, its name entry and its type table
// entries. Every catalogue value starts with a crc32c of the rest of the value:
//
//   value = crc32c(rest) (4 bytes, little-endian) | rest
//
// The layouts of `rest` are below and in docs/store-format.md. Decoders return false with the
// reason in `*problem` when the checksum or the layout is wrong.
#ifndef CAIRN_STORE_CATALOGUE_H
#define CAIRN_STORE_CATALOGUE_H

#include <cstdint>
#include <string>
#include <string_view>

namespace cairn::store {

// "CAIRNSTO": the first bytes of the store header's rest.
inline constexpr char kStoreMagic[8] = {'C', 'A', 'I', 'R', 'N', 'S', 'T', 'O'};
// The format this build writes and reads. Bump on any change to keys or values that a reader of
// the previous version would misread. (The 'H' keys came later without a bump: a store without
// them reads as before, and older readers never look at them.) Version 2 added page deltas (merge
// operands under 'P' keys, page_delta.h), which a version 1 reader cannot read: a writing open
// of a version 1 store (which has none) makes it version 2 before anything else is written.
// Version 3 added moves to page deltas (delta version 2), which a version 2 reader would fold
// into damaged pages, and version 1 deltas are still applied. Version 4 added type table entries
// named filler[N] (the type of fillers, the places of dead objects: the language runtime's
// TypeRegistry::FillerType), which a version 3 reader would take for a type its program does not
// define; the keys and values are as in version 3. A writing open of an older store makes it the
// current version first.
inline constexpr uint32_t kStoreFormatVersion = 4;
inline constexpr uint32_t kOldestStoreFormatVersion = 1;  // still read

// Key "S". rest: magic[8] | u32 format version | u32 page size | u64 next database id |
// u64 created (Unix seconds).
struct StoreHeader {
  uint32_t format_version = kStoreFormatVersion;
  uint32_t page_size = 0;
  uint64_t next_database_id = 1;
  uint64_t created_unix = 0;
};
std::string EncodeStoreHeader(const StoreHeader &h);
// Checks the checksum and magic only; the caller judges version and page size.
bool DecodeStoreHeader(std::string_view value, StoreHeader *h, std::string *problem);

// Key 'D' id. rest: u64 id | u64 root | u64 page count | u64 free pages | u32 type count |
// u64 created (Unix seconds) | u16 name length | name bytes.
struct DatabaseRecord {
  uint64_t id = 0;
  uint64_t root = 0;
  uint64_t page_count = 0;
  uint64_t free_pages = 0;
  uint32_t type_count = 0;
  uint64_t created_unix = 0;
  std::string name;
};
std::string EncodeDatabaseRecord(const DatabaseRecord &r);
bool DecodeDatabaseRecord(std::string_view value, DatabaseRecord *r, std::string *problem);

// Key 'N' name. rest: u64 database id.
std::string EncodeNameEntry(uint64_t id);
bool DecodeNameEntry(std::string_view value, uint64_t *id, std::string *problem);

// Key 'T' id fingerprint. rest: u32 index | layout bytes.
std::string EncodeTypeEntry(uint32_t index, std::string_view layout);
bool DecodeTypeEntry(std::string_view value, uint32_t *index, std::string *layout,
                     std::string *problem);

// Key 'I' id index. rest: u64 fingerprint.
std::string EncodeTypeIndexEntry(uint64_t fingerprint);
bool DecodeTypeIndexEntry(std::string_view value, uint64_t *fingerprint, std::string *problem);

// Key 'H' id page offset. rest: u64 identity hash.
std::string EncodeIdentityHashEntry(uint64_t hash);
bool DecodeIdentityHashEntry(std::string_view value, uint64_t *hash, std::string *problem);

}  // namespace cairn::store

#endif  // CAIRN_STORE_CATALOGUE_H
