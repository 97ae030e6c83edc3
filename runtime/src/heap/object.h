// The object model: a one-word header, then the payload; a reference is the payload's address.
//
//   header word (8 bytes)  | payload: fields (plain) or length + elements (array)
//                          ^ reference
//
// The header holds the descriptor's address (8-aligned, low bits zero). While a collection runs,
// the header of an object that has been copied holds its new reference with bit 0 set (a
// forwarding word); forwarding words exist only in previous space (P5 in heap/page_info.h).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "cairn/type.h"
#include "heap/page_info.h"

namespace cairn::heap {

inline constexpr uintptr_t kForwardedBit = 1;

inline uintptr_t &HeaderOf(void *ref) { return reinterpret_cast<uintptr_t *>(ref)[-1]; }
inline uintptr_t HeaderOf(const void *ref) { return reinterpret_cast<const uintptr_t *>(ref)[-1]; }
inline bool IsForwarded(uintptr_t header) { return header & kForwardedBit; }
inline void *ForwardedTo(uintptr_t header) {
  return reinterpret_cast<void *>(header & ~kForwardedBit);
}
inline const cairn_type *TypeOfHeader(uintptr_t header) {
  return reinterpret_cast<const cairn_type *>(header);
}

inline constexpr size_t RoundUp8(size_t n) { return (n + 7) & ~size_t{7}; }

inline bool IsArrayType(const cairn_type *t) { return t->flags & CAIRN_TYPE_ARRAY; }

inline uint64_t ArrayLength(const void *ref) { return *static_cast<const uint64_t *>(ref); }

// Bytes an object occupies, header included, from its type and (for arrays) its length. A payload
// is never empty, so a reference always points inside its own object's page.
inline size_t PlainObjectBytes(const cairn_type *t) {
  return kWordSize + (t->size ? RoundUp8(t->size) : kWordSize);
}
inline size_t ArrayObjectBytes(const cairn_type *t, uint64_t length) {
  return kWordSize + RoundUp8(CAIRN_ARRAY_DATA_OFFSET + length * t->size);
}
inline size_t ObjectBytes(const cairn_type *t, const void *ref) {
  return IsArrayType(t) ? ArrayObjectBytes(t, ArrayLength(ref)) : PlainObjectBytes(t);
}

// Calls f(void **slot) for every reference slot of the object at ref (of type t).
template <class F>
__attribute__((always_inline)) inline void ForEachRefSlot(const cairn_type *t, void *ref, F &&f) {
  char *payload = static_cast<char *>(ref);
  const uint32_t n = t->nrefs;
  if (n == 0) return;
  const uint32_t *offs = t->refs;
  if (!IsArrayType(t)) {
    for (uint32_t k = 0; k < n; k++) f(reinterpret_cast<void **>(payload + offs[k]));
    return;
  }
  const uint64_t len = ArrayLength(ref);
  char *elem = payload + CAIRN_ARRAY_DATA_OFFSET;
  const size_t esize = t->size;
  if (t->elem_kind == CAIRN_KIND_REF) {  // an array of references: every word is a slot
    void **slots = reinterpret_cast<void **>(elem);
    for (uint64_t i = 0; i < len; i++) f(&slots[i]);
    return;
  }
  for (uint64_t i = 0; i < len; i++, elem += esize)
    for (uint32_t k = 0; k < n; k++) f(reinterpret_cast<void **>(elem + offs[k]));
}

// ForEachRefSlot restricted to the slots whose address is in [lo, hi): what one page of a large
// object holds (an array's slots outside the range are not visited, so the cost is the range's).
template <class F>
inline void ForEachRefSlotIn(const cairn_type *t, void *ref, const char *lo, const char *hi,
                             F &&f) {
  char *payload = static_cast<char *>(ref);
  const uint32_t n = t->nrefs;
  if (n == 0 || hi <= lo) return;
  const uint32_t *offs = t->refs;
  auto in = [&](const char *slot) { return slot >= lo && slot < hi; };
  if (!IsArrayType(t)) {
    for (uint32_t k = 0; k < n; k++)
      if (in(payload + offs[k])) f(reinterpret_cast<void **>(payload + offs[k]));
    return;
  }
  const uint64_t len = ArrayLength(ref);
  char *elem = payload + CAIRN_ARRAY_DATA_OFFSET;
  const size_t esize = t->size;
  if (esize == 0) return;
  // The elements that overlap [lo, hi): from the one holding lo to the one holding hi - 1.
  const uint64_t first = lo <= elem ? 0 : uint64_t(lo - elem) / esize;
  if (hi <= elem || first >= len) return;
  const uint64_t last = std::min<uint64_t>(len, uint64_t(hi - 1 - elem) / esize + 1);
  if (t->elem_kind == CAIRN_KIND_REF) {
    void **slots = reinterpret_cast<void **>(elem);
    for (uint64_t i = first; i < last; i++)
      if (in(reinterpret_cast<char *>(&slots[i]))) f(&slots[i]);
    return;
  }
  for (uint64_t i = first; i < last; i++)
    for (uint32_t k = 0; k < n; k++) {
      char *slot = elem + i * esize + offs[k];
      if (in(slot)) f(reinterpret_cast<void **>(slot));
    }
}

}  // namespace cairn::heap
