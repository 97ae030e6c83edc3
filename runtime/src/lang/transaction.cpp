// The built-in class Transaction and atomic { } over cairn/persist.h (cairn/lang.h,
// Transaction).
//
// Handles: every begin (Transaction.begin() or atomic) takes the next number, 1, 2, ...; the
// number of the open transaction is `current`. A handle names an open transaction while it is
// `current` and the runtime has a transaction open; chain() keeps `current`, commit() and
// abort() end it (current = 0). So a handle whose transaction has ended never names another.
#include "lang/transaction.h"

#include <cstdio>

#include "cairn/lang.h"
#include "lang/errors.h"

namespace cairn::lang {
namespace {

int64_t last_handle = 0;  // the number the last begin took
int64_t current = 0;      // the open transaction's handle, 0 if none

void Begin(const cairn_loc *loc) {
  if (cairn_txn_is_open()) RuntimeError(loc, "a transaction is already open");
  if (cairn_txn_begin() != CAIRN_OK) DatabaseError(loc);
  current = ++last_handle;
}

void RequireOpen(const cairn_loc *loc, int64_t txn) {
  if (!cairn_lang_txn_is_open(txn)) RuntimeError(loc, "transaction is not open");
}

}  // namespace

void AbortOpenTransaction() {
  current = 0;
  if (!cairn_txn_is_open()) return;
  if (cairn_txn_abort() != CAIRN_OK)
    std::fprintf(stderr, "cairn: the open transaction could not be aborted: %s\n",
                 cairn_last_error());
}

}  // namespace cairn::lang

using namespace cairn::lang;

extern "C" {

int64_t cairn_lang_txn_begin(const cairn_loc *loc) {
  Begin(loc);
  return current;
}

void cairn_lang_txn_commit(const cairn_loc *loc, int64_t txn) {
  RequireOpen(loc, txn);
  if (cairn_txn_commit() != CAIRN_OK) DatabaseError(loc);
  current = 0;
}

void cairn_lang_txn_abort(const cairn_loc *loc, int64_t txn) {
  RequireOpen(loc, txn);
  if (cairn_txn_abort() != CAIRN_OK) DatabaseError(loc);
  current = 0;
}

void cairn_lang_txn_chain(const cairn_loc *loc, int64_t txn) {
  RequireOpen(loc, txn);
  if (cairn_txn_chain() != CAIRN_OK) DatabaseError(loc);
}

void cairn_lang_txn_checkpoint(const cairn_loc *loc, int64_t txn) {
  RequireOpen(loc, txn);
  if (cairn_txn_checkpoint() != CAIRN_OK) DatabaseError(loc);
}

int cairn_lang_txn_is_open(int64_t txn) {
  return txn != 0 && txn == current && cairn_txn_is_open();
}

void cairn_lang_atomic_begin(const cairn_loc *loc) { Begin(loc); }

void cairn_lang_atomic_commit(const cairn_loc *loc) {
  if (!cairn_txn_is_open()) RuntimeError(loc, "transaction is not open");
  if (cairn_txn_commit() != CAIRN_OK) DatabaseError(loc);
  current = 0;
}

}  // extern "C"
