// Pages whose checksum is right but whose contents are wrong (rewritten through the store's own
// API, which checksums what it is given): a page with a header of zero, a reference into the
// middle of an object, past the database's last page, into a free page, an unknown type index,
// an array longer than its page, a root into an object. Faulting them in gives an error naming
// the database and the page that holds the bad reference (D11, persist/page_checks.h), through
// the fault-error hook, never a SIGSEGV and never a wrong object; the process goes on.
#include <csetjmp>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cairn/graph_check.h"
#include "cairn/store.h"
#include "child.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;
namespace store = cairn::store;

namespace {

constexpr int kNodes = 600;  // a list over several pages
constexpr int64_t kFirstId = 1000;
constexpr int kArray = 10;

// A persistent reference as docs/persistence.md lays it out.
uint64_t Ref(uint64_t page, uint32_t offset, uint32_t run = 0) {
  return (uint64_t(run) << 44) | (page << 13) | offset;
}

// Where each node is on disk: by id, its page and payload offset.
struct Place {
  uint64_t page = 0;
  uint32_t offset = 0;
};

// The store's view of database "bad": page contents and node places.
struct Disk {
  std::unique_ptr<store::Store> s;
  store::DatabaseId id = 0;
  std::unique_ptr<store::Transaction> t;
  uint64_t count = 0;
  std::map<uint64_t, std::vector<uint64_t>> pages;  // page -> words
  std::map<int64_t, Place> nodes;
  Place array;

  explicit Disk(const std::string &dir) {
    CK_OK(cairn::SetLastError(store::Store::Open(dir, store::StoreOptions{}, &s)));
    CK_OK(cairn::SetLastError(s->FindDatabase("bad", &id)));
    CK_OK(cairn::SetLastError(s->BeginTransaction(&t)));
    CK_OK(cairn::SetLastError(t->GetPageCount(id, &count)));
    for (uint64_t p = 1; p <= count; p++) {
      std::vector<uint64_t> w(CAIRN_PAGE_SIZE / 8);
      if (!t->ReadPage(id, p, w.data()).ok()) continue;
      pages[p] = std::move(w);
    }
    // Found by following the references from the root (the pages may hold stale bytes of
    // objects moved away: fillers keep them). A node is left, right, id, value (= id * 3).
    uint64_t root = 0;
    CK_OK(cairn::SetLastError(t->GetRoot(id, &root)));
    Place at = PlaceOf(root);
    array = PlaceOf(Word(at, 0));
    CK_EQ(Word(array, 0), uint64_t(kArray));
    CK_EQ(Word(array, 1), 7u);
    for (int64_t i = kFirstId; at.page; i++) {
      CK_EQ(int64_t(Word(at, 2)), i);
      nodes[i] = at;
      at = PlaceOf(Word(at, 1));
    }
    CK_EQ(nodes.size(), size_t(kNodes));
  }
  static Place PlaceOf(uint64_t ref) {
    return Place{(ref >> 13) & ((uint64_t(1) << 31) - 1), uint32_t(ref & 8191)};
  }
  uint64_t &Word(Place at, ptrdiff_t index) { return pages[at.page][at.offset / 8 + index]; }
  void Write(uint64_t page) {
    CK_OK(cairn::SetLastError(t->WritePage(id, page, pages[page].data())));
  }
  // The first node whose `right` reference crosses into another page.
  int64_t Crossing() {
    for (int64_t i = kFirstId; i < kFirstId + kNodes - 1; i++)
      if (nodes[i].page != nodes[i + 1].page) return i;
    return 0;
  }
};

sigjmp_buf back;
cairn_fault_error seen{};
std::string seen_message;

void JumpBack(const cairn_fault_error *e, void *) {
  seen = *e;
  seen_message = e->message;
  siglongjmp(back, 1);
}

}  // namespace

// Database "bad": root Node{id 1000, left: an [int] of 10 (7, 8, ...)}, and a list by `right`
// of kNodes nodes, ids kFirstId.., values id * 3.
PERSIST_CHILD(Malformed_Write) {
  OpenStore(args);
  cairn_db *db = CreateDb("bad");
  CK_OK(cairn_txn_begin());
  Node *first = nullptr, *prev = nullptr;
  for (int i = 0; i < kNodes; i++) {
    Node *n = NewNode(kFirstId + i);
    n->value = (kFirstId + i) * 3;
    if (prev)
      prev->right = n;
    else
      first = n;
    prev = n;
  }
  auto *a = static_cast<int64_t *>(cairn_malloc_array(&cairn_i64_array_type, kArray));
  for (int i = 0; i < kArray; i++) a[1 + i] = 7 + i;
  first->left = reinterpret_cast<Node *>(a);
  CK_OK(cairn_db_set_root(db, first));
  CK_OK(cairn_txn_commit());
  return 0;
}

