// Conversions between numbers: int(x) of a float (cairn/lang.h).
#include <cmath>
#include <string>

#include "cairn/lang.h"
#include "lang/errors.h"
#include "lang/format.h"

using namespace cairn::lang;

extern "C" {

int64_t cairn_float_to_int(const cairn_loc *loc, double v) {
  if (std::isnan(v)) RuntimeError(loc, "cannot convert nan to int");
  // Truncation toward zero fits in int64 exactly when -2^63 <= v < 2^63: every double above
  // -2^63 - 1 is -2^63 or more (the next one below -2^63 is -2^63 - 2048).
  constexpr double kTwo63 = 9223372036854775808.0;
  if (!(v >= -kTwo63 && v < kTwo63)) {
    std::string m = "cannot convert ";
    AppendFloat(&m, v);
    m += " to int: out of range";
    RuntimeError(loc, m);
  }
  return static_cast<int64_t>(v);
}

}  // extern "C"
