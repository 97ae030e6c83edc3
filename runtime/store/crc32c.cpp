// CRC32C, written for Cairn from the definition: reflected polynomial 0x82F63B78.
//
// The software loop processes 8 bytes per step with eight 256-entry tables (table k gives the
// CRC of a byte followed by k zero bytes), built once at start-up. The hardware path uses the
// SSE4.2 crc32 instruction, which computes the same reflected CRC32C. One instruction's result
// is the next one's input, so a single stream waits out the instruction's latency at every step;
// long inputs are taken as three streams at once (three lanes of kLane bytes, the second and
// third started from zero) and the three CRCs joined: the raw CRC (no inversions) is linear, so
// raw(c, A B) = shift(raw(c, A)) ^ raw(0, B), where shift(x) = raw(x, kLane zero bytes) is a
// linear map of x, applied with four 256-entry tables.
#include "crc32c.h"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace cairn::store {
namespace {

constexpr uint32_t kPolyReflected = 0x82F63B78u;

using Tables = std::array<std::array<uint32_t, 256>, 8>;

constexpr Tables MakeTables() {
  Tables t{};
  for (uint32_t b = 0; b < 256; ++b) {
    uint32_t c = b;
    for (int i = 0; i < 8; ++i) c = (c >> 1) ^ ((c & 1u) ? kPolyReflected : 0u);
    t[0][b] = c;
  }
  for (uint32_t b = 0; b < 256; ++b) {
    for (int k = 1; k < 8; ++k) t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xFFu];
  }
  return t;
}

constexpr Tables kTables = MakeTables();

uint32_t PortableRaw(const uint8_t *p, size_t n, uint32_t c) {
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);  // little-endian machines only (x86-64, aarch64)
    w ^= c;
    c = kTables[7][w & 0xFF] ^ kTables[6][(w >> 8) & 0xFF] ^ kTables[5][(w >> 16) & 0xFF] ^
        kTables[4][(w >> 24) & 0xFF] ^ kTables[3][(w >> 32) & 0xFF] ^ kTables[2][(w >> 40) & 0xFF] ^
        kTables[1][(w >> 48) & 0xFF] ^ kTables[0][w >> 56];
    p += 8;
    n -= 8;
  }
  while (n-- > 0) c = (c >> 8) ^ kTables[0][(c ^ *p++) & 0xFFu];
  return c;
}

#if defined(__x86_64__)
// Bytes per lane of the three-stream loop.
constexpr size_t kLane = 256;

using ShiftTables = std::array<std::array<uint32_t, 256>, 4>;

// Table k, entry b: the raw CRC of kLane zero bytes from the state b << 8k.
ShiftTables MakeShiftTables() {
  static const uint8_t zeros[kLane] = {};
  uint32_t column[32];
  for (int bit = 0; bit < 32; ++bit) column[bit] = PortableRaw(zeros, kLane, 1u << bit);
  ShiftTables t{};
  for (int k = 0; k < 4; ++k)
    for (uint32_t b = 0; b < 256; ++b)
      for (int bit = 0; bit < 8; ++bit)
        if (b & (1u << bit)) t[k][b] ^= column[8 * k + bit];
  return t;
}

const ShiftTables kShift = MakeShiftTables();

uint32_t ShiftLane(uint32_t c) {
  return kShift[0][c & 0xFF] ^ kShift[1][(c >> 8) & 0xFF] ^ kShift[2][(c >> 16) & 0xFF] ^
         kShift[3][c >> 24];
}

__attribute__((target("sse4.2"))) uint32_t HardwareRaw(const uint8_t *p, size_t n, uint32_t c) {
  while (n >= 3 * kLane) {
    uint64_t a = c, b = 0, d = 0;
    for (size_t i = 0; i < kLane; i += 8) {
      uint64_t wa, wb, wd;
      std::memcpy(&wa, p + i, 8);
      std::memcpy(&wb, p + kLane + i, 8);
      std::memcpy(&wd, p + 2 * kLane + i, 8);
      a = _mm_crc32_u64(a, wa);
      b = _mm_crc32_u64(b, wb);
      d = _mm_crc32_u64(d, wd);
    }
    c = ShiftLane(ShiftLane(uint32_t(a)) ^ uint32_t(b)) ^ uint32_t(d);
    p += 3 * kLane;
    n -= 3 * kLane;
  }
  uint64_t c64 = c;
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    c64 = _mm_crc32_u64(c64, w);
    p += 8;
    n -= 8;
  }
  c = static_cast<uint32_t>(c64);
  while (n-- > 0) c = _mm_crc32_u8(c, *p++);
  return c;
}

bool DetectHardware() {
  __builtin_cpu_init();  // needed when this runs during static initialization
  return __builtin_cpu_supports("sse4.2");
}
#else
bool DetectHardware() { return false; }
#endif

const bool kHaveHardware = DetectHardware();

}  // namespace

uint32_t Crc32cPortable(const void *data, size_t n, uint32_t crc) {
  return ~PortableRaw(static_cast<const uint8_t *>(data), n, ~crc);
}

uint32_t Crc32c(const void *data, size_t n, uint32_t crc) {
#if defined(__x86_64__)
  if (kHaveHardware) return ~HardwareRaw(static_cast<const uint8_t *>(data), n, ~crc);
#endif
  return Crc32cPortable(data, n, crc);
}

bool Crc32cIsHardware() { return kHaveHardware; }

}  // namespace cairn::store
