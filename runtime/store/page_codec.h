// A stored page: a 32-byte header, then the page's kPageSize bytes of contents.
//
//   offset size  field
//        0    4  crc32c of bytes 4 .. end (header rest and contents)
//        4    2  page format version (kPageFormatVersion)
//        6    2  flags (0; reserved)
//        8    8  database id
//       16    8  page number
//       24    4  contents size (kPageSize)
//       28    4  reserved (0)
//       32 8192  contents
//
// All little-endian. Invariant S3 (cairn/store.h): a page decodes only if its checksum holds and
// its header names the database and page it is stored under.
#ifndef CAIRN_STORE_PAGE_CODEC_H
#define CAIRN_STORE_PAGE_CODEC_H

#include <cstdint>
#include <string>
#include <string_view>

#include "cairn/store.h"

namespace cairn::store {

inline constexpr uint16_t kPageFormatVersion = 1;
inline constexpr size_t kPageHeaderSize = 32;
inline constexpr size_t kStoredPageSize = kPageHeaderSize + kPageSize;

// Fills header[0..kPageHeaderSize) for `contents` (kPageSize bytes), checksum included; the
// stored value is the header followed by the contents.
void EncodePageHeader(uint64_t db, PageNo page, const void *contents, char *header);

// Fills out[0..kStoredPageSize) with the header and `contents` (kPageSize bytes).
void EncodePage(uint64_t db, PageNo page, const void *contents, char *out);

// Checks `stored` (S3) as page `page` of database `db` and copies its contents into `buffer`
// (kPageSize bytes; may be null to only check). On failure returns false and says why in
// `*problem` ("checksum mismatch (stored 0x..., computed 0x...)").
bool DecodePage(std::string_view stored, uint64_t db, PageNo page, void *buffer,
                std::string *problem);

}  // namespace cairn::store

#endif  // CAIRN_STORE_PAGE_CODEC_H
