// Stale references in dead frames do not make pages persistent ambiguously: a commit zeroes the
// dead stack below its caller before it scans the stack (runtime/src/util/stack_scrub.h). Here a
// function makes the root and a node reached from it and leaves thousands of copies of their
// addresses in its frame, then returns; the commit that follows is built over those words and
// must still copy both objects (accurately) instead of making their pages persistent in place.
#include <cstdint>

#include "child.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;

namespace {

constexpr int kCopies = 4096;  // 32 KiB of stale words

// Leaves copies of a and b all over its frame, which is dead once it returns.
__attribute__((noinline)) void Litter(const void *a, const void *b) {
  volatile uintptr_t litter[kCopies];
  for (int i = 0; i < kCopies; i++) litter[i] = reinterpret_cast<uintptr_t>(i % 2 ? a : b);
  asm volatile("" : : "r"(litter) : "memory");
}

// The root (id 1) and a node reached from it (id 2), with their addresses left in the dead
// stack below a clean stretch of 256 bytes: where the commit's frames will be built, but not where
// the frames of the API function that does the scrubbing are (a stale word there would still be
// seen: the scrub cannot clear its own frame).
__attribute__((noinline)) void BuildAndLitter(cairn_db *db) {
  Node *root = NewNode(1);
  root->left = NewNode(2);
  CK_OK(cairn_db_set_root(db, root));
  volatile char clean[256] = {};
  asm volatile("" : : "r"(clean) : "memory");
  Litter(root, root->left);
}

}  // namespace

PERSIST_CHILD(DeadStack_Commit) {
  OpenStore(args);
  cairn_db *db = CreateDb("dead");
  CK_OK(cairn_txn_begin());
  BuildAndLitter(db);
  CK_OK(cairn_txn_commit());
  cairn_persist_stats s = LastCommitStats();
  SayStats("", s);
  CK_EQ(s.pages_ambiguous, 0u) << "a stale word in a dead frame pinned a page at the commit";
  CK_EQ(LastCommitObjectsOf("ptest.Node"), 2u);
  CK_OK(cairn_txn_begin());
  Node *root = RootAs<Node>(db);
  CK_EQ(root->id, 1);
  CK_EQ(root->left->id, 2);
  CK_OK(cairn_txn_commit());
  return 0;
}

class PersistDeadStack : public PersistTest {};

TEST_F(PersistDeadStack, StaleWordsInDeadFramesDoNotPinPagesAtCommit) {
  ASSERT_CHILD_OK(Run("DeadStack_Commit"));
}
