// Persistent references: how a reference is written inside a stored page.
//
// In memory a reference is a plain address (swizzled). On disk it names a place in its own
// database's page space:
//
//     bit 63 ............ 44 | 43 .............. 13 | 12 ........ 0
//         run (20 bits)       |  page id (31 bits)   |  offset (13)
//
// `offset` is the byte offset of the referenced payload in its page (8-aligned, >= 8); `page`
// is the page id (>= 1); `run` is 0 for an object within one page and, for a large object (the
// "form for large objects"), the number of pages it spans, starting at `page` with its payload at
// offset 8. The run is in the reference because the frames for a large object must be reserved,
// contiguously, before its first page is read. Nil is 0.
//
// An object header on disk holds the type's index in the database's type table (>= 1) instead of
// the descriptor's address; a zero header word ends the objects of a page.
#pragma once

#include <cstdint>

namespace cairn::persist {

inline constexpr unsigned kOffsetBits = 13;
inline constexpr unsigned kPageBits = 31;
inline constexpr unsigned kRunBits = 20;
inline constexpr uint64_t kMaxPageId = (uint64_t{1} << kPageBits) - 1;
inline constexpr uint64_t kMaxRun = (uint64_t{1} << kRunBits) - 1;

struct PersistentRef {
  uint64_t page = 0;
  uint32_t offset = 0;
  uint32_t run = 0;  // 0: within one page
};

constexpr uint64_t EncodeRef(const PersistentRef &r) {
  return (uint64_t(r.run) << (kOffsetBits + kPageBits)) | (r.page << kOffsetBits) | r.offset;
}

constexpr PersistentRef DecodeRef(uint64_t v) {
  PersistentRef r;
  r.offset = uint32_t(v & ((uint64_t{1} << kOffsetBits) - 1));
  r.page = (v >> kOffsetBits) & kMaxPageId;
  r.run = uint32_t(v >> (kOffsetBits + kPageBits));
  return r;
}

// A decoded reference is well formed if it names a page and an 8-aligned payload offset.
constexpr bool WellFormed(const PersistentRef &r) {
  return r.page != 0 && r.offset >= 8 && r.offset % 8 == 0 && (r.run == 0 || r.offset == 8);
}

}  // namespace cairn::persist
