// A page delta: the words of a stored page that one commit changed, written as a RocksDB merge
// operand under the page's 'P' key instead of the whole 8,224-byte value (store format 2; moves
// since format 3: docs/store-format.md). RocksDB folds the operands into the page (PageDeltaMerge)
// when the page is read and when a compaction rewrites it, so every reader still sees a whole
// stored page.
//
//   offset size  field
//        0    4  crc32c of bytes 4 .. end
//        4    2  delta format version (kPageDeltaVersion)
//        6    2  number of ranges r
//        8    8  database id
//       16    8  page number
//       24    4  the checksum (bytes 0..3) of the whole stored page the delta produces
//       28    4  reserved (0)
//       32  ...  r ranges, in increasing offset order, not overlapping: u16 offset, u16 field, then
//                - a literal (field bit 15 clear): field is the length; then length bytes, the
//                  range's new contents;
//                - a move (field bit 15 set, version 2): bits 0..13 are the length; then a u16
//                  source offset: the range's new contents are the base's bytes there;
//                offsets, sources and lengths multiples of 8, every range within the page, bit
//                14 clear. Version 1 deltas (no moves) are still applied.
//
// All little-endian. Invariants:
//   PD1. A delta applies only to the page it names, and only if its own checksum holds: damage
//        to an operand is CAIRN_CORRUPTION when the page is read, never a silently wrong page.
//   PD2. Applied to the page it was computed against, a delta gives back exactly the page that
//        was written: the result's checksum must equal the one the writer recorded (bytes
//        24..27), so a delta applied to any other base (a lost or damaged earlier version) is
//        CAIRN_CORRUPTION too, end to end.
//   PD3. A delta is written only for a page that is stored (never for one allocated in the same
//        transaction), in the same RocksDB write batch as the rest of the commit (S5).
//   PD4. Folding never fails: a page whose base is missing or damaged, or one of whose deltas
//        fails PD1 or PD2, folds into a value whose checksum is wrong on purpose. Reads and
//        `cairn db check` report the page damaged (S3), and flushes and compactions, which a
//        failed merge would stop (and every later write with them), go on.
//   PD5. A move reads the page as it was before the delta (its base), whatever the ranges
//        before it wrote: an entry inserted into a sorted array is one literal word and a move
//        of the entries after it, not a rewrite of all of them.
#ifndef CAIRN_STORE_PAGE_DELTA_H
#define CAIRN_STORE_PAGE_DELTA_H

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "cairn/store.h"

namespace rocksdb {
class MergeOperator;
}

namespace cairn::store {

inline constexpr uint16_t kPageDeltaVersion = 2;  // 1 (no moves) is still applied
inline constexpr size_t kPageDeltaHeaderSize = 32;

// The delta from `base` to `now` (each kPageSize bytes of contents) for page `page` of database
// `db` into *out, comparing 8-byte words: a move for a run of changed words that the base holds
// up to 16 words away (an insertion or removal in a sorted array), a literal range for each
// other run of changed words. Returns false (and leaves *out unspecified) when the delta would
// take more than `max_bytes`: the caller then writes the whole page.
// *checksum, if given, gets the checksum of the page the delta produces (as it returns true).
bool EncodePageDelta(uint64_t db, PageNo page, const char *base, const char *now, size_t max_bytes,
                     std::string *out, uint32_t *checksum = nullptr);

// Applies `delta` (PD1, PD2) to `stored`, a whole stored page value (header and contents) of
// page `page` of database `db` whose own checksum was verified. On failure returns false and says
// why in *problem.
bool ApplyPageDelta(std::string_view delta, uint64_t db, PageNo page, std::string *stored,
                    std::string *problem);

// The merge operator every store opens RocksDB with: folds the deltas of a 'P' key into its
// stored page (PD4: a page that cannot be folded is stored damaged).
std::shared_ptr<rocksdb::MergeOperator> NewPageDeltaMergeOperator();

// The most deltas one fold of the merge operator applied, in this process, since the last
// reset (kMaxSuccessiveDeltas of rocks_options.h bounds it for reads of the memtable).
uint64_t MostDeltasFoldedAtOnce();
void ResetMostDeltasFoldedAtOnce();

}  // namespace cairn::store

#endif  // CAIRN_STORE_PAGE_DELTA_H
