// Pressure on the persistent arena (D10 of persist/persistence.h,
// cairn_persist_options.max_frames): a program that reads a database much larger than the frames it
// may use, committing as it goes, reads it all. Every loaded page's references hold frames, and the
// pages a reader went through stay reachable from the root (a tree), so a releasing collection
// alone frees nothing: the collection first evicts half the clean pages, and then releases what
// only they referred to. (A campaign's reader of a B-tree larger than the arena died after 3,030
// commits.)
#include <algorithm>
#include <string>

#include "child.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;

namespace {

// A tree: the root is an array of Groups() groups, each an array whose first kPerGroup slots hold
// leaves (kGroupSlots of them: one group to a page, so that loading one reserves the frames of
// its leaves only); a leaf is an int array of kLeafInts (two to a page), leaf k holding
// k * 1000 + i at i.
int64_t Groups() { return Scaled(60, 12); }
constexpr int64_t kPerGroup = 100;
constexpr int64_t kGroupSlots = 600;
constexpr int64_t kLeafInts = 480;
uint64_t MaxFrames() { return static_cast<uint64_t>(Scaled(1000, 300)); }

int64_t LeafValue(int64_t k, int64_t i) { return k * 1000 + i; }

}  // namespace

PERSIST_CHILD(FramePressure_Write) {
  OpenStore(args);
  cairn_db *db = CreateDb("tree");
  ExactRoot root;
  root.set(cairn_malloc_array(&cairn_ref_array_type, static_cast<size_t>(Groups())));
  for (int64_t g = 0; g < Groups(); g++) {
    void *group = cairn_malloc_array(&cairn_ref_array_type, kGroupSlots);
    ArrayData<void *>(root.get<void>())[g] = group;
    for (int64_t l = 0; l < kPerGroup; l++) {
      void *leaf = cairn_malloc_array(&cairn_i64_array_type, kLeafInts);
      const int64_t k = g * kPerGroup + l;
      for (int64_t i = 0; i < kLeafInts; i++) ArrayData<int64_t>(leaf)[i] = LeafValue(k, i);
      // `group` is read again from the root: the allocation may have moved it.
      ArrayData<void *>(ArrayData<void *>(root.get<void>())[g])[l] = leaf;
    }
  }
  CK_OK(cairn_txn_begin());
  CK_OK(cairn_db_set_root(db, root.get<void>()));
  CK_OK(cairn_txn_commit());
  return 0;
}

// Reads every leaf, a transaction per group, with max_frames a fraction of the pages read.
PERSIST_CHILD(FramePressure_Read) {
  cairn_persist_options opts{};
  opts.max_frames = MaxFrames();
  OpenStore(args, opts);
  cairn_db *db = OpenDb("tree");
  uint64_t most_in_use = 0;
  for (int64_t g = 0; g < Groups(); g++) {
    CK_OK(cairn_txn_begin());
    void *group = ArrayData<void *>(Root(db))[g];
    for (int64_t l = 0; l < kPerGroup; l++) {
      const void *leaf = ArrayData<void *>(group)[l];
      const int64_t k = g * kPerGroup + l;
      for (int64_t i = 0; i < kLeafInts; i += 97)
        CK_EQ(ArrayData<int64_t>(leaf)[i], LeafValue(k, i)) << "leaf " << k;
    }
    CK_OK(cairn_txn_commit());
    cairn_persist_stats s = Stats();
    most_in_use = std::max(most_in_use, s.resident_pages + s.reserved_frames);
  }
  cairn_persist_stats s = Stats();
  Say("pages_faulted=%lu frames_released=%lu pages_evicted=%lu most_in_use=%lu max_frames=%lu\n",
      s.pages_faulted, s.frames_released, s.pages_evicted, most_in_use, MaxFrames());
  const uint64_t leaf_pages = uint64_t(Groups() * kPerGroup / 2);
  CK(s.pages_faulted >= leaf_pages) << s.pages_faulted;
  CK(leaf_pages >= 2 * MaxFrames()) << "the database must be larger than the frames";
  CK(s.frames_released > 0) << "no frame was released";
  CK(s.pages_evicted > 0) << "no clean page was evicted to release frames";
  CK(most_in_use <= MaxFrames()) << most_in_use;
  return 0;
}

// Reads every leaf in one transaction, with max_frames a fraction of the pages read: no
// collection ends a commit, so the frames fill, and the fault is the error saying what to do.
PERSIST_CHILD(FramePressure_ReadInOneTransaction) {
  cairn_persist_options opts{};
  opts.max_frames = MaxFrames();
  OpenStore(args, opts);
  cairn_db *db = OpenDb("tree");
  CK_OK(cairn_txn_begin());
  for (int64_t g = 0; g < Groups(); g++) {
    void *group = ArrayData<void *>(Root(db))[g];
    for (int64_t l = 0; l < kPerGroup; l++) {
      const void *leaf = ArrayData<void *>(group)[l];
      CK_EQ(ArrayData<int64_t>(leaf)[0], LeafValue(g * kPerGroup + l, 0));
    }
  }
  CK_OK(cairn_txn_commit());
  return 0;
}

class PersistFramePressure : public PersistTest {};

TEST_F(PersistFramePressure, AReaderCommittingAsItGoesReadsADatabaseLargerThanItsFrames) {
  ASSERT_CHILD_OK(Run("FramePressure_Write"));
  ChildResult r = Run("FramePressure_Read");
  std::printf("%s", r.out.c_str());
  ASSERT_CHILD_OK(r);
}

TEST_F(PersistFramePressure, AReaderThatNeverCommitsIsToldWhatFillsTheFrames) {
  ASSERT_CHILD_OK(Run("FramePressure_Write"));
  ChildResult r = Run("FramePressure_ReadInOneTransaction");
  EXPECT_FALSE(r.ok()) << r.Describe();
  const std::string expect = "no room for 1 more frame(s) among the " +
                             std::to_string(MaxFrames()) +
                             " frames cairn_persist_options.max_frames allows";
  EXPECT_NE(r.err.find(expect), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("Commit (or checkpoint) now and then as it reads, or raise max_frames"),
            std::string::npos)
      << r.err;
}
