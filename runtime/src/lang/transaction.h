// The transaction a program has open, as the language runtime tracks it (handles: see
// cairn/lang.h).
#pragma once

namespace cairn::lang {

// Aborts the open transaction, if there is one (program end, exit, runtime error): nothing of
// it reaches the database. Reports a failure to abort on standard error and carries on.
void AbortOpenTransaction();

}  // namespace cairn::lang
