// heap::ForEachRefSlotIn (heap/object.h): the slots of an object whose address is in a range,
// which a commit uses to read one page of a large object (D16 of persist/persistence.h). For
// every window of a few sizes over plain objects, reference arrays and arrays of structs whose
// elements straddle the window's edges, it visits exactly the slots ForEachRefSlot visits that
// lie in the window, in the same order.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cairn/type_builder.hpp"
#include "heap/object.h"

namespace {

struct Plain {
  int64_t a;
  void *r0;
  int64_t pad[40];
  void *r1;
};
constexpr cairn_field kPlainFields[] = {
    cairn::Field("a", offsetof(Plain, a), CAIRN_KIND_I64),
    cairn::Field("r0", offsetof(Plain, r0), CAIRN_KIND_REF),
    cairn::Field("pad", offsetof(Plain, pad), CAIRN_KIND_I64, 40),
    cairn::Field("r1", offsetof(Plain, r1), CAIRN_KIND_REF),
};
constexpr cairn_type kPlain = cairn::PlainType<kPlainFields>("slots.Plain", sizeof(Plain));

struct Triple {  // 24 bytes: elements straddle any power-of-two window edge
  int64_t a;
  void *ref;
  void *ref2;
};
constexpr cairn_field kTripleFields[] = {
    cairn::Field("a", offsetof(Triple, a), CAIRN_KIND_I64),
    cairn::Field("ref", offsetof(Triple, ref), CAIRN_KIND_REF),
    cairn::Field("ref2", offsetof(Triple, ref2), CAIRN_KIND_REF),
};
constexpr cairn_type kTriples =
    cairn::StructArrayType<kTripleFields>("slots.[Triple]", sizeof(Triple));

// An object of type t laid out in `words` (header word first), length n if an array.
void *Lay(std::vector<uint64_t> &words, const cairn_type *t, uint64_t n) {
  const size_t bytes = cairn::heap::IsArrayType(t) ? cairn::heap::ArrayObjectBytes(t, n)
                                                   : cairn::heap::PlainObjectBytes(t);
  words.assign(bytes / 8, 0);
  words[0] = reinterpret_cast<uint64_t>(t);
  void *ref = &words[1];
  if (cairn::heap::IsArrayType(t)) words[1] = n;
  return ref;
}

void ExpectSameAsFiltered(const cairn_type *t, void *ref, size_t bytes) {
  const char *start = static_cast<char *>(ref) - 8;
  for (size_t window : {size_t(8), size_t(64), size_t(100), size_t(256), bytes}) {
    for (size_t lo = 0; lo < bytes; lo += window) {
      const char *a = start + lo, *b = start + lo + window;
      std::vector<void **> want, got;
      cairn::heap::ForEachRefSlot(t, ref, [&](void **slot) {
        const char *p = reinterpret_cast<const char *>(slot);
        if (p >= a && p < b) want.push_back(slot);
      });
      cairn::heap::ForEachRefSlotIn(t, ref, a, b, [&](void **slot) { got.push_back(slot); });
      ASSERT_EQ(got, want) << t->name << " window " << window << " at " << lo;
    }
  }
  // An empty or reversed range visits nothing; one before or past the object too.
  size_t n = 0;
  cairn::heap::ForEachRefSlotIn(t, ref, start + 64, start + 64, [&](void **) { n++; });
  cairn::heap::ForEachRefSlotIn(t, ref, start + 64, start + 8, [&](void **) { n++; });
  cairn::heap::ForEachRefSlotIn(t, ref, start - 800, start, [&](void **) { n++; });
  cairn::heap::ForEachRefSlotIn(t, ref, start + bytes, start + bytes + 800, [&](void **) { n++; });
  EXPECT_EQ(n, 0u) << t->name;
}

TEST(RefSlotsIn, APlainObjectsSlotsInARange) {
  std::vector<uint64_t> words;
  void *ref = Lay(words, &kPlain, 0);
  ExpectSameAsFiltered(&kPlain, ref, words.size() * 8);
}

TEST(RefSlotsIn, AReferenceArraysSlotsInARange) {
  std::vector<uint64_t> words;
  void *ref = Lay(words, &cairn_ref_array_type, 301);
  ExpectSameAsFiltered(&cairn_ref_array_type, ref, words.size() * 8);
}

TEST(RefSlotsIn, AStructArraysSlotsInARangeWithElementsAcrossItsEdges) {
  std::vector<uint64_t> words;
  void *ref = Lay(words, &kTriples, 97);
  ExpectSameAsFiltered(&kTriples, ref, words.size() * 8);
}

TEST(RefSlotsIn, AnArrayWithoutReferencesHasNone) {
  std::vector<uint64_t> words;
  void *ref = Lay(words, &cairn_i64_array_type, 100);
  size_t n = 0;
  const char *start = static_cast<char *>(ref) - 8;
  cairn::heap::ForEachRefSlotIn(&cairn_i64_array_type, ref, start, start + words.size() * 8,
                                [&](void **) { n++; });
  EXPECT_EQ(n, 0u);
}

}  // namespace
