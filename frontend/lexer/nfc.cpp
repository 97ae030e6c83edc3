// Normalization Form C (nfc.h).
#include "lexer/nfc.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <vector>

#include "source/utf8.h"

namespace cairn::front {
namespace {

struct CombiningRun {
  uint32_t first;
  uint32_t last;
  uint8_t ccc;
};
struct Decomposition {
  uint32_t cp;
  uint16_t start;  // in kDecompositionPool
  uint8_t length;
};
struct Composition {
  uint64_t pair;  // first << 21 | second
  uint32_t composite;
};

#include "lexer/nfc_table.inc"

// Hangul syllables: S = SBase + (L - LBase) * NCount + (V - VBase) * TCount + (T - TBase).
constexpr uint32_t kSBase = 0xAC00, kLBase = 0x1100, kVBase = 0x1161, kTBase = 0x11A7;
constexpr uint32_t kLCount = 19, kVCount = 21, kTCount = 28;
constexpr uint32_t kNCount = kVCount * kTCount, kSCount = kLCount * kNCount;

uint8_t combiningClass(uint32_t cp) {
  if (cp < 0x300) return 0;
  const CombiningRun *end = std::end(kCombining);
  const CombiningRun *it =
      std::upper_bound(std::begin(kCombining), end, cp,
                       [](uint32_t c, const CombiningRun &r) { return c < r.first; });
  if (it == std::begin(kCombining)) return 0;
  --it;
  return cp <= it->last ? it->ccc : 0;
}

void decompose(uint32_t cp, std::vector<uint32_t> &out) {
  if (cp >= kSBase && cp < kSBase + kSCount) {
    const uint32_t s = cp - kSBase;
    out.push_back(kLBase + s / kNCount);
    out.push_back(kVBase + (s % kNCount) / kTCount);
    if (s % kTCount != 0) out.push_back(kTBase + s % kTCount);
    return;
  }
  const Decomposition *end = std::end(kDecompositions);
  const Decomposition *it =
      std::lower_bound(std::begin(kDecompositions), end, cp,
                       [](const Decomposition &d, uint32_t c) { return d.cp < c; });
  if (it == end || it->cp != cp) {
    out.push_back(cp);
    return;
  }
  out.insert(out.end(), kDecompositionPool + it->start,
             kDecompositionPool + it->start + it->length);
}

// The primary composite of a and b, 0 if there is none.
uint32_t compose(uint32_t a, uint32_t b) {
  if (a >= kLBase && a < kLBase + kLCount && b >= kVBase && b < kVBase + kVCount)
    return kSBase + ((a - kLBase) * kVCount + (b - kVBase)) * kTCount;
  if (a >= kSBase && a < kSBase + kSCount && (a - kSBase) % kTCount == 0 && b > kTBase &&
      b < kTBase + kTCount)
    return a + (b - kTBase);
  const uint64_t key = (static_cast<uint64_t>(a) << 21) | b;
  const Composition *end = std::end(kCompositions);
  const Composition *it =
      std::lower_bound(std::begin(kCompositions), end, key,
                       [](const Composition &c, uint64_t k) { return c.pair < k; });
  return it != end && it->pair == key ? it->composite : 0;
}

}  // namespace

std::string toNfc(std::string_view s) {
  if (std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; }))
    return std::string(s);
  // 1. The full canonical decomposition.
  std::vector<uint32_t> cps;
  for (size_t i = 0; i < s.size();) {
    uint32_t cp = 0;
    const int n = utf8Sequence(s, i, &cp);
    if (n == 0) return std::string(s);  // not UTF-8 (F2): left alone
    decompose(cp, cps);
    i += static_cast<size_t>(n);
  }
  // 2. Canonical ordering: each run of combining marks sorted by class, stably.
  for (size_t i = 0; i < cps.size();) {
    if (combiningClass(cps[i]) == 0) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < cps.size() && combiningClass(cps[j]) != 0) ++j;
    for (size_t k = i + 1; k < j; ++k) {  // insertion sort: stable, and the runs are short
      const uint32_t cp = cps[k];
      const uint8_t cls = combiningClass(cp);
      size_t m = k;
      for (; m > i && combiningClass(cps[m - 1]) > cls; --m) cps[m] = cps[m - 1];
      cps[m] = cp;
    }
    i = j;
  }
  // 3. Canonical composition: each character joins the last starter if nothing between them
  // blocks it (a character of class 0, or of a class not below its own).
  std::vector<uint32_t> out;
  size_t starter = SIZE_MAX;
  uint8_t last_class = 0;
  for (uint32_t cp : cps) {
    const uint8_t cls = combiningClass(cp);
    if (starter != SIZE_MAX) {
      const bool adjacent = out.size() - 1 == starter;
      if (adjacent || (last_class != 0 && last_class < cls)) {
        if (const uint32_t c = compose(out[starter], cp)) {
          out[starter] = c;
          continue;
        }
      }
    }
    if (cls == 0) starter = out.size();
    out.push_back(cp);
    last_class = cls;
  }
  std::string result;
  for (uint32_t cp : out) appendUtf8(result, cp);
  return result;
}

}  // namespace cairn::front
