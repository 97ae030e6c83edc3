// Reading RocksDB's write-ahead logs before RocksDB does, to tell an incomplete last record (a
// process killed while writing it: normal, and never an acknowledged commit) from damage before
// the tail (which RocksDB's point-in-time recovery would silently cut off, with every commit
// after it, and then delete).
//
// The log format (RocksDB's, documented in its wiki "Write Ahead Log File Format"): the file is
// a sequence of 32 KiB blocks; a block holds physical records and, when fewer than 7 bytes are
// left, a zero trailer. A physical record is
//
//     checksum:u32 (masked CRC32C of type and payload) | length:u16 | type:u8 | payload
//
// with type FULL (1), or FIRST (2), MIDDLE (3) and LAST (4) for a logical record cut across
// blocks, and SET_COMPRESSION (9) as the first record of a compressed log. A logical record is
// one write batch: sequence:u64, count:u32, then the writes. A physical record never crosses a
// block. The store writes one batch per commit, and every open starts a new log, so a crashed
// writer leaves at most one incomplete record, at the very end of its log.
//
// What ScanWal calls what:
//   - clean: every record whole and intact;
//   - incomplete: the file ends inside a record (its header, its payload, or between the
//     fragments of a batch), and no intact record follows: the tail a killed writer leaves;
//   - damaged: anything else: a checksum mismatch, an impossible length or type, fragments out
//     of order, a zeroed header with data after it, an incomplete record followed by intact
//     ones, or an intact batch whose sequence number goes back (below where the batch before it,
//     in this log or an earlier live one, ended) or past RocksDB's largest (2^56 - 1). The
//     intact batches after the damage are collected (the commits recovery would lose).
#ifndef CAIRN_STORE_WAL_SCAN_H
#define CAIRN_STORE_WAL_SCAN_H

#include <cstdint>
#include <string>
#include <vector>

#include "cairn/status.h"

namespace cairn::store {

// One logical record: a RocksDB write batch, which is one commit of the store.
struct WalBatch {
  uint64_t offset = 0;    // of its first fragment in the file
  uint64_t sequence = 0;  // the sequence number of its first write
  uint32_t writes = 0;    // the number of writes in it
  std::string rep;        // the batch itself (kept only for batches after damage)
};

struct WalFile {
  enum class End { kClean, kIncomplete, kDamaged };
  std::string path;
  uint64_t number = 0;         // from the name, 000123.log
  uint64_t size = 0;           // bytes
  uint64_t batches = 0;        // whole batches read before the end (or the damage)
  uint64_t last_sequence = 0;  // of the last write of those batches (0: none)
  End end = End::kClean;
  uint64_t end_offset = 0;      // kIncomplete, kDamaged: where the record in question starts
  uint64_t batch_offset = 0;    // kDamaged: where the batch holding that record starts
  std::string damage;           // kDamaged: what is wrong there
  uint64_t resumed_offset = 0;  // kDamaged: the first intact record after the damage (or size)
  // The intact batches that point-in-time recovery would drop: in the first damaged file, those
  // after the damage; in every later file, all of them (RocksDB stops replaying at the damage).
  std::vector<WalBatch> after;
};

struct WalScan {
  std::vector<WalFile> files;  // in log number order
  uint64_t skipped = 0;        // obsolete logs left unread (below first_live)
  // The first damaged file, or nullptr when none is.
  const WalFile *FirstDamaged() const;
  // Every file's `after`, in order: the commits recovery would lose.
  std::vector<const WalBatch *> Lost() const;
};

// Scans the write-ahead logs (*.log) in the RocksDB directory `rocks_dir` whose number is at
// least `first_live` (see FirstLiveLog). Errors are about reading the files (CAIRN_IO_ERROR);
// what is found is in `out`.
Status ScanWal(const std::string &rocks_dir, WalScan *out, uint64_t first_live = 0);

// The number of the oldest log RocksDB will replay: older ones are obsolete (their writes are in
// table files) but may still be on disk, because RocksDB deletes them in the background and a
// killed process leaves them; damage in them loses nothing, so it must not refuse the open. Read
// from the MANIFEST by a read-only open of `rocks_dir` that writes nothing and stops before
// replaying any record (wal_live.cpp). False when it cannot be told (the MANIFEST cannot be
// read: the real open reports why); then every log is scanned.
bool FirstLiveLog(const std::string &rocks_dir, uint64_t *first_live);

// Deletes the logs below `first_live`, as RocksDB would after its next flush: TransactionDB reads
// every log left in the directory at open, obsolete or not (for two-phase commit, which the store
// does not use), so damage in an obsolete one would fail the open though it loses nothing (a
// plain read-only open skips them).
// `*removed` counts them.
Status RemoveObsoleteLogs(const std::string &rocks_dir, uint64_t first_live, uint64_t *removed);

// For `cairn db recover`, once the logs are copied: cuts the first damaged log where its damaged
// batch starts and removes the live logs after it, so that RocksDB replays exactly the batches
// before the damage. (Its point-in-time recovery stops at a record whose checksum fails, but
// replays an intact record whose sequence number is wrong, and its Debian build then aborts.)
Status CutAtDamage(const WalScan &scan);

// Counts the logs in `rocks_dir` that hold bytes (`*with_records`); with `remove_empty`, deletes
// the empty ones first. An empty log holds no record: nothing to replay, to lose or to damage.
// The last session's log is empty when it committed nothing (a reader's), and a writing open
// deletes it: else RocksDB would replay it, TransactionDB would keep it until a flush, and the
// open would find two logs and make that flush (Store::Impl::ReleaseOldLogs: a synced write, a
// table file, and every few opens a compaction) for a store in which nothing changed.
Status CountLogs(const std::string &rocks_dir, bool remove_empty, uint64_t *with_records);

}  // namespace cairn::store

#endif  // CAIRN_STORE_WAL_SCAN_H
