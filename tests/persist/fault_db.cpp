// The child scenarios of the fault tests' database (fault_db.h).
#include "fault_db.h"

#include <memory>
#include <string>
#include <vector>

#include "cairn/store.h"
#include "child.h"

using namespace cairn_ptest;

PERSIST_CHILD(FaultDb_Write) {
  OpenStore(args);
  CK_OK(cairn_register_type(&kBlobType));
  cairn_db *db = CreateDb("faulty");
  CK_OK(cairn_txn_begin());
  Node *root = NewNode(1);
  root->value = kRootValue;
  auto *blob = static_cast<Blob *>(cairn_malloc_typed(&kBlobType));
  blob->tag = kBlobTag;
  for (int i = 0; i < kBlobData; i++) blob->data[i] = BlobValue(i);
  root->left = reinterpret_cast<Node *>(blob);
  root->right = NewNode(2);
  CK_OK(cairn_db_set_root(db, root));
  CK_OK(cairn_txn_commit());
  return 0;
}

// The store's own API, no runtime: find the page whose first word is a type index followed by
// kBlobTag (the Blob's header, alone at the start of its run) and overwrite that header.
PERSIST_CHILD(FaultDb_DamageBlob) {
  namespace store = cairn::store;
  std::unique_ptr<store::Store> s;
  CK_OK(cairn::SetLastError(store::Store::Open(args.store, store::StoreOptions{}, &s)));
  store::DatabaseId id = 0;
  CK_OK(cairn::SetLastError(s->FindDatabase("faulty", &id)));
  std::unique_ptr<store::Transaction> t;
  CK_OK(cairn::SetLastError(s->BeginTransaction(&t)));
  uint64_t count = 0;
  CK_OK(cairn::SetLastError(t->GetPageCount(id, &count)));
  std::vector<uint64_t> page(CAIRN_PAGE_SIZE / 8);
  int damaged = 0;
  for (uint64_t p = 1; p <= count; p++) {
    if (!t->ReadPage(id, p, page.data()).ok()) continue;  // a free page
    if (page[0] != 0 && page[0] <= UINT32_MAX && page[1] == uint64_t(kBlobTag)) {
      page[0] = 0xdeadbeefdeadbeefull;
      CK_OK(cairn::SetLastError(t->WritePage(id, p, page.data())));
      damaged++;
    }
  }
  CK_EQ(damaged, 1);
  CK_OK(cairn::SetLastError(t->Commit()));
  return 0;
}

PERSIST_CHILD(FaultDb_Check) {
  OpenStore(args);
  CK_OK(cairn_register_type(&kBlobType));
  cairn_db *db = OpenDb("faulty");
  CK_OK(cairn_txn_begin());
  Node *root = RootAs<Node>(db);
  CK_EQ(root->id, 1);
  CK_EQ(root->value, args.Int(0));
  CK_EQ(root->right->id, args.Int(1));
  if (args.Int(2) == 1) {
    const auto *blob = reinterpret_cast<const Blob *>(root->left);
    CK_EQ(blob->tag, kBlobTag);
    for (int i = 0; i < kBlobData; i++) CK_EQ(blob->data[i], BlobValue(i));
  }
  CK_OK(cairn_txn_abort());
  return 0;
}
