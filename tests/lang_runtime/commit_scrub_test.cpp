// The entry points that commit (cairn_lang_txn_commit, _chain, _checkpoint and
// cairn_lang_atomic_commit) zero the dead stack below their caller before any of their frames
// exist (runtime/src/lang/transaction.cpp): a program whose last call left the address of what
// it made in every word of its dead frame, right below the caller, commits it by copying
// (accurately), not by making its page persistent in place (ambiguously).
#include <cstdint>
#include <string>

#include "program.h"

namespace cairn_langtest {
namespace {

constexpr int kCopies = 4096;

// Makes the root (a text) and leaves its address in every word of this frame, which is dead once
// it returns and lies right below the caller's.
__attribute__((noinline)) void MakeRootAndLitter(cairn_db *db) {
  void *root = Text("the root");
  cairn_lang_db_set_root(&kLoc, db, root);
  volatile uintptr_t litter[kCopies];
  for (int i = 0; i < kCopies; i++) litter[i] = reinterpret_cast<uintptr_t>(root);
  asm volatile("" : : "r"(litter) : "memory");
}

// Commits with each of the four entry points in turn; prints the ambiguous pages of each.
LANG_PROGRAM(CommitOverLitter) {
  cairn_db *db = cairn_lang_db_create(&kLoc, Text("litter"));
  cairn_lang_atomic_begin(&kLoc);
  MakeRootAndLitter(db);
  cairn_lang_atomic_commit(&kLoc);
  Say("atomic " + std::to_string(cairn_sys_last_commit_stat(7)) + "\n");
  int64_t t = cairn_lang_txn_begin(&kLoc);
  MakeRootAndLitter(db);
  cairn_lang_txn_checkpoint(&kLoc, t);
  Say("checkpoint " + std::to_string(cairn_sys_last_commit_stat(7)) + "\n");
  MakeRootAndLitter(db);
  cairn_lang_txn_chain(&kLoc, t);
  Say("chain " + std::to_string(cairn_sys_last_commit_stat(7)) + "\n");
  MakeRootAndLitter(db);
  cairn_lang_txn_commit(&kLoc, t);
  Say("commit " + std::to_string(cairn_sys_last_commit_stat(7)) + "\n");
}

TEST(CommitScrubTest, NoStaleWordPinsAPageAtACommit) {
  cairn_ptest::TempDir dir;
  ChildResult r = RunProgram("CommitOverLitter", {}, dir.Sub("store"));
  ASSERT_TRUE(r.ok()) << r.Describe();
  EXPECT_EQ(r.out, "atomic 0\ncheckpoint 0\nchain 0\ncommit 0\n");
}

}  // namespace
}  // namespace cairn_langtest
