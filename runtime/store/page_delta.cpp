// Page deltas: encoding, applying, and the merge operator that folds them (layout in
// page_delta.h).
#include "page_delta.h"

#include <rocksdb/merge_operator.h>

#include <cstdio>
#include <cstring>

#include "crc32c.h"
#include "encoding.h"
#include "keys.h"
#include "page_codec.h"

namespace cairn::store {

bool EncodePageDelta(uint64_t db, PageNo page, const char *base, const char *now, size_t max_bytes,
                     std::string *out) {
  constexpr size_t kWord = 8;
  out->assign(kPageDeltaHeaderSize, '\0');
  size_t ranges = 0;
  for (size_t off = 0; off < kPageSize;) {
    if (std::memcmp(base + off, now + off, kWord) == 0) {
      off += kWord;
      continue;
    }
    size_t end = off + kWord;  // a range is a run of changed words
    while (end < kPageSize && std::memcmp(base + end, now + end, kWord) != 0) end += kWord;
    if (out->size() + 4 + (end - off) > max_bytes) return false;
    char head[4];
    PutLe16(head, uint16_t(off));
    PutLe16(head + 2, uint16_t(end - off));
    out->append(head, 4);
    out->append(now + off, end - off);
    ranges++;
    off = end;
  }
  char *h = out->data();
  PutLe16(h + 4, kPageDeltaVersion);
  PutLe16(h + 6, uint16_t(ranges));
  PutLe64(h + 8, db);
  PutLe64(h + 16, page);
  char header[kPageHeaderSize];
  EncodePageHeader(db, page, now, header);
  PutLe32(h + 24, GetLe32(header));  // PD2: what the page's checksum will be
  PutLe32(h + 28, 0);
  PutLe32(h, Crc32c(h + 4, out->size() - 4));
  return true;
}

bool ApplyPageDelta(std::string_view delta, uint64_t db, PageNo page, std::string *stored,
                    std::string *problem) {
  char why[200];
  const char *p = delta.data();
  if (delta.size() < kPageDeltaHeaderSize || stored->size() != kStoredPageSize) {
    std::snprintf(why, sizeof why, "a delta of %zu bytes, or a base of %zu, is malformed",
                  delta.size(), stored->size());
    *problem = why;
    return false;
  }
  uint32_t want = GetLe32(p), got = Crc32c(p + 4, delta.size() - 4);
  if (want != got) {  // PD1
    std::snprintf(why, sizeof why, "a delta's checksum mismatch (stored 0x%08x, computed 0x%08x)",
                  want, got);
    *problem = why;
    return false;
  }
  if (GetLe16(p + 4) != kPageDeltaVersion || GetLe64(p + 8) != db || GetLe64(p + 16) != page) {
    std::snprintf(why, sizeof why,
                  "a delta (version %u) names database #%llu page %llu, not where it is stored",
                  GetLe16(p + 4), static_cast<unsigned long long>(GetLe64(p + 8)),
                  static_cast<unsigned long long>(GetLe64(p + 16)));
    *problem = why;
    return false;
  }
  char *contents = stored->data() + kPageHeaderSize;
  const size_t ranges = GetLe16(p + 6);
  size_t at = kPageDeltaHeaderSize, last_end = 0;
  for (size_t r = 0; r < ranges; r++) {
    if (at + 4 > delta.size()) break;
    size_t off = GetLe16(p + at), len = GetLe16(p + at + 2);
    at += 4;
    if (off < last_end || len == 0 || off % 8 || len % 8 || off + len > kPageSize ||
        at + len > delta.size()) {
      *problem = "a delta's range is malformed";
      return false;
    }
    std::memcpy(contents + off, p + at, len);
    at += len;
    last_end = off + len;
  }
  if (at != delta.size()) {
    *problem = "a delta's ranges do not match its size";
    return false;
  }
  char header[kPageHeaderSize];
  EncodePageHeader(db, page, contents, header);
  if (GetLe32(header) != GetLe32(p + 24)) {  // PD2
    std::snprintf(why, sizeof why,
                  "a delta applied to its base gives checksum 0x%08x, not the 0x%08x written "
                  "(the base is not the version the delta was made against)",
                  GetLe32(header), GetLe32(p + 24));
    *problem = why;
    return false;
  }
  std::memcpy(stored->data(), header, kPageHeaderSize);
  return true;
}

namespace {

class PageDeltaMerge : public rocksdb::MergeOperator {
 public:
  const char *Name() const override { return "cairn.PageDelta"; }

  // Never fails for a page: a missing or damaged base, or a delta that fails PD1 or PD2, gives
  // a value whose checksum is wrong on purpose (PD4), so that the flush or compaction that met
  // it goes on (a failed merge there would stop every later write of the store) and every read
  // of the page reports it damaged, as a damaged stored page is.
  bool FullMergeV2(const MergeOperationInput &in, MergeOperationOutput *out) const override {
    const rocksdb::Slice &key = in.key;
    if (key.size() != 17 || static_cast<KeyKind>(key[0]) != KeyKind::kPage) return false;
    const uint64_t db = GetBe64(key.data() + 1);
    const PageNo page = GetBe64(key.data() + 9);
    std::string problem;
    bool ok = in.existing_value != nullptr &&
              DecodePage(std::string_view(in.existing_value->data(), in.existing_value->size()), db,
                         page, nullptr, &problem);
    if (ok) out->new_value.assign(in.existing_value->data(), in.existing_value->size());
    for (size_t i = 0; ok && i < in.operand_list.size(); i++) {
      const rocksdb::Slice &op = in.operand_list[i];
      ok = ApplyPageDelta(std::string_view(op.data(), op.size()), db, page, &out->new_value,
                          &problem);
    }
    if (!ok) {
      if (out->new_value.size() != kStoredPageSize) out->new_value.assign(kStoredPageSize, '\0');
      char *v = out->new_value.data();
      PutLe32(v, ~Crc32c(v + 4, kStoredPageSize - 4));  // PD4
    }
    return true;
  }
};

}  // namespace

std::shared_ptr<rocksdb::MergeOperator> NewPageDeltaMergeOperator() {
  return std::make_shared<PageDeltaMerge>();
}

}  // namespace cairn::store
