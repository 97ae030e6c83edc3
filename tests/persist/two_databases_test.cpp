// Two databases open at once in one process, each with its own root and pages; a reference from
// one's object to the other's is refused at commit with an error naming both, and nothing of
// that transaction is written.
#include <set>
#include <string>

#include "child.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;

namespace {

constexpr int64_t kAlphaNodes = 100;
constexpr int64_t kBetaNodes = 50;

__attribute__((noinline)) Node *BuildChain(int64_t first_id, int64_t n) {
  Node *head = nullptr;
  for (int64_t i = n - 1; i >= 0; i--) head = NewNode(first_id + i, head);
  return head;
}

// The chain of a database: ids first_id.., the head's value changed to -1 if `modified`, and
// the head's right reference as expected (nil, or a node with id `right_id`).
void CheckChain(Node *head, int64_t first_id, int64_t n, bool modified, int64_t right_id,
                std::set<size_t> *pages) {
  int64_t i = 0;
  for (Node *p = head; p; p = p->left, i++) {
    CK_EQ(p->id, first_id + i);
    CK_EQ(p->value, modified && i == 0 ? -1 : (first_id + i) * 7 + 1);
    pages->insert(PageOf(p));
  }
  CK_EQ(i, n);
  if (right_id == 0) {
    CK(head->right == nullptr) << "unexpected reference to node " << head->right->id;
  } else {
    CK(head->right != nullptr);
    CK_EQ(head->right->id, right_id);
    pages->insert(PageOf(head->right));
  }
}

void CheckBoth(bool modified) {
  cairn_db *alpha = OpenDb("alpha");
  cairn_db *beta = OpenDb("beta");
  CK(alpha != beta);
  CK_OK(cairn_txn_begin());
  std::set<size_t> alpha_pages, beta_pages;
  CheckChain(RootAs<Node>(alpha), 1000, kAlphaNodes, modified, 0, &alpha_pages);
  CheckChain(RootAs<Node>(beta), 2000, kBetaNodes, false, modified ? 2999 : 0, &beta_pages);
  for (size_t p : alpha_pages) CK(!beta_pages.count(p)) << "a page holds objects of both";
  CK_OK(cairn_txn_commit());
}

void ListName(const char *name, void *ctx) {
  static_cast<std::string *>(ctx)->append(name).append(",");
}

}  // namespace

// Builds a chain and makes it a database's root, in a frame of its own: the caller's frame then
// holds no reference to it at the commit (see TwoDb_PinnedNeighbours for why that matters).
__attribute__((noinline)) void AttachChain(cairn_db *db, int64_t first_id, int64_t n) {
  CK_OK(cairn_db_set_root(db, BuildChain(first_id, n)));
}

PERSIST_CHILD(TwoDb_Write) {
  OpenStore(args);
  cairn_db *alpha = CreateDb("alpha");
  cairn_db *beta = CreateDb("beta");
  CK_OK(cairn_txn_begin());
  AttachChain(alpha, 1000, kAlphaNodes);
  AttachChain(beta, 2000, kBetaNodes);
  ScrubStack();
  CK_OK(cairn_txn_commit());
  CK_EQ(LastCommitStats().objects_made_persistent, static_cast<uint64_t>(kAlphaNodes + kBetaNodes));
  return 0;
}

PERSIST_CHILD(TwoDb_Modify) {
  OpenStore(args);
  std::string names;
  CK_OK(cairn_db_list(ListName, &names));
  CK_EQ(names, std::string("alpha,beta,"));
  int exists = 0;
  CK_OK(cairn_db_exists("beta", &exists));
  CK_EQ(exists, 1);
  CheckBoth(false);
  cairn_db *alpha = OpenDb("alpha");
  cairn_db *beta = OpenDb("beta");
  CK(std::string(cairn_db_name(alpha)) == "alpha");
  CK_OK(cairn_txn_begin());
  RootAs<Node>(alpha)->value = -1;
  RootAs<Node>(beta)->right = NewNode(2999);
  CK_OK(cairn_txn_commit());
  CK_EQ(LastCommitStats().objects_made_persistent, 1u);
  return 0;
}

// args: 1 if TwoDb_Modify ran.
PERSIST_CHILD(TwoDb_Check) {
  OpenStore(args);
  CheckBoth(args.Int(0) == 1);
  return 0;
}

// A failed commit: an error naming both databases, then only abort, then the old state.
static void ExpectRefused(const char *what) {
  cairn_status s = cairn_txn_commit();
  std::string msg = cairn_last_error();
  Say("%s_status=%s %s_message=\"%s\"\n", what, cairn_status_name(s), what, msg.c_str());
  CK(s != CAIRN_OK) << what << ": the commit of a cross-database reference succeeded";
  CK(s != CAIRN_INTERNAL) << msg;
  CK(msg.find("alpha") != std::string::npos) << "the message does not name alpha: " << msg;
  CK(msg.find("beta") != std::string::npos) << "the message does not name beta: " << msg;
  // The transaction has failed: commit and begin are refused, abort ends it.
  CK(cairn_txn_commit() != CAIRN_OK) << "a failed transaction committed";
  CK(cairn_txn_begin() != CAIRN_OK) << "began a transaction over a failed one";
  CK_OK(cairn_txn_abort());
  CK_EQ(cairn_txn_is_open(), 0);
}

