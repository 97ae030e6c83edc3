// The upgrade of a database to a program's changed types (cairn_db_upgrade, persist/upgrade.h
// U1-U5; the language's Database.upgrade): one program stores objects of its types; another,
// whose types of the same names have other fields, is refused by cairn_db_open (the message
// says how to upgrade), upgrades, and reads every value where it was, with the fields it adds at
// zero; objects that grew moved (a small one to a new page, a large one to a new run, a small
// one past the large-object size to a run), every reference to them followed them, and their
// identity hashes went with them; the database checks clean, and opens without converting
// again. A field whose type changed is refused, naming it, and nothing is written.
#include <cstring>
#include <string>

#include "cairn/graph_check.h"
#include "cairn/store.h"
#include "cairn/type_builder.hpp"
#include "child.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;

namespace {

int64_t Ups() { return Scaled(3000, 600); }  // more than one page of them, either version
constexpr int kBigData = 600;                // 4.8 KB: a large object, in a run of its own
constexpr int kGrowPad = 600;

// Version 1 of ptest.Up: {id, next, note}.
struct UpV1 {
  int64_t id;
  void *next;
  void *note;  // an int array holding id
};
constexpr cairn_field kUpV1Fields[] = {
    Field("id", offsetof(UpV1, id), CAIRN_KIND_I64),
    Field("next", offsetof(UpV1, next), CAIRN_KIND_REF),
    Field("note", offsetof(UpV1, note), CAIRN_KIND_REF),
};
constexpr cairn_type kUpV1 = cairn::PlainType<kUpV1Fields>("ptest.Up", sizeof(UpV1));

// Version 2: a field added before, one after, the others reordered: it grows (it moves).
struct UpV2 {
  double weight;
  int64_t id;
  void *note;
  void *next;
  int64_t tag;
};
constexpr cairn_field kUpV2Fields[] = {
    Field("weight", offsetof(UpV2, weight), CAIRN_KIND_F64),
    Field("id", offsetof(UpV2, id), CAIRN_KIND_I64),
    Field("note", offsetof(UpV2, note), CAIRN_KIND_REF),
    Field("next", offsetof(UpV2, next), CAIRN_KIND_REF),
    Field("tag", offsetof(UpV2, tag), CAIRN_KIND_I64),
};
constexpr cairn_type kUpV2 = cairn::PlainType<kUpV2Fields>("ptest.Up", sizeof(UpV2));

// A version whose `id` is a float: not convertible.
constexpr cairn_field kUpBadFields[] = {
    Field("id", offsetof(UpV1, id), CAIRN_KIND_F64),
    Field("next", offsetof(UpV1, next), CAIRN_KIND_REF),
    Field("note", offsetof(UpV1, note), CAIRN_KIND_REF),
};
constexpr cairn_type kUpBad = cairn::PlainType<kUpBadFields>("ptest.Up", sizeof(UpV1));

// ptest.Swap: the same fields in another order, the same size: converted in place.
struct SwapV1 {
  int64_t a;
  void *b;
};
struct SwapV2 {
  void *b;
  int64_t a;
};
constexpr cairn_field kSwapV1Fields[] = {Field("a", offsetof(SwapV1, a), CAIRN_KIND_I64),
                                         Field("b", offsetof(SwapV1, b), CAIRN_KIND_REF)};
constexpr cairn_field kSwapV2Fields[] = {Field("b", offsetof(SwapV2, b), CAIRN_KIND_REF),
                                         Field("a", offsetof(SwapV2, a), CAIRN_KIND_I64)};
constexpr cairn_type kSwapV1 = cairn::PlainType<kSwapV1Fields>("ptest.Swap", sizeof(SwapV1));
constexpr cairn_type kSwapV2 = cairn::PlainType<kSwapV2Fields>("ptest.Swap", sizeof(SwapV2));

// ptest.Big: a large object that grows (a new run).
struct BigV1 {
  int64_t n;
  int64_t data[kBigData];
};
struct BigV2 {
  int64_t data[kBigData];
  int64_t n;
  int64_t extra;
};
constexpr cairn_field kBigV1Fields[] = {
    Field("n", offsetof(BigV1, n), CAIRN_KIND_I64),
    Field("data", offsetof(BigV1, data), CAIRN_KIND_I64, kBigData)};
constexpr cairn_field kBigV2Fields[] = {
    Field("data", offsetof(BigV2, data), CAIRN_KIND_I64, kBigData),
    Field("n", offsetof(BigV2, n), CAIRN_KIND_I64),
    Field("extra", offsetof(BigV2, extra), CAIRN_KIND_I64)};
constexpr cairn_type kBigV1 = cairn::PlainType<kBigV1Fields>("ptest.Big", sizeof(BigV1));
constexpr cairn_type kBigV2 = cairn::PlainType<kBigV2Fields>("ptest.Big", sizeof(BigV2));

// ptest.Grow: a small object that becomes large.
struct GrowV1 {
  int64_t a;
};
struct GrowV2 {
  int64_t a;
  int64_t pad[kGrowPad];
};
constexpr cairn_field kGrowV1Fields[] = {Field("a", offsetof(GrowV1, a), CAIRN_KIND_I64)};
constexpr cairn_field kGrowV2Fields[] = {
    Field("a", offsetof(GrowV2, a), CAIRN_KIND_I64),
    Field("pad", offsetof(GrowV2, pad), CAIRN_KIND_I64, kGrowPad)};
constexpr cairn_type kGrowV1 = cairn::PlainType<kGrowV1Fields>("ptest.Grow", sizeof(GrowV1));
constexpr cairn_type kGrowV2 = cairn::PlainType<kGrowV2Fields>("ptest.Grow", sizeof(GrowV2));

// The root: an array of references (a run of its own): Ups() Ups, then a Big, a Grow, a Swap,
// and a chain of kKept Nodes, each of which held an Up of its own (dead now, on the Nodes' pages).
int64_t Slots() { return Ups() + 4; }
int64_t BigSlot() { return Ups(); }
int64_t GrowSlot() { return Ups() + 1; }
int64_t SwapSlot() { return Ups() + 2; }
int64_t KeptSlot() { return Ups() + 3; }
constexpr int kKept = 20;
constexpr int kHashed = 10;  // Ups 0..4 hashed while transient, 5..9 once persistent

void Register(std::initializer_list<const cairn_type *> types) {
  for (const cairn_type *t : types) CK_OK(cairn_register_type(t));
}

void *IntArray(int64_t v) {
  void *a = cairn_malloc_array(&cairn_i64_array_type, 1);
  ArrayData<int64_t>(a)[0] = v;
  return a;
}

void SayHashes(void *root) {
  std::string line = "hashes";
  for (int k = 0; k < kHashed; k++)
    line += " " + std::to_string(cairn_identity_hash(ArrayData<void *>(root)[k]));
  Say("%s\n", line.c_str());
}

// Checks every value of the upgraded database (version 2 types).
void CheckV2(cairn_db *db) {
  void *root = Root(db);
  CK_EQ(static_cast<int64_t>(cairn_array_length(root)), Slots());
  for (int64_t i = 0; i < Ups(); i++) {
    const UpV2 *u = ArrayData<const UpV2 *>(root)[i];
    CK(cairn_type_of(u) == &kUpV2) << "Up " << i;
    CK_EQ(u->id, i);
    CK_EQ(u->weight, 0.0);
    CK_EQ(u->tag, 0);
    CK_EQ(ArrayData<int64_t>(u->note)[0], i);
    if (i == 0)
      CK(u->next == nullptr);
    else
      CK(u->next == ArrayData<const UpV2 *>(root)[i - 1]) << "Up " << i << "'s next";
  }
  const BigV2 *big = ArrayData<const BigV2 *>(root)[BigSlot()];
  CK(cairn_type_of(big) == &kBigV2);
  CK_EQ(big->n, 7);
  CK_EQ(big->extra, 0);
  for (int k = 0; k < kBigData; k++) CK_EQ(big->data[k], k * 3);
  const GrowV2 *grow = ArrayData<const GrowV2 *>(root)[GrowSlot()];
  CK(cairn_type_of(grow) == &kGrowV2);
  CK_EQ(grow->a, 99);
  for (int k = 0; k < kGrowPad; k++) CK_EQ(grow->pad[k], 0);
  const SwapV2 *swap = ArrayData<const SwapV2 *>(root)[SwapSlot()];
  CK(cairn_type_of(swap) == &kSwapV2);
  CK_EQ(swap->a, 5);
  CK(swap->b == ArrayData<const void *>(root)[3]);
  int kept = 0;
  for (const Node *n = ArrayData<const Node *>(root)[KeptSlot()]; n; n = n->left, kept++) {
    CK(n->right == nullptr);
    CK_EQ(n->value, n->id * 7 + 1);
  }
  CK_EQ(kept, kKept);
}

void CheckGraphClean(const ChildArgs &args, const char *name) {
  std::unique_ptr<cairn::store::Store> store;
  cairn::Status s = cairn::store::Store::Open(args.store, cairn::store::StoreOptions{}, &store);
  CK(s.ok()) << s.ToString();
  cairn::store::CheckReport report;
  s = store->Check(name, &report);
  CK(s.ok()) << s.ToString();
  s = cairn::persist::CheckObjectGraph(*store, name, &report);
  CK(s.ok()) << s.ToString();
  for (const std::string &p : report.problems) Say("problem: %s\n", p.c_str());
  CK(report.clean());
  CK_EQ(report.pages_unreached, 0u);
  CK_EQ(report.dead_objects, 0u);
  Say("graph objects=%lu fillers=%lu\n", report.objects, report.fillers);
}

}  // namespace