// args: the damage. Prints DAMAGED_PAGE=N: the page that holds the bad reference or header.
PERSIST_CHILD(Malformed_Damage) {
  const std::string what = args.args.at(0);
  Disk d(args.store);
  const int64_t x = d.Crossing();
  CK(x != 0);
  Place from = d.nodes[x], to = d.nodes[x + 1];
  uint64_t damaged = from.page;
  if (what == "zero_header") {
    // The page the list crosses into now starts with a zero header: it holds no objects.
    std::fill(d.pages[to.page].begin(), d.pages[to.page].end(), 0);
    d.Write(to.page);
  } else if (what == "middle") {
    d.Word(from, 1) = Ref(to.page, to.offset + 16);  // `right` into the middle of a node
    d.Write(from.page);
  } else if (what == "past_end") {
    d.Word(from, 1) = Ref(d.count + 3, 8);
    d.Write(from.page);
  } else if (what == "free_page") {
    uint64_t page = 0;  // a page allocated, then freed: the reference points at it
    CK_OK(cairn::SetLastError(d.t->AllocatePage(d.id, &page)));
    CK_OK(cairn::SetLastError(d.t->FreePage(d.id, page)));
    d.Word(from, 1) = Ref(page, 8);
    d.Write(from.page);
  } else if (what == "type_index") {
    d.Word(to, -1) = 77;  // the header of the node after the crossing
    d.Write(to.page);
    damaged = to.page;
  } else if (what == "array_length") {
    d.Word(d.array, 0) = uint64_t(1) << 60;
    d.Write(d.array.page);
    damaged = d.array.page;
  } else if (what == "large_run") {
    // Names the root's page, small and loaded by then, as a large object's run of 2.
    d.Word(from, 1) = Ref(d.nodes[kFirstId].page, 8, 2);
    d.Write(from.page);
  } else if (what == "root_inside") {
    Place root = d.nodes[kFirstId];
    CK_OK(cairn::SetLastError(d.t->SetRoot(d.id, Ref(root.page, root.offset + 8))));
    damaged = 0;
  } else {
    CK(false) << "no damage called " << what;
  }
  CK_OK(cairn::SetLastError(d.t->Commit()));
  Say("DAMAGED_PAGE=%lu\n", static_cast<unsigned long>(damaged));
  return 0;
}

// Reads everything: the array, then the list. With a hook that jumps back, an error while
// faulting is reported (HOOK ...), the transaction aborted, the heap verified, and the process
// goes on (CONTINUED). Without damage it prints READ_ALL.
PERSIST_CHILD(Malformed_Read) {
  OpenStore(args);
  cairn_set_fault_error_hook(JumpBack, nullptr);
  cairn_db *db = OpenDb("bad");
  CK_OK(cairn_txn_begin());
  if (sigsetjmp(back, 1) == 0) {
    Node *n = RootAs<Node>(db);
    int64_t sum = 0;
    const auto *a = reinterpret_cast<const int64_t *>(n->left);
    for (int i = 0; i < kArray; i++) sum += a[1 + i];
    int count = 0;
    for (; n; n = n->right, count++) {
      CK_EQ(n->id, kFirstId + count);
      CK_EQ(n->value, n->id * 3);
    }
    CK_EQ(count, kNodes);
    CK_EQ(sum, kArray * 7 + kArray * (kArray - 1) / 2);
    Say("READ_ALL\n");
    CK_OK(cairn_txn_abort());
    return 0;
  }
  Say("HOOK code=%s page=%lu failed=%d\n", cairn_status_name(seen.code),
      static_cast<unsigned long>(seen.page), seen.transaction_failed);
  std::fprintf(stderr, "MESSAGE %s\n", seen_message.c_str());
  CK_EQ(std::string(seen.database), "bad");
  CK_OK(cairn_txn_abort());
  CK_EQ(cairn_verify_heap(10), 0u);
  cairn_collect();
  CK_EQ(cairn_verify_heap(10), 0u);
  Say("CONTINUED\n");
  return 0;
}

// `cairn db check`'s two audits through the API: prints each problem (PROBLEM ...) and the
// graph's figures.
PERSIST_CHILD(Malformed_Check) {
  std::unique_ptr<store::Store> s;
  CK_OK(cairn::SetLastError(store::Store::Open(args.store, store::StoreOptions{}, &s)));
  store::CheckReport r;
  CK_OK(cairn::SetLastError(s->Check("bad", &r)));
  CK_OK(cairn::SetLastError(cairn::persist::CheckObjectGraph(*s, "bad", &r)));
  for (const std::string &p : r.problems) Say("PROBLEM %s\n", p.c_str());
  Say("PROBLEMS=%lu GRAPH=%d OBJECTS=%lu FILLERS=%lu REFERENCES=%lu IN_USE=%lu UNREACHED=%lu\n",
      static_cast<unsigned long>(r.problem_count), int(r.graph_checked),
      static_cast<unsigned long>(r.objects), static_cast<unsigned long>(r.fillers),
      static_cast<unsigned long>(r.references), static_cast<unsigned long>(r.pages_in_use),
      static_cast<unsigned long>(r.pages_unreached));
  return 0;
}

