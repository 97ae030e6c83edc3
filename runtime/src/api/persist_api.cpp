// The C API of cairn/persist.h over persist::Persistence.
#include <cstdlib>
#include <string>
#include <vector>

#include "cairn/persist.h"
#include "gc/roots.h"
#include "persist/fault_signal.h"
#include "persist/persistence.h"
#include "util/stack_scrub.h"

using cairn::Status;
using cairn::persist::Persistence;

namespace {

// The persistence layer, opening the default store on first use; fills *p or returns the error.
cairn_status Get(const char *fn, Persistence **p) {
  if (cairn_is_initialized()) cairn::gc::Roots::CheckMutator(fn);
  Status s = Persistence::Ensure();
  if (!s.ok()) return cairn::SetLastError(s);
  *p = Persistence::Instance();
  return CAIRN_OK;
}

cairn_status Report(const Status &s) { return cairn::SetLastError(s); }

}  // namespace

extern "C" {

cairn_status cairn_store_open(const cairn_persist_options *opts) {
  if (cairn_is_initialized()) cairn::gc::Roots::CheckMutator("cairn_store_open");
  return Report(Persistence::Open(opts));
}

const char *cairn_store_dir(void) {
  Persistence *p = Persistence::Instance();
  return p ? p->dir().c_str() : nullptr;
}

cairn_status cairn_db_create(const char *name, cairn_db **out) {
  Persistence *p;
  if (cairn_status s = Get("cairn_db_create", &p)) return s;
  return Report(p->CreateDb(name, out));
}

cairn_status cairn_db_open(const char *name, cairn_db **out) {
  Persistence *p;
  if (cairn_status s = Get("cairn_db_open", &p)) return s;
  return Report(p->OpenDb(name, out));
}

cairn_status cairn_db_upgrade(const char *name, cairn_db **out, cairn_upgrade_report *report) {
  Persistence *p;
  if (cairn_status s = Get("cairn_db_upgrade", &p)) return s;
  return Report(p->UpgradeDb(name, out, report));
}

cairn_status cairn_db_exists(const char *name, int *exists) {
  Persistence *p;
  if (cairn_status s = Get("cairn_db_exists", &p)) return s;
  return Report(p->Exists(name, exists));
}

cairn_status cairn_db_drop(const char *name) {
  Persistence *p;
  if (cairn_status s = Get("cairn_db_drop", &p)) return s;
  return Report(p->Drop(name));
}

cairn_status cairn_db_list(void (*fn)(const char *name, void *ctx), void *ctx) {
  Persistence *p;
  if (cairn_status s = Get("cairn_db_list", &p)) return s;
  std::vector<std::string> names;
  Status st = p->List(&names);
  if (st.ok())
    for (const std::string &n : names) fn(n.c_str(), ctx);
  return Report(st);
}

const char *cairn_db_name(const cairn_db *db) { return db ? db->name.c_str() : ""; }

void cairn_db_each_open(void (*fn)(cairn_db *db, void *ctx), void *ctx) {
  if (Persistence *p = Persistence::Instance()) p->ForEachOpen(fn, ctx);
}

cairn_status cairn_db_stored_types(cairn_db *db, void (*fn)(const cairn_type *stored, void *ctx),
                                   void *ctx) {
  Persistence *p;
  if (cairn_status s = Get("cairn_db_stored_types", &p)) return s;
  if (!db)
    return Report(Status(CAIRN_INVALID_ARGUMENT, "cairn_db_stored_types was given no database"));
  return Report(p->StoredTypes(db, fn, ctx));
}

cairn_status cairn_db_get_root(cairn_db *db, void **root) {
  Persistence *p;
  if (cairn_status s = Get("cairn_db_get_root", &p)) return s;
  if (!db) return Report(Status(CAIRN_INVALID_ARGUMENT, "cairn_db_get_root was given no database"));
  return Report(p->GetRoot(db, root));
}

cairn_status cairn_db_set_root(cairn_db *db, void *root) {
  Persistence *p;
  if (cairn_status s = Get("cairn_db_set_root", &p)) return s;
  if (!db) return Report(Status(CAIRN_INVALID_ARGUMENT, "cairn_db_set_root was given no database"));
  return Report(p->SetRoot(db, root));
}

cairn_status cairn_txn_begin(void) {
  Persistence *p;
  if (cairn_status s = Get("cairn_txn_begin", &p)) return s;
  return Report(p->Begin());
}

cairn_status cairn_txn_commit(void) {
  Persistence *p;
  if (cairn_status s = Get("cairn_txn_commit", &p)) return s;
  cairn::util::ScrubDeadStack();  // stale words below must not pin pages (stack_scrub.h)
  return Report(p->Commit());
}

cairn_status cairn_txn_abort(void) {
  Persistence *p;
  if (cairn_status s = Get("cairn_txn_abort", &p)) return s;
  return Report(p->Abort());
}

cairn_status cairn_txn_chain(void) {
  Persistence *p;
  if (cairn_status s = Get("cairn_txn_chain", &p)) return s;
  cairn::util::ScrubDeadStack();  // stale words below must not pin pages (stack_scrub.h)
  return Report(p->Chain());
}

cairn_status cairn_txn_checkpoint(void) {
  Persistence *p;
  if (cairn_status s = Get("cairn_txn_checkpoint", &p)) return s;
  cairn::util::ScrubDeadStack();  // stale words below must not pin pages (stack_scrub.h)
  return Report(p->Checkpoint());
}

int cairn_txn_is_open(void) {
  Persistence *p = Persistence::Instance();
  return p && p->IsOpen();
}

int cairn_txn_changes_pending(void) {
  Persistence *p = Persistence::Instance();
  return p && p->ChangesPending();
}

void cairn_make_resident(void *ptr, size_t n) {
  if (Persistence *p = Persistence::Instance()) p->MakeResident(ptr, n);
}

cairn_status cairn_install_fault_handler(void) {
  if (cairn_is_initialized()) cairn::gc::Roots::CheckMutator("cairn_install_fault_handler");
  return Report(cairn::persist::InstallFaultHandler());
}

int cairn_handle_fault(void *addr, int is_write) {
  return cairn::persist::HandleFaultFromEmbedder(addr, is_write);
}

void cairn_set_fault_error_hook(cairn_fault_error_hook hook, void *ctx) {
  Persistence::SetFaultErrorHook(hook, ctx);
}

void cairn_make_resident_for_read(const void *ptr, size_t n) {
  if (cairn_is_initialized()) cairn::gc::Roots::CheckMutator("cairn_make_resident_for_read");
  if (Persistence *p = Persistence::Instance()) p->MakeResidentForRead(ptr, n);
}

cairn_status cairn_load_for_read(const void *ptr, size_t n) {
  if (cairn_is_initialized()) cairn::gc::Roots::CheckMutator("cairn_load_for_read");
  Persistence *p = Persistence::Instance();
  return p ? Report(p->LoadForRead(ptr, n)) : CAIRN_OK;
}

void cairn_persist_get_stats(cairn_persist_stats *out) {
  Persistence *p = Persistence::Instance();
  if (p)
    p->GetStats(out);
  else
    *out = cairn_persist_stats{};
}

void cairn_persist_last_commit_stats(cairn_persist_stats *out) {
  Persistence *p = Persistence::Instance();
  if (p)
    p->GetLastCommitStats(out);
  else
    *out = cairn_persist_stats{};
}

size_t cairn_persist_last_commit_types(cairn_type_count *out, size_t max) {
  Persistence *p = Persistence::Instance();
  return p ? p->LastCommitTypes(out, max) : 0;
}

}  // extern "C"
