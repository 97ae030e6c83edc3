// The transaction a program has open, as the language runtime tracks it (handles: see
// cairn/lang.h).
#pragma once

#include "cairn/lang.h"

namespace cairn::lang {

// Aborts the open transaction, if there is one (program end, exit, runtime error): nothing of
// it reaches the database. Reports a failure to abort on standard error and carries on.
void AbortOpenTransaction();

// At the end of main: aborts the open transaction, if there is one, saying so on standard error
// (where it began, or the chain() that began it; where its last checkpoint() wrote; and that
// nothing since was written): a program that forgets its commit is told, where exit() and a
// runtime error abort without a note (that is what they promise).
void AbortTransactionLeftOpen();

// Whether no store is open and none is where the first database call would open one
// (database.cpp). A transaction begun then is storeless: it opens no store (a program that uses
// no database leaves none behind, language.md), and there is nothing it could read or write
// until Database.create makes the store, which then calls StoreMade: the runtime's transaction
// begins there, and the storeless one goes on as it.
bool NoStore();
void StoreMade(const cairn_loc *loc);

}  // namespace cairn::lang
