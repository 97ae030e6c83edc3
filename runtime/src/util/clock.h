// A monotonic clock in nanoseconds, for pause times and statistics.
#pragma once

#include <cstdint>
#include <ctime>

namespace cairn {

inline uint64_t NowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

}  // namespace cairn
