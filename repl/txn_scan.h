// What a function's code does about transactions, for the session's rule S2 (session.h): an
// input runs in a transaction of its own unless it begins transactions itself, directly
// (`atomic`, Transaction.begin()) or through the functions and methods it calls.
#ifndef CAIRN_REPL_TXN_SCAN_H
#define CAIRN_REPL_TXN_SCAN_H

#include <vector>

#include "check/sem.h"

namespace cairn::repl {

struct TxnFacts {
  bool begins = false;         // `atomic` or Transaction.begin() in its body
  bool opens_store = false;    // a Database builtin that opens the store (create, open, drop)
  bool creates_store = false;  // Database.create: makes the store if there is none
  std::vector<const front::FuncInfo *> calls;      // the functions and methods it calls by name
  std::vector<const front::GlobalInfo *> globals;  // the variables it reads or writes
  bool run = false;  // an input's own code (run once; set by the session, not the scan)
};

// The facts of one body (calls through function values are not followed, nor overrides of a
// method called: their targets are known only at run time).
TxnFacts scanTransactions(const front::sem::Function &fn);

}  // namespace cairn::repl

#endif  // CAIRN_REPL_TXN_SCAN_H
