// Allocation, descriptors and their registration, statistics.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "cairn/gc.h"
#include "test_types.h"

using namespace cairn_test;

TEST(GcAlloc, TypedObjectsAreZeroedAlignedAndTyped) {
  ASSERT_EQ(cairn_init(nullptr), CAIRN_OK);
  for (int i = 0; i < 1000; i++) {
    auto *n = static_cast<Node *>(cairn_malloc_typed(&kNodeType));
    ASSERT_EQ(reinterpret_cast<uintptr_t>(n) % 8, 0u);
    EXPECT_EQ(n->left, nullptr);
    EXPECT_EQ(n->right, nullptr);
    EXPECT_EQ(n->id, 0);
    EXPECT_EQ(cairn_type_of(n), &kNodeType);
    EXPECT_TRUE(cairn_in_heap(n));
    n->id = i;
  }
  EXPECT_EQ(cairn_verify_heap(10), 0u);
}

TEST(GcAlloc, ArraysCarryTheirLength) {
  void *a = cairn_malloc_array(&cairn_i64_array_type, 100);
  EXPECT_EQ(cairn_array_length(a), 100u);
  auto *data = reinterpret_cast<int64_t *>(static_cast<char *>(a) + CAIRN_ARRAY_DATA_OFFSET);
  for (int i = 0; i < 100; i++) EXPECT_EQ(data[i], 0);
  void *empty = cairn_malloc_array(&cairn_ref_array_type, 0);
  EXPECT_EQ(cairn_array_length(empty), 0u);
  void *text = cairn_malloc_array(&cairn_text_type, 5);
  std::memcpy(static_cast<char *>(text) + CAIRN_ARRAY_DATA_OFFSET, "hello", 5);
  EXPECT_EQ(cairn_type_of(text), &cairn_text_type);
  EXPECT_EQ(cairn_verify_heap(10), 0u);
}

TEST(GcAlloc, AtomicBlocksAreZeroedAndNeverScanned) {
  for (size_t bytes : {1u, 7u, 8u, 24u, 4000u, 5000u, 100000u}) {
    auto *p = static_cast<unsigned char *>(cairn_malloc_atomic(bytes));
    for (size_t i = 0; i < bytes; i++) ASSERT_EQ(p[i], 0) << bytes;
    // Bytes that look like heap addresses do not matter: the block has no references.
    void *self = p;
    if (bytes >= 8) std::memcpy(p, &self, 8);
    EXPECT_EQ(cairn_type_of(p)->nrefs, 0u);
  }
  EXPECT_EQ(cairn_verify_heap(10), 0u);
}

TEST(GcAlloc, BuiltinTypesAreRegisteredAndFindable) {
  for (const cairn_type *t : {&cairn_text_type, &cairn_ref_array_type, &cairn_i64_array_type,
                              &cairn_f64_array_type, &cairn_bool_array_type}) {
    EXPECT_EQ(t->fingerprint, cairn_type_fingerprint_compute(t)) << t->name;
    EXPECT_EQ(cairn_find_type(t->fingerprint), t) << t->name;
  }
  EXPECT_EQ(cairn_register_type(&kNodeType), CAIRN_OK);
  EXPECT_EQ(cairn_register_type(&kNodeType), CAIRN_OK);  // twice is harmless
  EXPECT_EQ(cairn_find_type(kNodeType.fingerprint), &kNodeType);
}

namespace fp_fields {
using cairn::Field;
constexpr cairn_field a[] = {Field("x", 0, CAIRN_KIND_I64), Field("y", 8, CAIRN_KIND_REF)};
constexpr cairn_field renamed[] = {Field("x", 0, CAIRN_KIND_I64), Field("z", 8, CAIRN_KIND_REF)};
constexpr cairn_field swapped[] = {Field("y", 0, CAIRN_KIND_REF), Field("x", 8, CAIRN_KIND_I64)};
constexpr cairn_field retyped[] = {Field("x", 0, CAIRN_KIND_F64), Field("y", 8, CAIRN_KIND_REF)};
constexpr cairn_field moved[] = {Field("x", 0, CAIRN_KIND_I64), Field("y", 16, CAIRN_KIND_REF)};
}  // namespace fp_fields

TEST(GcAlloc, FingerprintDependsOnNamesKindsAndOrder) {
  using namespace fp_fields;
  const uint64_t fp_a = cairn::PlainType<a>("P", 16).fingerprint;
  EXPECT_NE(fp_a, cairn::PlainType<renamed>("P", 16).fingerprint);
  EXPECT_NE(fp_a, cairn::PlainType<swapped>("P", 16).fingerprint);
  EXPECT_NE(fp_a, cairn::PlainType<retyped>("P", 16).fingerprint);
  // Offsets are machine-dependent and not part of it.
  EXPECT_EQ(fp_a, cairn::PlainType<moved>("P", 24).fingerprint);
  EXPECT_NE(fp_a, cairn::PlainType<a>("Q", 16).fingerprint);
}

