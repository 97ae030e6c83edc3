// The leaf database's scenarios (see leaf_db.h).
#include "leaf_db.h"

#include <chrono>
#include <memory>
#include <sstream>

#include "child.h"
#include "persist_types.h"

namespace cairn_ptest {

Mods::Mods(const std::string &spec) {
  std::istringstream in(spec);
  std::string item;
  while (std::getline(in, item, ',')) {
    size_t colon = item.find(':');
    if (colon == std::string::npos) continue;  // "-"
    p_.emplace_back(std::stoll(item.substr(0, colon)), std::stoll(item.substr(colon + 1)));
  }
}

std::string CheckLeaf(const void *leaf, int64_t k, const Mods &mods) {
  std::ostringstream os;
  if (leaf == nullptr) {
    os << "leaf " << k << " is missing";
    return os.str();
  }
  if (cairn_type_of(leaf) != &cairn_i64_array_type) {
    os << "leaf " << k << " has type " << cairn_type_of(leaf)->name;
    return os.str();
  }
  if (cairn_array_length(leaf) != static_cast<size_t>(kLeafLength)) {
    os << "leaf " << k << " has length " << cairn_array_length(leaf);
    return os.str();
  }
  const int64_t *e = ArrayData<int64_t>(leaf);
  for (int64_t j = 0; j < kLeafLength; j++) {
    int64_t want = j == 1 && mods.Has(k) ? -k : LeafValue(k, j);
    if (e[j] != want) {
      os << "leaf " << k << " element " << j << " is " << e[j] << ", not " << want;
      return os.str();
    }
  }
  return "";
}

void ModifyLeaf(void *leaf, int64_t k) { ArrayData<int64_t>(leaf)[1] = -k; }

namespace {

double Since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

__attribute__((noinline)) void AddLeaves(void *index, int64_t from, int64_t to) {
  for (int64_t k = from; k < to; k++) {
    void *leaf = cairn_malloc_array(&cairn_i64_array_type, kLeafLength);
    int64_t *e = ArrayData<int64_t>(leaf);
    for (int64_t j = 0; j < kLeafLength; j++) e[j] = LeafValue(k, j);
    ArrayData<void *>(index)[k] = leaf;
  }
}

}  // namespace

PERSIST_CHILD(LeafDb_Write) {
  int64_t n = args.Int(0), chunk = args.Int(1);
  cairn_persist_options opts{};
  opts.max_resident_pages = static_cast<uint64_t>(args.Int(2));
  opts.durability = 1;  // async: survives the process; this test is about pages, not power
  OpenStore(args, opts);
  cairn_db *db = CreateDb("leaves");
  auto t0 = std::chrono::steady_clock::now();
  CK_OK(cairn_txn_begin());
  CK_OK(cairn_db_set_root(db, cairn_malloc_array(&cairn_ref_array_type, n)));
  for (int64_t from = 0; from < n; from += chunk) {
    AddLeaves(Root(db), from, std::min(n, from + chunk));
    CK_OK(cairn_txn_chain());
  }
  CK_OK(cairn_txn_commit());
  cairn_persist_stats s = Stats();
  Say("write_seconds=%.2f\n", Since(t0));
  SayStats("", s);
  CK(s.pages_written >= static_cast<uint64_t>(n / kLeavesPerPage));
  return 0;
}

PERSIST_CHILD(LeafDb_Verify) {
  int64_t n = args.Int(0);
  Mods mods(args.args.at(1));
  cairn_persist_options opts{};
  opts.max_resident_pages = static_cast<uint64_t>(args.Int(2));
  OpenStore(args, opts);
  cairn_db *db = OpenDb("leaves");
  auto t0 = std::chrono::steady_clock::now();
  CK_OK(cairn_txn_begin());
  void *index = Root(db);
  CK_EQ(cairn_array_length(index), static_cast<size_t>(n));
  for (int64_t k = 0; k < n; k++) {
    std::string bad = CheckLeaf(ArrayData<void *>(index)[k], k, mods);
    CK(bad.empty()) << bad;
  }
  CK_OK(cairn_txn_abort());
  Say("verify_seconds=%.2f maps=%zu\n", Since(t0), MapCount());
  SayStats("", Stats());
  return 0;
}

PERSIST_CHILD(LeafDb_StoreCheck) {
  CheckStoreClean(args, "leaves");
  return 0;
}

}  // namespace cairn_ptest
