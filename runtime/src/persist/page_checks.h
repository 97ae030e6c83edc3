// What faulting checks of a persistent page's references, so that a page whose checksum is right
// but whose contents are wrong (written by a bug, by hand, or damaged before its checksum was
// computed) gives an error naming the database and page, never a crash or a wrong object:
//
//   D11. A reference swizzled into a persistent frame lands on an object's payload: in a loaded
//       small page, at the start of one of its objects (checked at once); in a reserved one,
//       recorded here and checked when the page is loaded (a reference into the middle of an
//       object, or past the page's last object, fails the load); into a large object's run, at
//       its payload, with the run's length; never beyond the database's last page.
//
// PageChecks keeps, per heap frame, a bitmap of payload offsets (one bit per 8 bytes): for a
// reserved frame, the offsets references point at; for a loaded one, where its objects start (up
// to `covered` bytes; a page filled by stabilization is walked when first needed). A frame is
// Reset when it gets a page id (reserved by a swizzle, or assigned by stabilization). After an
// eviction the bits of the starts stay: the references they validated still point there, and
// the page reads back the same. The memory is reserved for the whole heap and touched only for
// the frames used (one 136-byte entry per page).
#pragma once

#include <cstddef>
#include <cstdint>

#include "heap/page_info.h"

namespace cairn::persist {

class PageChecks {
 public:
  static constexpr size_t kWords = heap::kPageSize / 8 / 64;  // 16 words of 64 bits
  struct Starts {
    uint64_t bits[kWords] = {};
    void Set(uint32_t offset) { bits[offset / 512] |= uint64_t{1} << (offset / 8 % 64); }
    bool Has(uint32_t offset) const { return bits[offset / 512] >> (offset / 8 % 64) & 1; }
  };

  PageChecks() = default;
  ~PageChecks();
  PageChecks(const PageChecks &) = delete;
  PageChecks &operator=(const PageChecks &) = delete;

  // Reserves the entries for a heap of `pages` pages (once). False if the system refuses.
  bool Reserve(size_t pages);

  // The frame now holds another page (or a new one): nothing is known of it.
  void Reset(size_t frame) {
    Entry &e = entries_[frame];
    e.starts = Starts{};
    e.covered = 0;
  }
  // A reference to payload `offset` of a reserved frame: checked when it is loaded.
  void Expect(size_t frame, uint32_t offset) { entries_[frame].starts.Set(offset); }
  // The frame was loaded and its objects start at `starts`, up to byte `used`. Returns 0 if every
  // offset a reference expected is among them (then they are the frame's starts), else the first
  // offset that is not (the frame's entry is then left as it was, for the next attempt).
  uint32_t Loaded(size_t frame, const Starts &starts, uint32_t used);
  // True if payload `offset` of the loaded small page `frame` (at `page`, objects up to `used`,
  // headers swizzled) starts an object. Walks the objects it has not walked yet.
  bool IsStart(size_t frame, uint32_t offset, const char *page, uint32_t used) {
    const Entry &e = entries_[frame];
    if (offset < e.covered + heap::kWordSize || e.covered >= used) return e.starts.Has(offset);
    return WalkAndCheck(frame, offset, page, used);
  }

  // The highest page id of database `db` (1..255) known to exist; 0 when not known yet.
  uint64_t &known_pages(uint8_t db) { return known_pages_[db]; }

 private:
  bool WalkAndCheck(size_t frame, uint32_t offset, const char *page, uint32_t used);
  struct Entry {
    Starts starts;
    uint32_t covered = 0;  // loaded: bytes of the page whose starts are in `starts`
    uint32_t reserved = 0;
  };
  Entry *entries_ = nullptr;
  size_t pages_ = 0;
  uint64_t known_pages_[256] = {};
};

}  // namespace cairn::persist
