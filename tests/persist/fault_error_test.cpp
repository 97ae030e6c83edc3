// An error while faulting a page in (a type the program lacks, a damaged page) goes to the hook
// the embedder installed (cairn_set_fault_error_hook), which jumps back (siglongjmp) as the REPL
// will: the transaction is failed (commit refused), abort works, the heap verifies, and the
// process goes on using the database, whose contents are as the last commit left them. The
// page fails the same way the next time, from cairn_make_resident too, and outside a
// transaction. A hook that returns stops the program as if there were none. cairn_load_for_read
// returns the error instead of calling the hook.
#include <csetjmp>
#include <cstring>
#include <string>

#include "child.h"
#include "fault_db.h"
#include "persist_test.h"

using namespace cairn_ptest;

namespace {

sigjmp_buf back;
int hook_calls = 0;
cairn_fault_error seen{};
std::string seen_message, seen_database;

void JumpBack(const cairn_fault_error *e, void *ctx) {
  CK_EQ(*static_cast<int *>(ctx), 42);
  hook_calls++;
  seen = *e;
  seen_message = e->message;
  seen_database = e->database;
  Say("HOOK code=%s transaction_failed=%d page=%lu\n", cairn_status_name(e->code),
      e->transaction_failed, static_cast<unsigned long>(e->page));
  siglongjmp(back, 1);
}

void ReturnFromHook(const cairn_fault_error *, void *) {
  hook_calls++;
  Say("HOOK_RETURNS\n");
}

int hook_ctx = 42;

// The store with database "faulty" open, JumpBack as the fault hook; variant "damaged"
// registers ptest.Blob (its page is damaged instead), "lacks" does not.
cairn_db *OpenFaulty(const ChildArgs &args, const std::string &variant) {
  OpenStore(args);
  if (variant == "damaged") {
    CK_OK(cairn_register_type(&kBlobType));
  }
  cairn_set_fault_error_hook(JumpBack, &hook_ctx);
  return OpenDb("faulty");
}

}  // namespace

// args: lacks (the program does not define ptest.Blob) | damaged (it does; the page is damaged)
PERSIST_CHILD(FaultError_Recover) {
  const std::string variant = args.args.at(0);
  cairn_db *db = OpenFaulty(args, variant);

  // 1. A fault in the program's own code, with a change to a persistent object pending.
  CK_OK(cairn_txn_begin());
  Node *root = RootAs<Node>(db);
  CK_EQ(root->value, kRootValue);
  root->value = 999;  // must never reach the disk
  Blob *volatile blob = reinterpret_cast<Blob *>(root->left);
  if (sigsetjmp(back, 1) == 0) {
    int64_t tag = *static_cast<volatile int64_t *>(&blob->tag);
    Say("READ tag=%ld\n", static_cast<long>(tag));
    return 3;
  }
  CK_EQ(hook_calls, 1);
  CK_EQ(seen.code, variant == "lacks" ? CAIRN_TYPE_MISMATCH : CAIRN_CORRUPTION);
  CK(seen_message.find(variant == "lacks" ? "ptest.Blob" : "not a type index") != std::string::npos)
      << seen_message;
  CK(seen_message.find("faulty") != std::string::npos) << seen_message;
  CK_EQ(seen_database, "faulty");
  CK(seen.page > 0);
  CK_EQ(seen.address, static_cast<void *>(blob));
  CK_EQ(seen.transaction_failed, 1);
  CK_EQ(std::string(cairn_last_error()), seen_message);
#if defined(__x86_64__) || defined(__aarch64__)
  CK(seen.pc != nullptr);  // the touching instruction, from the signal's context
#endif

  // 2. The transaction is failed: only abort is allowed.
  CK_EQ(cairn_txn_is_open(), 1);
  CK_STATUS(cairn_txn_commit(), CAIRN_MISUSE);
  CK(std::string(cairn_last_error()).find("failed") != std::string::npos) << cairn_last_error();
  void *r = nullptr;
  CK_STATUS(cairn_db_get_root(db, &r), CAIRN_MISUSE);
  CK_OK(cairn_txn_abort());
  CK_EQ(cairn_txn_is_open(), 0);

  // 3. The heap is sound, before and after a collection.
  CK_EQ(cairn_verify_heap(10), 0u);
  cairn_collect();
  CK_EQ(cairn_verify_heap(10), 0u);

  // 4. The database is as committed (999 was discarded), and usable.
  CK_OK(cairn_txn_begin());
  root = RootAs<Node>(db);
  CK_EQ(root->value, kRootValue);
  CK_EQ(root->right->id, 2);
  root->value = 5;
  root->right = NewNode(3);
  CK_OK(cairn_txn_commit());

  // 5. The page fails again the same way, here from cairn_make_resident.
  CK_OK(cairn_txn_begin());
  root = RootAs<Node>(db);
  blob = reinterpret_cast<Blob *>(root->left);
  if (sigsetjmp(back, 1) == 0) {
    cairn_make_resident(blob, sizeof(int64_t));
    return 4;
  }
  CK_EQ(hook_calls, 2);
  CK_EQ(seen.transaction_failed, 1);
  CK_EQ(seen.pc, nullptr);  // no signal: the hook's callers made the touch
  CK_OK(cairn_txn_abort());

  // 6. And outside a transaction (read through a short one of its own): nothing to fail.
  if (sigsetjmp(back, 1) == 0) {
    int64_t tag = *static_cast<volatile int64_t *>(&blob->tag);
    Say("READ tag=%ld\n", static_cast<long>(tag));
    return 5;
  }
  CK_EQ(hook_calls, 3);
  CK_EQ(seen.transaction_failed, 0);
  CK_EQ(cairn_verify_heap(10), 0u);
  Say("CONTINUED\n");
  return 0;
}