namespace malformed {
using cairn::Field;
// A builder-made descriptor with other reference offsets (its fingerprint, which does not cover
// offsets, stays valid).
constexpr cairn_type WithRefs(cairn_type t, const uint32_t *refs, uint32_t n) {
  t.refs = refs;
  t.nrefs = n;
  return t;
}
constexpr cairn_field kTwoRefs[] = {Field("a", 0, CAIRN_KIND_REF), Field("b", 8, CAIRN_KIND_REF)};
constexpr cairn_field kOneRef[] = {Field("r", 0, CAIRN_KIND_REF), Field("n", 8, CAIRN_KIND_I64)};
constexpr uint32_t unaligned[] = {4};
constexpr uint32_t outside[] = {16};
constexpr uint32_t unsorted[] = {8, 0};
constexpr uint32_t at8[] = {8};
constexpr cairn_type bad_align = WithRefs(cairn::PlainType<kOneRef>("bad.align", 16), unaligned, 1);
constexpr cairn_type bad_outside =
    WithRefs(cairn::PlainType<kOneRef>("bad.outside", 16), outside, 1);
constexpr cairn_type bad_order = WithRefs(cairn::PlainType<kTwoRefs>("bad.order", 16), unsorted, 2);
// refs well formed, but not where the REF field is (T6); and references with no fields at all.
constexpr cairn_type refs_elsewhere = WithRefs(cairn::PlainType<kOneRef>("bad.refs", 16), at8, 1);
constexpr cairn_type refs_unfielded = WithRefs(cairn::PlainType("bad.nofields", 16), at8, 1);
// A field outside the object, and fields out of offset order.
constexpr cairn_field kBeyond[] = {Field("n", 8, CAIRN_KIND_I64, 2)};
constexpr cairn_field kBackwards[] = {Field("m", 8, CAIRN_KIND_I64), Field("n", 0, CAIRN_KIND_I64)};
constexpr cairn_type field_outside = cairn::PlainType<kBeyond>("bad.field", 16);
constexpr cairn_type fields_backwards = cairn::PlainType<kBackwards>("bad.fieldorder", 16);
// An array of 12-byte elements with a reference each: odd elements' references would not be
// 8-aligned (T2), and one could cross a page of a large array.
constexpr cairn_field kRefAndInt[] = {Field("r", 0, CAIRN_KIND_REF), Field("n", 8, CAIRN_KIND_I32)};
constexpr cairn_type odd_elements = cairn::StructArrayType<kRefAndInt>("bad.[RefInt]", 12);
}  // namespace malformed

TEST(GcAlloc, MalformedDescriptorsAreRefusedWithAReason) {
  using namespace malformed;
  auto refused = [](const cairn_type &t, cairn_status want, const char *says) {
    EXPECT_EQ(cairn_register_type(&t), want) << t.name;
    const std::string msg = cairn_last_error();
    EXPECT_NE(msg.find(t.name), std::string::npos) << msg;
    EXPECT_NE(msg.find(says), std::string::npos) << t.name << ": " << msg;
    EXPECT_EQ(cairn_canonical_type(&t), nullptr) << t.name;
  };
  refused(bad_align, CAIRN_INVALID_ARGUMENT, "8-aligned");
  refused(bad_outside, CAIRN_INVALID_ARGUMENT, "outside");
  refused(bad_order, CAIRN_INVALID_ARGUMENT, "increasing");
  refused(refs_elsewhere, CAIRN_INVALID_ARGUMENT, "{8} are not those its fields describe {0}");
  refused(refs_unfielded, CAIRN_INVALID_ARGUMENT, "T6");
  refused(field_outside, CAIRN_INVALID_ARGUMENT, "field 'n' ends at byte 24");
  refused(fields_backwards, CAIRN_INVALID_ARGUMENT, "offset order");
  refused(odd_elements, CAIRN_INVALID_ARGUMENT, "not a multiple of 8");

  static cairn_type wrong_fp = cairn::PlainType("bad.fp", 16);
  wrong_fp.fingerprint ^= 1;
  EXPECT_EQ(cairn_register_type(&wrong_fp), CAIRN_INVALID_ARGUMENT);
  EXPECT_NE(std::string(cairn_last_error()).find("fingerprint"), std::string::npos);

  static cairn_type old_abi = cairn::PlainType("bad.abi", 16);
  old_abi.abi = 0;
  EXPECT_EQ(cairn_register_type(&old_abi), CAIRN_UNSUPPORTED);

  // A program compiled without the plugin passes its (small, zeroed) marker global: refused
  // without reading past it, with a hint about the plugin.
  static struct {
    int64_t a, b;
  } marker = {};
  EXPECT_EQ(cairn_register_type(reinterpret_cast<const cairn_type *>(&marker)), CAIRN_UNSUPPORTED);
  EXPECT_NE(std::string(cairn_last_error()).find("without the Cairn compiler plugin"),
            std::string::npos);
}

