// Scanning RocksDB's write-ahead logs (see wal_scan.h for the format and the verdicts).
#include "wal_scan.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "crc32c.h"
#include "encoding.h"
#include "rocks_status.h"
#include "store_files.h"

namespace cairn::store {
namespace fs = std::filesystem;

namespace {

constexpr size_t kBlockSize = 32768;
constexpr size_t kHeaderSize = 7;
constexpr size_t kBatchHeaderSize = 12;  // sequence:u64, count:u32

enum RecordType : uint8_t {
  kZero = 0,
  kFull = 1,
  kFirst = 2,
  kMiddle = 3,
  kLast = 4,
  kSetCompression = 9,
};

// RocksDB stores CRCs masked (rotated and offset) so that a CRC of data holding CRCs is not
// degenerate.
uint32_t Unmask(uint32_t masked) {
  uint32_t rot = masked - 0xa282ead8u;
  return (rot >> 17) | (rot << 15);
}

// One physical record, or why there is none at `pos`.
struct Physical {
  enum Kind { kRecord, kEnd, kIncomplete, kBad } kind = kEnd;
  uint8_t type = 0;
  size_t pos = 0;    // of the header (kIncomplete, kBad: where the walk stopped)
  size_t start = 0;  // kIncomplete, kBad: where the unfinished or damaged batch starts
  std::string_view payload;
  std::string why;  // kBad
};

bool AllZero(std::string_view bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](char c) { return c == 0; });
}

// True if an intact record (of a type in [lo, hi]) starts at `pos`.
bool IntactAt(std::string_view f, size_t pos, uint8_t lo, uint8_t hi) {
  size_t block_left = kBlockSize - pos % kBlockSize;
  if (block_left < kHeaderSize || f.size() - pos < kHeaderSize) return false;
  const char *h = f.data() + pos;
  uint8_t type = uint8_t(h[6]);
  if (type < lo || type > hi) return false;
  size_t len = uint8_t(h[4]) | (size_t(uint8_t(h[5])) << 8);
  if (kHeaderSize + len > block_left || pos + kHeaderSize + len > f.size()) return false;
  return Crc32c(h + 6, 1 + len) == Unmask(GetLe32(h));
}

// The first position at or after `from` where an intact record of a type in [lo, hi] starts, or
// f.size(). Byte by byte: after damage, nothing says where the next record begins.
size_t Resync(std::string_view f, size_t from, uint8_t lo, uint8_t hi) {
  for (size_t p = from; p + kHeaderSize <= f.size(); ++p)
    if (IntactAt(f, p, lo, hi)) return p;
  return f.size();
}

Physical Next(std::string_view f, size_t *pos) {
  Physical r;
  for (;;) {
    size_t p = *pos;
    r.pos = p;
    if (p >= f.size()) {
      r.kind = Physical::kEnd;
      return r;
    }
    size_t block_left = kBlockSize - p % kBlockSize;
    if (block_left < kHeaderSize) {  // the block's trailer
      *pos = p + block_left;
      continue;
    }
    if (f.size() - p < kHeaderSize) {
      r.kind = Physical::kIncomplete;  // the header was being written
      return r;
    }
    const char *h = f.data() + p;
    uint8_t type = uint8_t(h[6]);
    size_t len = uint8_t(h[4]) | (size_t(uint8_t(h[5])) << 8);
    if (type == kZero && len == 0 && GetLe32(h) == 0) {
      // Zeros: space preallocated and never written. Fine at the end of the file only.
      if (AllZero(f.substr(p))) {
        r.kind = Physical::kEnd;
        return r;
      }
      r.kind = Physical::kBad;
      r.why = "a zeroed record header with data after it";
      return r;
    }
    if (type != kFull && type != kFirst && type != kMiddle && type != kLast &&
        type != kSetCompression) {
      r.kind = Physical::kBad;
      r.why = "a record of unknown type " + std::to_string(type);
      return r;
    }
    if (kHeaderSize + len > block_left) {
      r.kind = Physical::kBad;
      r.why = "a record whose length (" + std::to_string(len) + " bytes) runs past its block";
      return r;
    }
    if (p + kHeaderSize + len > f.size()) {
      r.kind = Physical::kIncomplete;  // the payload was being written
      return r;
    }
    if (Crc32c(h + 6, 1 + len) != Unmask(GetLe32(h))) {
      r.kind = Physical::kBad;
      r.why = "checksum mismatch";
      return r;
    }
    r.kind = Physical::kRecord;
    r.type = type;
    r.payload = f.substr(p + kHeaderSize, len);
    *pos = p + kHeaderSize + len;
    return r;
  }
}