// Database "bad": root b, a Node, committed while the stack also holds a (made just after b, on
// b's page): the page is made persistent in place (b is pinned), and a, which the database does
// not reach, stays there as a tenant: a filler in the stored page. Prints A_OFFSET.
PERSIST_CHILD(Filler_Write) {
  OpenStore(args);
  cairn_db *db = CreateDb("bad");
  CK_OK(cairn_txn_begin());
  Node *b = NewNode(1);
  Node *a = NewNode(2);
  volatile uintptr_t keep[2] = {reinterpret_cast<uintptr_t>(a), reinterpret_cast<uintptr_t>(b)};
  CK_EQ(keep[0] / CAIRN_PAGE_SIZE, keep[1] / CAIRN_PAGE_SIZE);
  CK_OK(cairn_db_set_root(db, b));
  CK_OK(cairn_txn_commit());
  CK_EQ(reinterpret_cast<uintptr_t>(b), keep[1]);  // made persistent in place
  Say("A_OFFSET=%lu\n", static_cast<unsigned long>(keep[0] % CAIRN_PAGE_SIZE));
  return 0;
}

// args: a's offset. Points the root's `right` at a's place.
PERSIST_CHILD(Filler_Damage) {
  const uint32_t a_offset = uint32_t(std::stoul(args.args.at(0)));
  std::unique_ptr<store::Store> s;
  CK_OK(cairn::SetLastError(store::Store::Open(args.store, store::StoreOptions{}, &s)));
  store::DatabaseId id = 0;
  CK_OK(cairn::SetLastError(s->FindDatabase("bad", &id)));
  std::unique_ptr<store::Transaction> t;
  CK_OK(cairn::SetLastError(s->BeginTransaction(&t)));
  uint64_t root = 0;
  CK_OK(cairn::SetLastError(t->GetRoot(id, &root)));
  const Place b = Disk::PlaceOf(root);
  std::vector<uint64_t> words(CAIRN_PAGE_SIZE / 8);
  CK_OK(cairn::SetLastError(t->ReadPage(id, b.page, words.data())));
  CK_EQ(words[b.offset / 8 + 1], 0u);  // b.right was nil
  words[b.offset / 8 + 1] = Ref(b.page, a_offset);
  CK_OK(cairn::SetLastError(t->WritePage(id, b.page, words.data())));
  CK_OK(cairn::SetLastError(t->Commit()));
  return 0;
}

// Replaces the root of "bad" by a new node: the list's pages are garbage now.
PERSIST_CHILD(Malformed_DropList) {
  OpenStore(args);
  cairn_db *db = OpenDb("bad");
  CK_OK(cairn_txn_begin());
  CK_OK(cairn_db_set_root(db, NewNode(1)));
  CK_OK(cairn_txn_commit());
  return 0;
}

class PersistMalformedPage : public PersistTest {
 protected:
  // Damages the database as `what` says and reads it: the error must be CAIRN_CORRUPTION, name
  // the database and the damaged page, and say `words`.
  void Expect(const char *what, const char *words) {
    ASSERT_CHILD_OK(Run("Malformed_Write"));
    ChildResult clean = Run("Malformed_Read");
    ASSERT_CHILD_OK(clean);
    ASSERT_NE(clean.out.find("READ_ALL"), std::string::npos) << clean.Describe();
    ChildResult clean_check = Run("Malformed_Check");
    ASSERT_CHILD_OK(clean_check);
    EXPECT_EQ(clean_check.Value("PROBLEMS"), "0") << clean_check.Describe();
    EXPECT_EQ(clean_check.Value("GRAPH"), "1") << clean_check.Describe();
    // The nodes and the array (the fillers of pages made persistent in place are not objects).
    EXPECT_EQ(ValueOf(clean_check, "OBJECTS"), uint64_t(kNodes + 1)) << clean_check.Describe();
    EXPECT_EQ(ValueOf(clean_check, "REFERENCES"), uint64_t(kNodes + 1)) << clean_check.Describe();
    EXPECT_EQ(clean_check.Value("UNREACHED"), "0") << clean_check.Describe();
    ChildResult damage = Run("Malformed_Damage", {what});
    ASSERT_CHILD_OK(damage);
    ChildResult r = Run("Malformed_Read");
    ASSERT_CHILD_OK(r);
    EXPECT_EQ(r.out.find("READ_ALL"), std::string::npos) << r.Describe();
    EXPECT_NE(r.out.find("HOOK code=corruption"), std::string::npos) << r.Describe();
    EXPECT_NE(r.out.find("page=" + damage.Value("DAMAGED_PAGE")), std::string::npos)
        << r.Describe() << damage.Describe();
    EXPECT_NE(r.out.find("CONTINUED"), std::string::npos) << r.Describe();
    std::printf("%s", r.err.c_str());
    EXPECT_NE(r.err.find("database 'bad'"), std::string::npos) << r.Describe();
    EXPECT_NE(r.err.find(words), std::string::npos) << r.Describe();
    EXPECT_NE(r.err.find("; the database is damaged: `cairn db check --store " + store() +
                         " bad` lists all the damage it can read; restore the database from a "
                         "copy"),
              std::string::npos)
        << r.Describe();

    // `cairn db check` finds it too, as the message promises.
    ChildResult check = Run("Malformed_Check");
    ASSERT_CHILD_OK(check);
    EXPECT_NE(check.Value("PROBLEMS"), "0") << check.Describe();
    EXPECT_NE(check.out.find(check_words), std::string::npos) << check.Describe();
    std::printf("%s", check.out.c_str());
  }
  std::string check_words;
};