// Nested structs (a class's bases) up to CAIRN_MAX_NESTING deep are accepted, one more is
// refused: the bound was 32, and a Cairn program with 34 classes in a chain of bases died at
// start-up. Each level is a layout holding the one below as its only field.
TEST(GcAlloc, StructsNestedUpToTheBoundAreAcceptedAndDeeperRefused) {
  auto chain = [](int depth, std::vector<cairn_type> &types, std::vector<cairn_field> &fields,
                  std::vector<std::string> &names) {
    types.assign(size_t(depth) + 1, cairn_type{});
    fields.assign(size_t(depth) + 1, cairn_field{});
    names.resize(size_t(depth) + 1);
    for (int k = 0; k <= depth; k++) {
      names[k] = "nest" + std::to_string(depth) + "." + std::to_string(k);
      cairn_type &t = types[k];
      t.abi = CAIRN_TYPE_ABI;
      t.flags = k == depth ? 0 : CAIRN_TYPE_LAYOUT;
      t.name = names[k].c_str();
      t.size = 8;
      t.align = 8;
      t.nfields = 1;
      fields[k] = k == 0 ? cairn::Field("n", 0, CAIRN_KIND_I64)
                         : cairn::StructField("base", 0, types[k - 1], 1);
      t.fields = &fields[k];
      t.fingerprint = cairn_type_fingerprint_compute(&t);
    }
    return &types.back();
  };
  std::vector<cairn_type> types;
  std::vector<cairn_field> fields;
  std::vector<std::string> names;
  EXPECT_EQ(cairn_register_type(chain(CAIRN_MAX_NESTING, types, fields, names)), CAIRN_OK)
      << cairn_last_error();
  std::vector<cairn_type> deeper;
  std::vector<cairn_field> deeper_fields;
  std::vector<std::string> deeper_names;
  EXPECT_EQ(cairn_register_type(chain(CAIRN_MAX_NESTING + 1, deeper, deeper_fields, deeper_names)),
            CAIRN_INVALID_ARGUMENT);
  EXPECT_NE(std::string(cairn_last_error()).find("nested more than 1000 deep"), std::string::npos)
      << cairn_last_error();
}

TEST(GcAlloc, StatisticsCountAllocationAndCollections) {
  cairn_stats before, after;
  cairn_get_stats(&before);
  Node *volatile kept = NewNode(-1);
  for (int i = 0; i < 10000; i++) NewNode(i);
  cairn_collect();
  EXPECT_EQ(kept->id, -1);
  cairn_get_stats(&after);
  EXPECT_GE(after.bytes_allocated - before.bytes_allocated, 10000u * (8 + sizeof(Node)));
  EXPECT_GE(after.collections, before.collections + 1);
  EXPECT_GE(after.max_pause_ns, 1u);
  EXPECT_GE(after.total_pause_ns, after.max_pause_ns);
  EXPECT_GT(after.heap_pages, 0u);
  EXPECT_GE(after.peak_heap_pages, after.heap_pages);
}

TEST(GcAlloc, GarbageIsReclaimedAndTheHeapStaysBounded) {
  cairn_collect();
  cairn_stats s0;
  cairn_get_stats(&s0);
  const int rounds = cairn_gc_stress_build() ? 2000 : 400000;
  for (int i = 0; i < rounds; i++) NewNode(i);  // 400k x 40 bytes = 16 MB of garbage
  cairn_collect();
  cairn_stats s1;
  cairn_get_stats(&s1);
  EXPECT_LE(s1.heap_pages, s0.heap_pages + 8) << "garbage was not reclaimed";
  EXPECT_EQ(cairn_verify_heap(10), 0u);
}

TEST(GcAlloc, TheVerifierFindsABrokenReference) {
  Node *a = NewNode(1);
  Node *b = NewNode(2);
  a->left = b;
  EXPECT_EQ(cairn_verify_heap(10), 0u);
  a->left = reinterpret_cast<Node *>(reinterpret_cast<char *>(b) + 8);  // inside b, not its start
  EXPECT_EQ(cairn_verify_heap(0), 1u);
  a->left = b;
  EXPECT_EQ(cairn_verify_heap(10), 0u);
}
