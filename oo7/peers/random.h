// SplitMix64, exactly as std.random defines it (docs/stdlib.md), so that the peers draw the same
// numbers as the Cairn generator and build the same instance.
#ifndef CAIRN_OO7_PEERS_RANDOM_H
#define CAIRN_OO7_PEERS_RANDOM_H

#include <cstdint>

namespace oo7 {

class Random {
 public:
  explicit Random(int64_t seed) : state_(static_cast<uint64_t>(seed)) {}

  uint64_t Next() {
    state_ += 0x9E3779B97F4A7C15ull;
    uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  // lo + ((next() >>> 1) % (hi - lo)), for lo < hi (std.random's int(lo, hi)).
  int64_t Int(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>((Next() >> 1) % static_cast<uint64_t>(hi - lo));
  }

 private:
  uint64_t state_;
};

}  // namespace oo7

#endif  // CAIRN_OO7_PEERS_RANDOM_H
