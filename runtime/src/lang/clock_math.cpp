// Clocks (std.time) and libm (std.math): cairn/lang.h, Standard library support.
#include <cmath>
#include <ctime>

#include "cairn/lang.h"

extern "C" {

int64_t cairn_time_now_nanos(void) {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

double cairn_time_wall_seconds(void) {
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double cairn_math_sqrt(double x) { return std::sqrt(x); }
double cairn_math_floor(double x) { return std::floor(x); }
double cairn_math_ceil(double x) { return std::ceil(x); }
double cairn_math_pow(double x, double y) { return std::pow(x, y); }

}  // extern "C"
