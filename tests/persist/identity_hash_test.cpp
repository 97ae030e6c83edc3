// cairn_identity_hash of objects that become persistent (cairn/gc.h; the scheme is in
// docs/gc.md, "Identity hashes"): an object's hash is the same before and after the commit that
// makes it persistent (copied into a new page, made persistent in place because the stack holds
// it, or a large object), across collections, across an abort that reloads its page, and in a
// fresh process that reads it from the database, whether or not it was asked for before the
// commit. Asking for a persistent object's hash does not fault its page in.
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "child.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;

namespace {

int64_t ListLength() { return Scaled(3000, 150); }
constexpr int64_t kLargeElements = 1000;  // 8 KB of references: a large object
constexpr int64_t kPinnedId = 7;

__attribute__((noinline)) Node *BuildList(int64_t n) {
  Node *head = nullptr;
  for (int64_t i = n - 1; i >= 0; i--) head = NewNode(i, head);
  return head;
}

// Every node's hash by id, and the large array's (id -1), as the child prints them.
using Hashes = std::map<int64_t, uint64_t>;

Hashes HashAll(Node *head) {
  Hashes h;
  for (Node *p = head; p; p = p->left) h[p->id] = cairn_identity_hash(p);
  h[-1] = cairn_identity_hash(head->right);
  return h;
}

void SayHashes(const Hashes &h) {
  for (const auto &[id, hash] : h) Say("H %ld %lu\n", id, hash);
}

Hashes ParseHashes(const std::string &out) {
  Hashes h;
  size_t pos = 0;
  while ((pos = out.find("H ", pos)) != std::string::npos) {
    if (pos > 0 && out[pos - 1] != '\n') {
      pos += 2;
      continue;
    }
    long long id = 0;
    unsigned long long hash = 0;
    if (std::sscanf(out.c_str() + pos, "H %lld %llu", &id, &hash) == 2) h[id] = hash;
    pos += 2;
  }
  return h;
}

}  // namespace

// Builds the list (and a large array off node 0) in a transaction; asks for the hashes of the
// even nodes, the large array and the node the stack holds before the commit; collects; commits;
// checks those hashes did not change and asks for the rest; then an update that is aborted.
// Prints every hash.
PERSIST_CHILD(Hash_Write) {
  OpenStore(args);
  cairn_db *db = CreateDb("hashes");
  CK_OK(cairn_txn_begin());
  ExactRoot list;  // not on the stack: the list may move
  list.set(BuildList(ListLength()));
  list.get()->right =
      static_cast<Node *>(cairn_malloc_array(&cairn_ref_array_type, kLargeElements));
  Node *volatile pinned = list.get();
  while (pinned->id != kPinnedId) pinned = pinned->left;
  Hashes before;
  for (Node *p = list.get(); p; p = p->left)
    if (p->id % 2 == 0 || p->id == kPinnedId) before[p->id] = cairn_identity_hash(p);
  before[-1] = cairn_identity_hash(list.get()->right);
  for (int i = 0; i < 3; i++) {
    for (int64_t j = 0; j < Scaled(1000, 50); j++) NewNode(-1);  // garbage, so that the list moves
    cairn_collect();
  }
  CK_OK(cairn_db_set_root(db, list.get()));
  CK_OK(cairn_txn_commit());
  cairn_persist_stats c = LastCommitStats();
  CK(c.pages_ambiguous > 0) << "no page was made persistent in place; the test shows less";
  CK(c.pages_large > 0);
  CK_EQ(pinned->id, kPinnedId);

  CK_OK(cairn_txn_begin());
  Node *head = RootAs<Node>(db);
  Hashes after = HashAll(head);
  for (const auto &[id, hash] : before)
    CK_EQ(after.at(id), hash) << " (object " << id << ": its hash changed at the commit)";
  for (int i = 0; i < 3; i++) {
    for (int64_t j = 0; j < Scaled(1000, 50); j++) NewNode(-1);
    cairn_collect();
    CK(HashAll(RootAs<Node>(db)) == after) << "a hash changed in a collection";
  }
  // An update, aborted: the pages are read again; the hashes stay.
  for (Node *p = head; p; p = p->left) p->value = -1;
  CK_OK(cairn_txn_abort());
  CK_OK(cairn_txn_begin());
  CK(HashAll(RootAs<Node>(db)) == after) << "a hash changed with an abort";
  CK_OK(cairn_txn_abort());
  std::set<uint64_t> distinct;
  for (const auto &[id, hash] : after) distinct.insert(hash);
  CK_EQ(distinct.size(), after.size());
  SayHashes(after);
  return 0;
}

// A fresh process: the hashes are the writer's. The large array's is taken before its pages
// are read, and reads none.
PERSIST_CHILD(Hash_Read) {
  OpenStore(args);
  cairn_db *db = OpenDb("hashes");
  CK_OK(cairn_txn_begin());
  Node *head = RootAs<Node>(db);
  void *large = head->right;
  uint64_t faulted = Stats().pages_faulted;
  uint64_t large_hash = cairn_identity_hash(large);
  CK_EQ(Stats().pages_faulted, faulted) << "asking for a hash faulted a page in";
  Hashes h = HashAll(head);
  CK_EQ(h.at(-1), large_hash);
  CK_OK(cairn_txn_abort());
  SayHashes(h);
  return 0;
}

// A later process's new objects, hashed before anything is read: their hashes must not be those
// of objects a database holds (the counter of transient hashes starts anew in each process).
PERSIST_CHILD(Hash_New) {
  OpenStore(args);
  Hashes h;
  for (int64_t i = 0; i < 100; i++) h[i] = cairn_identity_hash(NewNode(i));
  SayHashes(h);
  return 0;
}

class PersistIdentityHash : public PersistTest {};

TEST_F(PersistIdentityHash, NewObjectsOfALaterProcessDoNotTakeTheHashesOfStoredOnes) {
  ChildResult w = Run("Hash_Write");
  ASSERT_CHILD_OK(w);
  Hashes written = ParseHashes(w.out);
  std::set<uint64_t> seen;
  for (const auto &[id, hash] : written) seen.insert(hash);
  for (int process = 0; process < 2; process++) {
    ChildResult r = Run("Hash_New");
    ASSERT_CHILD_OK(r);
    Hashes fresh = ParseHashes(r.out);
    ASSERT_EQ(fresh.size(), 100u) << r.Describe();
    for (const auto &[id, hash] : fresh)
      EXPECT_TRUE(seen.insert(hash).second)
          << "new object " << id << " of process " << process << " has a hash given before";
  }
}

TEST_F(PersistIdentityHash, SurvivesCommitsCollectionsAbortsAndLaterProcesses) {
  ChildResult w = Run("Hash_Write");
  ASSERT_CHILD_OK(w);
  Hashes written = ParseHashes(w.out);
  ASSERT_EQ(written.size(), size_t(ListLength() + 1)) << w.Describe();
  for (int reader = 0; reader < 2; reader++) {
    ChildResult r = Run("Hash_Read");
    ASSERT_CHILD_OK(r);
    Hashes read = ParseHashes(r.out);
    ASSERT_EQ(read.size(), written.size()) << r.Describe();
    size_t differ = 0;
    for (const auto &[id, hash] : written) differ += read.at(id) != hash;
    EXPECT_EQ(differ, 0u) << "hashes differ in a later process";
  }
}