// Reads logical records from `pos` on. Calls batch(offset, rep) for each whole batch, which
// returns why the batch is damaged (empty: it is not). Returns the physical result that ended
// the walk (kEnd, kIncomplete or kBad) with its position (for a damaged batch, where it starts).
template <class F>
Physical Walk(std::string_view f, size_t pos, F &&batch) {
  bool in_fragment = false;
  size_t fragment_start = 0;
  std::string scratch;
  bool first = pos == 0;
  for (;;) {
    Physical r = Next(f, &pos);
    if (r.kind != Physical::kRecord) {
      r.start = in_fragment ? fragment_start : r.pos;
      // The writer stopped between the fragments of a batch.
      if (in_fragment && r.kind == Physical::kEnd) r.kind = Physical::kIncomplete;
      return r;
    }
    auto bad = [&](std::string why) {
      r.kind = Physical::kBad;
      r.why = std::move(why);
      r.start = in_fragment ? fragment_start : r.pos;
      return r;
    };
    switch (r.type) {
      case kFull:
        if (in_fragment) return bad("a batch cut off before its last fragment");
        if (std::string why = batch(r.pos, r.payload); !why.empty()) return bad(why);
        break;
      case kFirst:
        if (in_fragment) return bad("a batch cut off before its last fragment");
        in_fragment = true;
        fragment_start = r.pos;
        scratch.assign(r.payload);
        break;
      case kMiddle:
      case kLast:
        if (!in_fragment) return bad("a fragment of a batch whose start is missing");
        scratch.append(r.payload);
        if (r.type == kLast) {
          in_fragment = false;
          if (std::string why = batch(fragment_start, scratch); !why.empty()) {
            r.pos = fragment_start;
            return bad(why);
          }
        }
        break;
      case kSetCompression:
        if (!first) return bad("a compression record after the first record");
        if (r.payload.size() < 4 || GetLe32(r.payload.data()) != 0)
          return bad("a compressed log, which Cairn does not write");
        break;
    }
    first = false;
  }
}

// Why a batch numbered `sequence` with `writes` writes cannot follow the batches before it, which
// end before `*next` (0: no batch before it was read); empty when it can, and then `*next` moves
// past it. Each write of a batch takes the next sequence number (the store writes one batch per
// commit, with no two-phase commit and one write queue), so each batch starts at or after where
// the one before it ended, across logs too. RocksDB checks none of this before it replays a
// record whose checksum holds; its build in Debian asserts on it (MemTable::Add) and aborts.
std::string OutOfSequence(uint64_t sequence, uint32_t writes, uint64_t *next) {
  constexpr uint64_t kMaxSequence = (uint64_t{1} << 56) - 1;  // RocksDB's: 56 bits
  if (sequence > kMaxSequence || writes > kMaxSequence - sequence) {
    return "a write batch with sequence number " + std::to_string(sequence) +
           ", beyond RocksDB's largest";
  }
  if (*next != 0 && sequence < *next) {
    return "a write batch with sequence number " + std::to_string(sequence) + " where " +
           std::to_string(*next) + " or later was due";
  }
  *next = sequence + writes;
  return std::string();
}

Status ScanFile(const fs::path &path, bool keep_all, uint64_t *next_sequence, WalFile *out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status(CAIRN_IO_ERROR,
                  "cannot read the write-ahead log " + path.string() + ": " + std::strerror(errno));
  }
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) {
    return Status(CAIRN_IO_ERROR, "cannot read the write-ahead log " + path.string());
  }
  std::string_view f(data);
  out->path = path.string();
  out->size = f.size();
  // Before damage, the batches are counted and their numbers checked; after it, kept as they are
  // (they are lost whatever they hold).
  auto keep = [&](bool all) {
    return [out, all, next_sequence](size_t offset, std::string_view rep) -> std::string {
      if (rep.size() < kBatchHeaderSize) return "a record too short to be a write batch";
      WalBatch b;
      b.offset = offset;
      b.sequence = GetLe64(rep.data());
      b.writes = GetLe32(rep.data() + 8);
      if (all) {
        b.rep.assign(rep);
        out->after.push_back(std::move(b));
        return std::string();
      }
      if (std::string why = OutOfSequence(b.sequence, b.writes, next_sequence); !why.empty())
        return why;
      ++out->batches;
      if (b.writes) out->last_sequence = b.sequence + b.writes - 1;
      return std::string();
    };
  };
  Physical r = Walk(f, 0, keep(keep_all));
  if (keep_all) out->batches = out->after.size();
  if (r.kind == Physical::kEnd) return Status::Ok();
  if (r.kind == Physical::kIncomplete) {
    // Incomplete at the end of the file, unless something intact follows (then the length or
    // type was damaged and the "end" is a hole).
    size_t next = r.pos < f.size() ? Resync(f, r.pos + 1, kFull, kLast) : f.size();
    if (next == f.size()) {
      out->end = WalFile::End::kIncomplete;
      out->end_offset = r.start;
      return Status::Ok();
    }
    r.kind = Physical::kBad;
    r.why = "a record cut short with intact records after it";
  }
  out->end = WalFile::End::kDamaged;
  out->end_offset = r.pos;
  out->batch_offset = r.start;
  out->damage = r.why;
  // What comes after: resynchronize on the next intact start of a batch, and go on.
  size_t pos = Resync(f, r.pos + 1, kFull, kFirst);
  out->resumed_offset = pos;
  while (pos < f.size()) {
    Physical more = Walk(f, pos, keep(true));
    if (more.kind != Physical::kBad) break;
    pos = Resync(f, more.pos + 1, kFull, kFirst);
  }
  return Status::Ok();
}

}  // namespace

