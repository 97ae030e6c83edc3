// The structural fingerprint (cairn/type.h) a class will have once the descriptor pass has made
// its descriptor, computed from the checker's view of the class, so that the REPL can decide
// about a redefinition before any code of it exists. It follows docs/plugin.md: the class's
// name; one field per element of its struct: the base class first (kind STRUCT, named after the
// base, its own fingerprint nested), then its own fields in order, int as I64, float as F64,
// bool as BOOL, every reference as REF. The session checks it against the descriptor the pass
// made each time a class is defined (Session, "fingerprint self-check").
#ifndef CAIRN_REPL_FINGERPRINT_H
#define CAIRN_REPL_FINGERPRINT_H

#include <cstdint>

#include "check/types.h"

namespace cairn::repl {

uint64_t classFingerprint(const front::ClassInfo *cls);

}  // namespace cairn::repl

#endif  // CAIRN_REPL_FINGERPRINT_H