PERSIST_CHILD(Upgrade_WriteV1) {
  OpenStore(args);
  Register({&kUpV1, &kSwapV1, &kBigV1, &kGrowV1});
  cairn_db *db = CreateDb("up");
  ExactRoot root;
  root.set(cairn_malloc_array(&cairn_ref_array_type, static_cast<size_t>(Slots())));
  for (int64_t i = 0; i < Ups(); i++) {
    void *note = IntArray(i);
    ExactRoot keep;
    keep.set(note);
    auto *u = static_cast<UpV1 *>(cairn_malloc_typed(&kUpV1));
    u->id = i;
    u->note = keep.get<void>();
    u->next = i ? ArrayData<void *>(root.get<void>())[i - 1] : nullptr;
    ArrayData<void *>(root.get<void>())[i] = u;
  }
  auto *big = static_cast<BigV1 *>(cairn_malloc_typed(&kBigV1));
  big->n = 7;
  for (int k = 0; k < kBigData; k++) big->data[k] = k * 3;
  ArrayData<void *>(root.get<void>())[BigSlot()] = big;
  auto *grow = static_cast<GrowV1 *>(cairn_malloc_typed(&kGrowV1));
  grow->a = 99;
  ArrayData<void *>(root.get<void>())[GrowSlot()] = grow;
  auto *swap = static_cast<SwapV1 *>(cairn_malloc_typed(&kSwapV1));
  swap->a = 5;
  swap->b = ArrayData<void *>(root.get<void>())[3];
  ArrayData<void *>(root.get<void>())[SwapSlot()] = swap;
  // Hashed while transient: recorded with the object when it is made persistent.
  for (int k = 0; k < kHashed / 2; k++) cairn_identity_hash(ArrayData<void *>(root.get<void>())[k]);
  CK_OK(cairn_txn_begin());
  CK_OK(cairn_db_set_root(db, root.get<void>()));
  CK_OK(cairn_txn_commit());
  // Dead Ups beside live objects: made persistent with Nodes, then dropped from them.
  CK_OK(cairn_txn_begin());
  {
    ExactRoot chain;
    for (int k = 0; k < kKept; k++) {
      auto *u = static_cast<UpV1 *>(cairn_malloc_typed(&kUpV1));
      u->id = -1;
      chain.set(NewNode(k, chain.get(), reinterpret_cast<Node *>(u)));
    }
    ArrayData<void *>(Root(db))[KeptSlot()] = chain.get();
  }
  CK_OK(cairn_txn_commit());
  CK_OK(cairn_txn_begin());
  for (Node *n = ArrayData<Node *>(Root(db))[KeptSlot()]; n; n = n->left) n->right = nullptr;
  CK_OK(cairn_txn_commit());
  CK_OK(cairn_txn_begin());
  SayHashes(Root(db));
  CK_OK(cairn_txn_commit());
  return 0;
}

