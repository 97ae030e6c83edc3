// Encoding and verifying stored pages (layout in page_codec.h).
#include "page_codec.h"

#include <cstdio>
#include <cstring>

#include "crc32c.h"
#include "encoding.h"

namespace cairn::store {

void EncodePageHeader(uint64_t db, PageNo page, const void *contents, char *header) {
  PutLe16(header + 4, kPageFormatVersion);
  PutLe16(header + 6, 0);
  PutLe64(header + 8, db);
  PutLe64(header + 16, page);
  PutLe32(header + 24, kPageSize);
  PutLe32(header + 28, 0);
  uint32_t crc = Crc32c(header + 4, kPageHeaderSize - 4);
  PutLe32(header, Crc32c(contents, kPageSize, crc));
}

void EncodePage(uint64_t db, PageNo page, const void *contents, char *out) {
  EncodePageHeader(db, page, contents, out);
  std::memcpy(out + kPageHeaderSize, contents, kPageSize);
}

bool DecodePage(std::string_view stored, uint64_t db, PageNo page, void *buffer,
                std::string *problem) {
  char why[160];
  if (stored.size() != kStoredPageSize) {
    std::snprintf(why, sizeof why, "stored size is %zu bytes, not %zu", stored.size(),
                  kStoredPageSize);
    *problem = why;
    return false;
  }
  const char *p = stored.data();
  uint32_t want = GetLe32(p);
  uint32_t got = Crc32c(p + 4, kStoredPageSize - 4);
  if (want != got) {
    std::snprintf(why, sizeof why, "checksum mismatch (stored 0x%08x, computed 0x%08x)", want, got);
    *problem = why;
    return false;
  }
  uint16_t version = GetLe16(p + 4);
  if (version != kPageFormatVersion) {
    std::snprintf(why, sizeof why, "page format version %u, this build reads %u", version,
                  kPageFormatVersion);
    *problem = why;
    return false;
  }
  uint64_t hdb = GetLe64(p + 8), hpage = GetLe64(p + 16);
  if (hdb != db || hpage != page || GetLe32(p + 24) != kPageSize) {
    std::snprintf(why, sizeof why,
                  "header names database #%llu page %llu (size %u), not where it is stored",
                  static_cast<unsigned long long>(hdb), static_cast<unsigned long long>(hpage),
                  GetLe32(p + 24));
    *problem = why;
    return false;
  }
  if (buffer != nullptr) std::memcpy(buffer, p + kPageHeaderSize, kPageSize);
  return true;
}

}  // namespace cairn::store
