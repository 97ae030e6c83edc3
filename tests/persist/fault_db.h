// The database of the fault tests (fault_error_test.cpp, fault_signal_test.cpp): "faulty", whose
// root is a Node{id 1, value kRootValue} with, on left, a Blob (a large object: a page run of
// its own, so it is faulted in apart from the root) and, on right, Node{id 2}.
//
// Its child scenarios (fault_db.cpp):
//   FaultDb_Write                  builds it
//   FaultDb_DamageBlob             overwrites the Blob's header word on disk with a value that
//                                  is no type index (a damaged page, with a valid checksum);
//                                  through the store's API, without the runtime
//   FaultDb_Check VALUE RIGHT BLOB the root's value is VALUE, its right's id RIGHT, and (if BLOB
//                                  is 1) the Blob is intact
#pragma once

#include <cstddef>
#include <cstdint>

#include "persist_types.h"

namespace cairn_ptest {

inline constexpr int64_t kRootValue = 8;
inline constexpr int64_t kBlobTag = 0x7a6;
inline constexpr int kBlobData = 700;  // 5.6 KB: a large object

struct Blob {
  int64_t tag;
  int64_t data[kBlobData];
};
inline constexpr cairn_field kBlobFields[] = {
    Field("tag", offsetof(Blob, tag), CAIRN_KIND_I64),
    Field("data", offsetof(Blob, data), CAIRN_KIND_I64, kBlobData),
};
inline constexpr cairn_type kBlobType = cairn::PlainType<kBlobFields>("ptest.Blob", sizeof(Blob));

inline int64_t BlobValue(int i) { return i * 5 + 3; }

}  // namespace cairn_ptest