// The version 1 program reads its database (after a refused upgrade: as it was).
PERSIST_CHILD(Upgrade_ReadV1) {
  OpenStore(args);
  Register({&kUpV1, &kSwapV1, &kBigV1, &kGrowV1});
  cairn_db *db = OpenDb("up");
  CK_OK(cairn_txn_begin());
  void *root = Root(db);
  for (int64_t i = 0; i < Ups(); i++) CK_EQ(ArrayData<const UpV1 *>(root)[i]->id, i);
  CK_EQ(ArrayData<const GrowV1 *>(root)[GrowSlot()]->a, 99);
  SayHashes(root);
  CK_OK(cairn_txn_commit());
  return 0;
}

// Version 2: refused by open, upgraded, every value checked; the hashes said.
PERSIST_CHILD(Upgrade_UpgradeToV2) {
  OpenStore(args);
  Register({&kUpV2, &kSwapV2, &kBigV2, &kGrowV2});
  cairn_db *db = nullptr;
  CK_STATUS(cairn_db_open("up", &db), CAIRN_TYPE_MISMATCH);
  const std::string refusal = cairn_last_error();
  CK(refusal.find("open it with Database.upgrade(\"up\")") != std::string::npos) << refusal;
  cairn_upgrade_report report{};
  CK_OK(cairn_db_upgrade("up", &db, &report));
  Say("types=%lu converted=%lu moved=%lu written=%lu freed=%lu\n", report.types_converted,
      report.objects_converted, report.objects_moved, report.pages_written, report.pages_freed);
  CK_EQ(report.types_converted, 4u);
  // Every Up, the Big, the Grow and the Swap; the Swaps that held the dead Ups were dead.
  CK_EQ(report.objects_converted, uint64_t(Ups()) + 3);
  CK_EQ(report.objects_moved, uint64_t(Ups()) + 2);  // all but the Swap, which kept its size
  CK(report.pages_freed > 0) << "the pages the Ups left";
  // U7: what was converted is said, type by type.
  const std::string summary = report.summary;
  CK(summary.find("'ptest.Up': " + std::to_string(Ups()) +
                  " objects converted; field 'weight' added (zero); field 'tag' added (zero)") !=
     std::string::npos)
      << summary;
  CK(summary.find("'ptest.Swap': 1 object converted") != std::string::npos) << summary;
  CK_OK(cairn_txn_begin());
  CheckV2(db);
  SayHashes(Root(db));
  CK_OK(cairn_txn_commit());
  return 0;
}