const WalFile *WalScan::FirstDamaged() const {
  for (const WalFile &f : files)
    if (f.end == WalFile::End::kDamaged) return &f;
  return nullptr;
}

std::vector<const WalBatch *> WalScan::Lost() const {
  std::vector<const WalBatch *> lost;
  for (const WalFile &f : files)
    for (const WalBatch &b : f.after) lost.push_back(&b);
  return lost;
}

Status ScanWal(const std::string &rocks_dir, WalScan *out, uint64_t first_live) {
  out->files.clear();
  out->skipped = 0;
  std::error_code ec;
  std::vector<std::pair<uint64_t, fs::path>> logs;
  for (const auto &e : fs::directory_iterator(rocks_dir, ec)) {
    const fs::path &p = e.path();
    if (p.extension() != ".log") continue;
    std::string stem = p.stem().string();
    if (stem.empty() || !std::all_of(stem.begin(), stem.end(), ::isdigit)) continue;
    logs.emplace_back(std::stoull(stem), p);
  }
  if (ec) {
    return Status(CAIRN_IO_ERROR,
                  "cannot list the write-ahead logs in " + rocks_dir + ": " + ec.message() +
                      (ec == std::errc::permission_denied ? PermissionAdvice() : std::string()));
  }
  std::sort(logs.begin(), logs.end());
  bool damaged = false;
  uint64_t next_sequence = 0;
  for (const auto &[number, path] : logs) {
    if (number < first_live) {
      ++out->skipped;
      continue;
    }
    WalFile f;
    f.number = number;
    Status s = ScanFile(path, damaged, &next_sequence, &f);
    if (!s.ok()) return s;
    damaged = damaged || f.end == WalFile::End::kDamaged;
    out->files.push_back(std::move(f));
  }
  return Status::Ok();
}

}  // namespace cairn::store

namespace cairn::store {

Status CutAtDamage(const WalScan &scan) {
  const WalFile *damaged = scan.FirstDamaged();
  if (damaged == nullptr) return Status::Ok();
  // The logs after the damaged one go first, the newest first, and then the damaged one is cut:
  // stopped in between, what is left still ends in damage or before it, never in a cut log
  // followed by later commits (which the scan would take for intact, and RocksDB replay over
  // a state without the commits cut).
  std::error_code ec;
  for (auto f = scan.files.rbegin(); f != scan.files.rend() && &*f != damaged; ++f) {
    if (!fs::remove(f->path, ec) && ec) {
      return Status(CAIRN_IO_ERROR, "cannot remove the write-ahead log " + f->path +
                                        " that follows the damage: " + ec.message());
    }
  }
  // The removals are on disk before the cut (a crash between must not leave the cut log followed
  // by later ones), and the cut is before RocksDB replays what is left.
  const std::string log_dir = fs::path(damaged->path).parent_path().string();
  if (Status st = SyncToDisk(log_dir); !st.ok())
    return Status(st.code(), st.message() +
                                 " (the logs after the damaged one were removed, and it is not "
                                 "cut yet: run `cairn db recover` again; its copy of the logs "
                                 "is kept)");
  fs::resize_file(damaged->path, damaged->batch_offset, ec);
  if (ec) {
    return Status(CAIRN_IO_ERROR, "cannot cut the damaged write-ahead log " + damaged->path +
                                      " at byte " + std::to_string(damaged->batch_offset) + ": " +
                                      ec.message());
  }
  return SyncToDisk(damaged->path);
}

}  // namespace cairn::store