PERSIST_CHILD(CrossDb_Refuse) {
  OpenStore(args);
  cairn_db *alpha = OpenDb("alpha");
  cairn_db *beta = OpenDb("beta");

  // A persistent object of alpha refers to one of beta.
  CK_OK(cairn_txn_begin());
  RootAs<Node>(alpha)->right = RootAs<Node>(beta);
  ExpectRefused("existing");

  // A new object reachable from both roots: wherever it went, one would refer to the other.
  CK_OK(cairn_txn_begin());
  CK(RootAs<Node>(alpha)->right == nullptr) << "the refused write is still in memory";
  Node *shared = NewNode(5);
  RootAs<Node>(alpha)->right = shared;
  RootAs<Node>(beta)->right = shared;
  ExpectRefused("new");

  // The process goes on: a correct transaction commits.
  CK_OK(cairn_txn_begin());
  CK(RootAs<Node>(alpha)->right == nullptr);
  CK(RootAs<Node>(beta)->right == nullptr);
  CK_OK(cairn_txn_commit());
  return 0;
}

// Two fresh objects, roots of two databases, held by local variables at the commit, on one
// heap page. Objects the stack holds cannot move, so the page becomes persistent in place and
// is shared by the two databases (P12 of heap/page_info.h, D13 of persist/persistence.h): each
// database stores the page with the other's object as a filler. The locals stay the databases'
// objects; a write to either writes the page to both; an abort and an eviction read it back
// from both; a reference from one to the other is still refused. A third object the stack
// holds on the page, which no database reaches, stays transient there (a tenant, P13): an
// abort keeps its changes, and once nothing holds it the page may be evicted.
__attribute__((noinline)) Node *BuildChainOn(int64_t first_id, int64_t n) {
  return BuildChain(first_id, n);
}

// Three nodes side by side on one page: made as a chain that only an exact root holds, then
// copied by a collection in the order it reaches them (in the stress build every allocation
// collects first and continues on another page, so allocation alone does not put them
// together).
__attribute__((noinline)) void BuildThree(ExactRoot *holder) {
  holder->set(NewNode(1000, NewNode(2000, NewNode(3000))));
}

PERSIST_CHILD(TwoDb_SharedPage) {
  cairn_persist_options opts{};
  opts.max_resident_pages = 4;  // small: the shared page is evicted below
  OpenStore(args, opts);
  cairn_db *alpha = CreateDb("alpha");
  cairn_db *beta = CreateDb("beta");
  CK_OK(cairn_txn_begin());
  Node *volatile a = nullptr, *volatile b = nullptr, *volatile c = nullptr;
  for (int tries = 0;; tries++) {
    CK(tries < 3) << "three nodes copied in a row never shared a page";
    ExactRoot holder;
    BuildThree(&holder);
    ScrubStack();
    cairn_collect();
    a = holder.get();
    b = a->left;
    c = b->left;
    a->left = nullptr;
    b->left = nullptr;
    if (PageOf(a) == PageOf(b) && PageOf(b) == PageOf(c)) break;
  }
  CK_OK(cairn_db_set_root(alpha, a));
  CK_OK(cairn_db_set_root(beta, b));
  CK_OK(cairn_txn_commit());
  CK_EQ(LastCommitStats().pages_ambiguous, 1u);
  // a and b; c is a tenant (transient)
  CK_EQ(LastCommitAmbiguousObjectsOf("ptest.Node"), 2u);
  CK_EQ(cairn_verify_heap(0), 0u);

  // The locals are the roots; a write to the page writes it to both databases.
  CK_OK(cairn_txn_begin());
  CK(Root(alpha) == a && Root(beta) == b);
  a->value = 11;
  b->value = 22;
  CK_OK(cairn_txn_commit());
  CK_EQ(LastCommitStats().pages_written, 2u);
  CK_EQ(cairn_verify_heap(0), 0u);

  // An abort gives back what was committed: the page is read again, each object from its own
  // database's page; the tenant keeps its change.
  CK_OK(cairn_txn_begin());
  a->value = -1;
  b->value = -2;
  c->value = -3;
  CK_OK(cairn_txn_abort());
  CK_OK(cairn_txn_begin());
  CK_EQ(a->value, 11);
  CK_EQ(b->value, 22);
  CK_EQ(c->value, -3);
  CK_OK(cairn_txn_abort());
  CK_EQ(cairn_verify_heap(0), 0u);
  // The tenant dies when nothing holds it: its page may be evicted below.
  c = nullptr;
  ScrubStack();
  cairn_collect();
  CK_EQ(cairn_verify_heap(0), 0u);

  // A reference from one database's object to the other's is refused (and nothing written).
  CK_OK(cairn_txn_begin());
  a->right = b;
  ExpectRefused("shared");

  // Evicted (the budget is 4 pages and alpha gets 20 to 100 more), then faulted in again.
  CK_OK(cairn_txn_begin());
  const int64_t n = Scaled(20000, 4000);  // 100 pages (20 in the stress build)
  a->left = BuildChainOn(5000, n);
  b->right = NewNode(2001);
  CK_OK(cairn_txn_commit());
  CK_OK(cairn_txn_begin());
  int64_t sum = 0;
  for (Node *p = a->left; p; p = p->left) sum += p->id;
  CK_EQ(sum, n * 5000 + n * (n - 1) / 2);
  const uint64_t faulted = Stats().pages_faulted;
  CK_EQ(b->value, 22);
  CK(Stats().pages_faulted == faulted + 1) << "the shared page was not evicted";
  CK_EQ(a->value, 11);
  CK_EQ(b->right->id, 2001);
  CK(a->right == nullptr);
  CK_OK(cairn_txn_commit());
  CK_EQ(cairn_verify_heap(0), 0u);
  return 0;
}