// Version 2 again: open converts nothing; a commit writes to the upgraded objects.
PERSIST_CHILD(Upgrade_OpenV2) {
  OpenStore(args);
  Register({&kUpV2, &kSwapV2, &kBigV2, &kGrowV2});
  cairn_upgrade_report report{};
  cairn_db *db = nullptr;
  CK_OK(cairn_db_upgrade("up", &db, &report));
  CK_EQ(report.types_converted, 0u);
  CK_EQ(report.pages_written, 0u);
  CK_OK(cairn_txn_begin());
  CheckV2(db);
  ArrayData<UpV2 *>(Root(db))[1]->tag = 11;
  CK_OK(cairn_txn_commit());
  CK_OK(cairn_txn_begin());
  CK_EQ(ArrayData<UpV2 *>(Root(db))[1]->tag, 11);
  SayHashes(Root(db));
  CK_OK(cairn_txn_commit());
  return 0;
}

// The version 1 program after the upgrade: refused by open (told of the upgrade), it upgrades
// back, and reads every value (a field version 2 added is gone, one it dropped is zero).
PERSIST_CHILD(Upgrade_BackToV1) {
  OpenStore(args);
  Register({&kUpV1, &kSwapV1, &kBigV1, &kGrowV1});
  cairn_db *db = nullptr;
  CK_STATUS(cairn_db_open("up", &db), CAIRN_TYPE_MISMATCH);
  const std::string refusal = cairn_last_error();
  CK(refusal.find("database 'up' was upgraded to another definition of type 'ptest.") !=
     std::string::npos)
      << refusal;
  cairn_upgrade_report report{};
  CK_OK(cairn_db_upgrade("up", &db, &report));
  CK_EQ(report.types_converted, 4u);
  // U7: the fields version 2 added are dropped, and the one value set in one of them is said.
  const std::string summary = report.summary;
  CK(summary.find("field 'weight' dropped; field 'tag' dropped with the values of 1 object") !=
     std::string::npos)
      << summary;
  CK_OK(cairn_txn_begin());
  void *root = Root(db);
  for (int64_t i = 0; i < Ups(); i++) {
    const UpV1 *u = ArrayData<const UpV1 *>(root)[i];
    CK(cairn_type_of(u) == &kUpV1);
    CK_EQ(u->id, i);
    CK_EQ(ArrayData<int64_t>(u->note)[0], i);
    CK(u->next == (i ? ArrayData<const UpV1 *>(root)[i - 1] : nullptr));
  }
  const BigV1 *big = ArrayData<const BigV1 *>(root)[BigSlot()];
  CK_EQ(big->n, 7);
  for (int k = 0; k < kBigData; k++) CK_EQ(big->data[k], k * 3);
  CK_EQ(ArrayData<const GrowV1 *>(root)[GrowSlot()]->a, 99);
  CK_EQ(ArrayData<const SwapV1 *>(root)[SwapSlot()]->a, 5);
  SayHashes(root);
  CK_OK(cairn_txn_commit());
  return 0;
}