TEST_F(PersistMalformedPage, AZeroHeader) {
  check_words = "where no object starts (G2)";
  Expect("zero_header", "where no object starts");
}
TEST_F(PersistMalformedPage, AReferenceIntoTheMiddleOfAnObject) {
  check_words = "where no object starts (G2)";
  Expect("middle", "where no object starts");
}
TEST_F(PersistMalformedPage, AReferencePastTheLastPage) {
  check_words = "past the database's last page";
  Expect("past_end", "past the database's last page");
}
TEST_F(PersistMalformedPage, AReferenceToAFreePage) {
  check_words = "which is free (G2)";
  Expect("free_page", "free");
}
TEST_F(PersistMalformedPage, AnUnknownTypeIndex) {
  check_words = "names type index 77, which the type table lacks (G1)";
  Expect("type_index", "type index 77, which its type table lacks");
}
TEST_F(PersistMalformedPage, AnArrayLongerThanItsPage) {
  check_words = "does not fit (an array of 1152921504606846976 elements) (G1)";
  Expect("array_length", "does not fit its page");
}
TEST_F(PersistMalformedPage, ASmallPageNamedALargeObject) {
  check_words = "but it holds small objects (G2)";
  Expect("large_run", "large object");
}
TEST_F(PersistMalformedPage, ARootIntoAnObject) {
  check_words = "PROBLEM the root (";
  Expect("root_inside", "its root points to page");
}

// A reference to a filler (the place of an object the database did not reach) is damage: db
// check says so (it took it for an object before fillers had a type of their own), and a filler
// is not counted as an object.
TEST_F(PersistMalformedPage, AReferenceToAFiller) {
  // The scenario needs a and b made one after the other on one page: the GC stress build's
  // collection before every allocation puts a on another page.
  if (cairn_gc_stress_build())
    GTEST_SKIP() << "two objects on one page need no collection between them";
  ChildResult w = Run("Filler_Write");
  ASSERT_CHILD_OK(w);
  ChildResult clean = Run("Malformed_Check");
  ASSERT_CHILD_OK(clean);
  EXPECT_EQ(clean.Value("PROBLEMS"), "0") << clean.Describe();
  EXPECT_EQ(clean.Value("OBJECTS"), "1") << clean.Describe();
  EXPECT_GE(ValueOf(clean, "FILLERS"), 1u) << clean.Describe();
  ASSERT_CHILD_OK(Run("Filler_Damage", {w.Value("A_OFFSET")}));
  ChildResult check = Run("Malformed_Check");
  ASSERT_CHILD_OK(check);
  EXPECT_EQ(check.Value("PROBLEMS"), "1") << check.Describe();
  EXPECT_NE(check.out.find("offset " + w.Value("A_OFFSET") +
                           ", at a filler (the place of a dead object), not at an object (G2)"),
            std::string::npos)
      << check.Describe();
}

// Pages nothing reaches any more are reported as garbage, not as damage.
TEST_F(PersistMalformedPage, CheckReportsUnreachablePages) {
  ASSERT_CHILD_OK(Run("Malformed_Write"));
  ASSERT_CHILD_OK(Run("Malformed_DropList"));
  ChildResult check = Run("Malformed_Check");
  ASSERT_CHILD_OK(check);
  EXPECT_EQ(check.Value("PROBLEMS"), "0") << check.Describe();
  const uint64_t in_use = ValueOf(check, "IN_USE"), unreached = ValueOf(check, "UNREACHED");
  EXPECT_GE(in_use, 3u) << check.Describe();
  EXPECT_EQ(unreached, in_use - 1) << check.Describe();  // only the new root's page is reached
}