// In a new process each database's page is its own.
PERSIST_CHILD(TwoDb_CheckSharedPage) {
  OpenStore(args);
  cairn_db *alpha = OpenDb("alpha");
  cairn_db *beta = OpenDb("beta");
  CK_OK(cairn_txn_begin());
  Node *a = RootAs<Node>(alpha);
  Node *b = RootAs<Node>(beta);
  CK_EQ(a->id, 1000);
  CK_EQ(a->value, 11);
  CK_EQ(b->id, 2000);
  CK_EQ(b->value, 22);
  CK(a->right == nullptr);
  CK_EQ(b->right->id, 2001);
  int64_t n = 0;
  for (Node *p = a->left; p; p = p->left) n++;
  CK_EQ(n, Scaled(20000, 4000));
  CK(PageOf(a) != PageOf(b)) << "one page holds objects of both";
  CK_EQ(cairn_verify_heap(0), 0u);
  CK_OK(cairn_txn_abort());
  return 0;
}

// cairn_db_each_open (cairn/persist.h): the open databases in the order this process last
// opened or created each; opening an open one again moves it last (D18 of persistence.h). It
// was the order of their first opening, so a tool could not tell which was opened last.
PERSIST_CHILD(TwoDb_OpenOrder) {
  OpenStore(args);
  CreateDb("first");
  CreateDb("second");
  OpenDb("alpha");
  auto order = [] {
    std::string names;
    cairn_db_each_open(
        [](cairn_db *d, void *ctx) {
          *static_cast<std::string *>(ctx) += std::string(cairn_db_name(d)) + " ";
        },
        &names);
    return names;
  };
  CK_EQ(order(), std::string("first second alpha "));
  OpenDb("first");
  CK_EQ(order(), std::string("second alpha first "));
  OpenDb("first");  // last already: the order stays
  CK_EQ(order(), std::string("second alpha first "));
  OpenDb("second");
  CK_EQ(order(), std::string("alpha first second "));
  return 0;
}

class PersistTwoDatabases : public PersistTest {};

TEST_F(PersistTwoDatabases, NeighboursOnAPinnedPageShareItAcrossDatabases) {
  ASSERT_CHILD_OK(Run("TwoDb_SharedPage"));
  ASSERT_CHILD_OK(Run("TwoDb_CheckSharedPage"));
}

TEST_F(PersistTwoDatabases, TwoDatabasesOpenAtOnceKeepTheirOwnObjects) {
  ASSERT_CHILD_OK(Run("TwoDb_Write"));
  ASSERT_CHILD_OK(Run("TwoDb_Check", {"0"}));
  ASSERT_CHILD_OK(Run("TwoDb_Modify"));
  ASSERT_CHILD_OK(Run("TwoDb_Check", {"1"}));
}

TEST_F(PersistTwoDatabases, EachOpenListsThemInTheOrderOfTheirLastOpening) {
  ASSERT_CHILD_OK(Run("TwoDb_Write"));
  ASSERT_CHILD_OK(Run("TwoDb_OpenOrder"));
}

TEST_F(PersistTwoDatabases, CrossDatabaseReferenceIsRefusedNamingBoth) {
  ASSERT_CHILD_OK(Run("TwoDb_Write"));
  ChildResult r = Run("CrossDb_Refuse");
  ASSERT_CHILD_OK(r);
  std::printf("%s", r.out.c_str());
  ASSERT_CHILD_OK(Run("TwoDb_Check", {"0"}));
}
