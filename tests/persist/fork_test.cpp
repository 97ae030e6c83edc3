// fork() in a process with a store open (runtime/store/fork_guard.h, F1-F3): a child that uses
// the store gets CAIRN_MISUSE saying why, and none of its commits reach the disk; a child that
// exits, exits (with its status, its output flushed), instead of waiting forever in RocksDB's
// destructors; the parent's commits before and after the fork are all there; a child that
// outlives its parent does not keep the store locked.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "child.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;

namespace {

// Waits for `pid` at most `seconds`; its exit status, or -1 if it did not end (it is killed).
int WaitAtMost(pid_t pid, double seconds) {
  auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  for (;;) {
    int status = 0;
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (std::chrono::steady_clock::now() > until) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// In the child: `call` must have been refused with CAIRN_MISUSE naming fork(); else the child
// ends with status 20 + `step`.
void ExpectRefused(cairn_status s, int step) {
  std::string msg = cairn_last_error();
  if (s != CAIRN_MISUSE || msg.find("fork()") == std::string::npos) {
    std::fprintf(stderr, "child step %d: %s: %s\n", step, cairn_status_name(s), msg.c_str());
    std::fflush(stderr);
    _exit(20 + step);
  }
}

int64_t RootValue(cairn_db *db) {
  CK_OK(cairn_txn_begin());
  int64_t v = RootAs<Node>(db)->value;
  CK_OK(cairn_txn_abort());
  return v;
}

void SetRootValue(cairn_db *db, int64_t value) {
  CK_OK(cairn_txn_begin());
  Node *n = NewNode(value);
  n->value = value;
  CK_OK(cairn_db_set_root(db, n));
  CK_OK(cairn_txn_commit());
}

}  // namespace

// A child that tries everything: a new transaction, a commit of a transaction open at the fork,
// opening and creating databases. Then it exits with exit(): the status must come through.
PERSIST_CHILD(Fork_ChildUsesTheStore) {
  OpenStore(args);
  cairn_db *db = CreateDb("forked");
  SetRootValue(db, 1);
  // A transaction open at the fork, with a change pending.
  CK_OK(cairn_txn_begin());
  Node *root = RootAs<Node>(db);
  root->value = 2;
  std::fflush(nullptr);
  pid_t pid = fork();
  CK(pid >= 0);
  if (pid == 0) {
    root->value = 666;  // the child's own copy
    ExpectRefused(cairn_txn_commit(), 1);
    ExpectRefused(cairn_txn_checkpoint(), 2);
    cairn_txn_abort();  // allowed, and touches nothing of the parent's
    ExpectRefused(cairn_txn_begin(), 3);
    cairn_db *other = nullptr;
    ExpectRefused(cairn_db_create("child", &other), 4);
    int exists = 0;
    ExpectRefused(cairn_db_exists("forked", &exists), 5);
    std::printf("CHILD_REFUSED");  // no newline: exit must flush it
    std::exit(7);
  }
  CK_EQ(WaitAtMost(pid, 30), 7);
  // The parent goes on: its open transaction commits, and so do the next ones.
  CK_EQ(root->value, 2);
  CK_OK(cairn_txn_commit());
  CK_EQ(RootValue(db), 2);
  SetRootValue(db, 3);
  Say("\nPARENT_DONE\n");
  return 0;
}

// A child that only exits (exit() and a return from a function that ends in exit) while the
// parent keeps committing: it must end at once with its status.
PERSIST_CHILD(Fork_ChildExits) {
  OpenStore(args);
  cairn_db *db = CreateDb("forked");
  for (int round = 0; round < 5; round++) {
    SetRootValue(db, 10 + round);
    std::fflush(nullptr);
    pid_t pid = fork();
    CK(pid >= 0);
    if (pid == 0) std::exit(round);
    CK_EQ(WaitAtMost(pid, 30), round);
  }
  SetRootValue(db, 20);
  return 0;
}

// The parent ends while its child still runs: the store must not stay locked by the child.
PERSIST_CHILD(Fork_ParentEndsFirst) {
  OpenStore(args);
  cairn_db *db = CreateDb("forked");
  SetRootValue(db, 30);
  std::fflush(nullptr);
  pid_t pid = fork();
  CK(pid >= 0);
  if (pid == 0) {
    // Off the test's pipes (the parent test waits for them to close), then just live on.
    int devnull = open("/dev/null", O_RDWR);
    dup2(devnull, 1);
    dup2(devnull, 2);
    std::this_thread::sleep_for(std::chrono::seconds(6));
    _exit(0);
  }
  Say("CHILD_PID=%d\n", static_cast<int>(pid));
  return 0;
}

PERSIST_CHILD(Fork_Check) {
  OpenStore(args);
  cairn_db *db = OpenDb("forked");
  CK_EQ(RootValue(db), args.Int(0));
  int exists = 1;
  CK_OK(cairn_db_exists("child", &exists));
  CK_EQ(exists, 0);
  return 0;
}

class PersistFork : public PersistTest {};

TEST_F(PersistFork, AChildIsRefusedTheStoreAndTheParentLosesNothing) {
  ChildResult r = Run("Fork_ChildUsesTheStore", {}, {}, 60);
  ASSERT_CHILD_OK(r);
  EXPECT_NE(r.out.find("CHILD_REFUSED"), std::string::npos) << r.Describe();
  EXPECT_NE(r.out.find("PARENT_DONE"), std::string::npos) << r.Describe();
  ASSERT_CHILD_OK(Run("Fork_Check", {"3"}));
}

TEST_F(PersistFork, AChildThatExitsExitsWithItsStatus) {
  ASSERT_CHILD_OK(Run("Fork_ChildExits", {}, {}, 120));
  ASSERT_CHILD_OK(Run("Fork_Check", {"20"}));
}

TEST_F(PersistFork, AChildOutlivingItsParentDoesNotHoldTheStore) {
  ChildResult r = Run("Fork_ParentEndsFirst");
  ASSERT_CHILD_OK(r);
  pid_t child = static_cast<pid_t>(ValueOf(r, "CHILD_PID"));
  ASSERT_GT(child, 0);
  ASSERT_EQ(kill(child, 0), 0) << "the forked child should still be running";
  ASSERT_CHILD_OK(Run("Fork_Check", {"30"}));
}