// The hook returns instead of jumping: the runtime stops the program as it does without one.
PERSIST_CHILD(FaultError_HookReturns) {
  OpenStore(args);
  cairn_set_fault_error_hook(ReturnFromHook, nullptr);
  cairn_db *db = OpenDb("faulty");
  CK_OK(cairn_txn_begin());
  Node *root = RootAs<Node>(db);
  int64_t tag = *static_cast<volatile int64_t *>(&reinterpret_cast<Blob *>(root->left)->tag);
  Say("READ tag=%ld\n", static_cast<long>(tag));
  return 3;
}

// cairn_load_for_read: the same page's error is returned, not given to the hook (which would
// jump); the transaction is failed as after a fault; a page that loads returns CAIRN_OK and
// leaves the transaction able to commit.
PERSIST_CHILD(FaultError_LoadForRead) {
  const std::string variant = args.args.at(0);
  cairn_db *db = OpenFaulty(args, variant);
  if (sigsetjmp(back, 1) != 0) {
    Say("the hook was called\n");
    return 3;
  }
  CK_OK(cairn_txn_begin());
  Node *root = RootAs<Node>(db);
  CK_OK(cairn_load_for_read(root->right, sizeof(Node)));
  CK_EQ(root->right->id, 2);
  CK_OK(cairn_txn_commit());

  CK_OK(cairn_txn_begin());
  root = RootAs<Node>(db);
  void *blob = root->left;
  CK_STATUS(cairn_load_for_read(blob, sizeof(int64_t)),
            variant == "lacks" ? CAIRN_TYPE_MISMATCH : CAIRN_CORRUPTION);
  const std::string error = cairn_last_error();
  CK(error.find("faulty") != std::string::npos) << error;
  CK(error.find(variant == "lacks" ? "ptest.Blob" : "not a type index") != std::string::npos)
      << error;
  CK_EQ(hook_calls, 0);
  CK_STATUS(cairn_txn_commit(), CAIRN_MISUSE);
  CK_OK(cairn_txn_abort());
  CK_EQ(cairn_verify_heap(10), 0u);
  Say("RETURNED\n");
  return 0;
}

class PersistFaultError : public PersistTest {
 protected:
  void Recover(const char *variant) {
    ASSERT_CHILD_OK(Run("FaultDb_Write"));
    if (std::string(variant) == "damaged") ASSERT_CHILD_OK(Run("FaultDb_DamageBlob"));
    ChildResult r = Run("FaultError_Recover", {variant});
    ASSERT_CHILD_OK(r);
    EXPECT_NE(r.out.find("CONTINUED"), std::string::npos) << r.Describe();
    // What the process committed after the failed transaction is there; the failed one's
    // write is not.
    ASSERT_CHILD_OK(Run("FaultDb_Check", {"5", "3", std::string(variant) == "lacks" ? "1" : "0"}));
  }
};

TEST_F(PersistFaultError, ATypeTheProgramLacksGoesToTheHookAndTheProcessGoesOn) {
  Recover("lacks");
}

TEST_F(PersistFaultError, ADamagedPageGoesToTheHookAndTheProcessGoesOn) { Recover("damaged"); }

TEST_F(PersistFaultError, LoadForReadReturnsTheErrorInsteadOfCallingTheHook) {
  ASSERT_CHILD_OK(Run("FaultDb_Write"));
  for (const char *variant : {"lacks", "damaged"}) {
    if (std::string(variant) == "damaged") ASSERT_CHILD_OK(Run("FaultDb_DamageBlob"));
    ChildResult r = Run("FaultError_LoadForRead", {variant});
    ASSERT_CHILD_OK(r);
    EXPECT_NE(r.out.find("RETURNED"), std::string::npos) << r.Describe();
  }
}

TEST_F(PersistFaultError, AHookThatReturnsStopsTheProgramAsWithoutOne) {
  ASSERT_CHILD_OK(Run("FaultDb_Write"));
  ChildResult r = Run("FaultError_HookReturns");
  EXPECT_EQ(r.exit_code, 1) << r.Describe();
  EXPECT_EQ(r.signal, 0) << r.Describe();
  EXPECT_NE(r.out.find("HOOK_RETURNS"), std::string::npos) << r.Describe();
  EXPECT_EQ(r.out.find("READ"), std::string::npos) << r.Describe();
  EXPECT_NE(r.err.find("ptest.Blob"), std::string::npos) << r.Describe();
  EXPECT_NE(r.err.find("nothing of it was written"), std::string::npos) << r.Describe();
  ASSERT_CHILD_OK(Run("FaultDb_Check", {std::to_string(kRootValue), "2", "1"}));
}