PERSIST_CHILD(Upgrade_Bad) {
  OpenStore(args);
  Register({&kUpBad, &kSwapV1, &kBigV1, &kGrowV1});
  cairn_db *db = nullptr;
  CK_STATUS(cairn_db_upgrade("up", &db, nullptr), CAIRN_TYPE_MISMATCH);
  Say("error: %s\n", cairn_last_error());
  return 0;
}

PERSIST_CHILD(Upgrade_CheckStore) {
  CheckGraphClean(args, "up");
  return 0;
}

class PersistUpgrade : public PersistTest {};

std::string HashesOf(const ChildResult &r) {
  const size_t at = r.out.find("hashes ");
  return at == std::string::npos ? "" : r.out.substr(at, r.out.find('\n', at) - at);
}

TEST_F(PersistUpgrade, ChangedTypesAreConvertedAndEverythingStaysWhereItWas) {
  ChildResult w = Run("Upgrade_WriteV1");
  ASSERT_CHILD_OK(w);
  const std::string hashes = HashesOf(w);
  ASSERT_FALSE(hashes.empty()) << w.out;
  ChildResult u = Run("Upgrade_UpgradeToV2");
  std::printf("%s", u.out.c_str());
  ASSERT_CHILD_OK(u);
  EXPECT_EQ(HashesOf(u), hashes) << "identity hashes changed by the upgrade";
  ChildResult c = Run("Upgrade_CheckStore");
  std::printf("%s", c.out.c_str());
  ASSERT_CHILD_OK(c);
  ChildResult o = Run("Upgrade_OpenV2");
  ASSERT_CHILD_OK(o);
  EXPECT_EQ(HashesOf(o), hashes);
  ChildResult back = Run("Upgrade_BackToV1");
  ASSERT_CHILD_OK(back);
  EXPECT_EQ(HashesOf(back), hashes);
  ASSERT_CHILD_OK(Run("Upgrade_CheckStore"));
}

TEST_F(PersistUpgrade, AFieldOfAnotherTypeIsRefusedAndNothingIsWritten) {
  ASSERT_CHILD_OK(Run("Upgrade_WriteV1"));
  ChildResult b = Run("Upgrade_Bad");
  ASSERT_CHILD_OK(b);
  EXPECT_NE(b.out.find("type 'ptest.Up' in database 'up' cannot be upgraded to this program's "
                       "definition: field 'id' is i64 in the database and f64 here"),
            std::string::npos)
      << b.out;
  EXPECT_NE(b.out.find("Nothing was converted"), std::string::npos) << b.out;
  ASSERT_CHILD_OK(Run("Upgrade_ReadV1"));
}
