// hash(e) of references (cairn/lang.h, cairn_hash_ref): texts by their bytes, other objects by
// identity.
#include <cstring>

#include "cairn/lang.h"
#include "lang/text.h"

namespace cairn::lang {
namespace {

// SplitMix64's finalizer, as the generated code applies it to ints (lower_expr.cpp, mix64).
uint64_t Mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Eight bytes as a little-endian word, whatever the machine's order (the hash of a text must be
// the same everywhere: persistent hash tables are laid out by it).
uint64_t LoadLittle(const unsigned char *p, size_t n) {
  uint64_t w = 0;
  for (size_t i = 0; i < n; ++i) w |= static_cast<uint64_t>(p[i]) << (8 * i);
  return w;
}

}  // namespace

// The bytes' hash: each 8-byte word (the last one padded with zeros) mixed into the state, then
// the length. No allocation, so the bytes cannot move while they are read.
uint64_t HashBytes(const char *bytes, size_t n) {
  const auto *p = reinterpret_cast<const unsigned char *>(bytes);
  uint64_t h = 0x243F6A8885A308D3ull;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) h = Mix(h ^ LoadLittle(p + i, 8));
  if (i < n) h = Mix(h ^ LoadLittle(p + i, n - i));
  return Mix(h ^ (static_cast<uint64_t>(n) * 0x9E3779B97F4A7C15ull));
}

}  // namespace cairn::lang

extern "C" int64_t cairn_hash_ref(void *v) {
  if (v == nullptr) return 0;
  if (cairn::lang::IsText(v)) {
    const std::string_view s = cairn::lang::TextView(v);
    return static_cast<int64_t>(cairn::lang::HashBytes(s.data(), s.size()));
  }
  return static_cast<int64_t>(cairn_identity_hash(v));
}
