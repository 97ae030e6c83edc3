// Page deltas: encoding, applying, and the merge operator that folds them (layout in
// page_delta.h).
#include "page_delta.h"

#include <rocksdb/merge_operator.h>

#include <atomic>
#include <cstdio>
#include <cstring>

#include "crc32c.h"
#include "encoding.h"
#include "keys.h"
#include "page_codec.h"

namespace cairn::store {

namespace {

constexpr size_t kWord = 8;
constexpr size_t kWords = kPageSize / kWord;
constexpr uint16_t kMoveFlag = 0x8000;    // in a version 2 range's length field
constexpr uint16_t kLengthMask = 0x3fff;  // the length itself (at most 8192)
// The shifts (in words, either way) tried for a move: an insertion of up to 16 entries before a
// run of a sorted array, or a removal of as many.
constexpr int64_t kMaxShift = 16;
// A move of fewer words costs more than the words: 6 bytes against 4 + 8.
constexpr size_t kMinMoveWords = 2;
// A move at least this long is taken without trying the other shifts.
constexpr size_t kGoodMoveWords = 4;

uint64_t WordAt(const char *p, size_t w) {
  uint64_t v;
  std::memcpy(&v, p + w * kWord, kWord);
  return v;
}

// The words from w on that `now` holds where `base` held them `shift` words earlier (src =
// w - shift), at most to the end of the page.
size_t RunOfShift(const char *base, const char *now, size_t w, int64_t shift) {
  const int64_t src = int64_t(w) - shift;
  if (src < 0 || src >= int64_t(kWords)) return 0;
  size_t n = 0;
  while (w + n < kWords && size_t(src) + n < kWords &&
         WordAt(now, w + n) == WordAt(base, size_t(src) + n))
    n++;
  return n;
}

// The first word from w on that differs between base and now (kWords if none): most of a
// page a delta is made for is unchanged, so four words are compared at a time.
size_t SameUntil(const char *base, const char *now, size_t w) {
  for (; w + 4 <= kWords; w += 4) {
    const uint64_t diff =
        (WordAt(now, w) ^ WordAt(base, w)) | (WordAt(now, w + 1) ^ WordAt(base, w + 1)) |
        (WordAt(now, w + 2) ^ WordAt(base, w + 2)) | (WordAt(now, w + 3) ^ WordAt(base, w + 3));
    if (diff != 0) break;
  }
  while (w < kWords && WordAt(now, w) == WordAt(base, w)) w++;
  return w;
}

}  // namespace

bool EncodePageDelta(uint64_t db, PageNo page, const char *base, const char *now, size_t max_bytes,
                     std::string *out, uint32_t *checksum) {
  out->assign(kPageDeltaHeaderSize, '\0');
  size_t ranges = 0;
  size_t literal = kWords;  // the first word of the literal range being gathered, if any
  int64_t last_shift = 0;
  auto close_literal = [&](size_t end) {
    if (literal == kWords) return true;
    const size_t bytes = (end - literal) * kWord;
    if (out->size() + 4 + bytes > max_bytes) return false;
    char head[4];
    PutLe16(head, uint16_t(literal * kWord));
    PutLe16(head + 2, uint16_t(bytes));
    out->append(head, 4);
    out->append(now + literal * kWord, bytes);
    ranges++;
    literal = kWords;
    return true;
  };
  for (size_t w = 0; w < kWords;) {
    if (WordAt(now, w) == WordAt(base, w)) {
      if (!close_literal(w)) return false;
      w = SameUntil(base, now, w + 1);
      continue;
    }
    // A changed word: the start of a move (words the base held a few words away), if one of
    // the shifts gives a long enough run; else a literal word. The shifts are tried from the
    // likeliest (the last one, then one more or less: the next insertion or removal in the
    // same array) to the least, and the first good enough is taken (a run of zeros matches
    // at every shift: trying them all would scan it again for each).
    size_t best = 0;
    int64_t best_shift = 0;
    auto consider = [&](int64_t shift) {
      if (shift == 0 || shift > kMaxShift || shift < -kMaxShift) return false;
      const size_t n = RunOfShift(base, now, w, shift);
      if (n > best) {
        best = n;
        best_shift = shift;
      }
      return best >= kGoodMoveWords;
    };
    bool found = consider(last_shift) || consider(last_shift + 1) || consider(last_shift - 1);
    for (int64_t d = 1; !found && d <= kMaxShift; d++) found = consider(d) || consider(-d);
    if (best >= kMinMoveWords) {
      if (!close_literal(w) || out->size() + 6 > max_bytes) return false;
      char move[6];
      PutLe16(move, uint16_t(w * kWord));
      PutLe16(move + 2, uint16_t(best * kWord) | kMoveFlag);
      PutLe16(move + 4, uint16_t((int64_t(w) - best_shift) * int64_t(kWord)));
      out->append(move, 6);
      ranges++;
      last_shift = best_shift;
      w += best;
      continue;
    }
    if (literal == kWords) literal = w;
    w++;
  }
  if (!close_literal(kWords)) return false;
  char *h = out->data();
  PutLe16(h + 4, kPageDeltaVersion);
  PutLe16(h + 6, uint16_t(ranges));
  PutLe64(h + 8, db);
  PutLe64(h + 16, page);
  char header[kPageHeaderSize];
  EncodePageHeader(db, page, now, header);
  PutLe32(h + 24, GetLe32(header));  // PD2: what the page's checksum will be
  if (checksum != nullptr) *checksum = GetLe32(header);
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
  const uint16_t version = GetLe16(p + 4);
  if (version != 1 && version != kPageDeltaVersion) {
    std::snprintf(why, sizeof why,
                  "a delta of version %u, which this build of Cairn does not know (it applies "
                  "versions 1 to %u: a newer Cairn wrote it)",
                  version, kPageDeltaVersion);
    *problem = why;
    return false;
  }
  if (GetLe64(p + 8) != db || GetLe64(p + 16) != page) {
    std::snprintf(why, sizeof why,
                  "a delta (version %u) names database #%llu page %llu, not where it is stored",
                  version, static_cast<unsigned long long>(GetLe64(p + 8)),
                  static_cast<unsigned long long>(GetLe64(p + 16)));
    *problem = why;
    return false;
  }
  char *contents = stored->data() + kPageHeaderSize;
  // Moves read the page as it was before this delta (PD5).
  std::string before;
  if (version >= 2) before.assign(contents, kPageSize);
  const size_t ranges = GetLe16(p + 6);
  size_t at = kPageDeltaHeaderSize, last_end = 0;
  for (size_t r = 0; r < ranges; r++) {
    if (at + 4 > delta.size()) {
      *problem = "a delta holds fewer ranges than it says";
      return false;
    }
    const size_t off = GetLe16(p + at);
    const uint16_t field = GetLe16(p + at + 2);
    const bool move = version >= 2 && (field & kMoveFlag);
    const size_t len = version >= 2 ? (field & kLengthMask) : field;
    const bool stray_bits = version >= 2 && (field & ~(kMoveFlag | kLengthMask));
    at += 4;
    size_t src = 0;
    if (move) {
      src = at + 2 <= delta.size() ? GetLe16(p + at) : kPageSize;
      at += 2;
    }
    if (stray_bits || off < last_end || len == 0 || off % 8 || len % 8 || off + len > kPageSize ||
        (move ? src % 8 || src + len > kPageSize || at > delta.size() : at + len > delta.size())) {
      *problem = "a delta's range is malformed";
      return false;
    }
    if (move) {
      std::memcpy(contents + off, before.data() + src, len);
    } else {
      std::memcpy(contents + off, p + at, len);
      at += len;
    }
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

std::atomic<uint64_t> most_folded{0};

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
    const uint64_t folded = in.operand_list.size();
    for (uint64_t seen = most_folded.load(std::memory_order_relaxed);
         folded > seen && !most_folded.compare_exchange_weak(seen, folded);) {
    }
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

uint64_t MostDeltasFoldedAtOnce() { return most_folded.load(); }
void ResetMostDeltasFoldedAtOnce() { most_folded.store(0); }

}  // namespace cairn::store
