// The standard library's intrinsics: runtime functions (cairn/lang.h, "Standard library
// support") that the modules of the standard library call by their C names, and no other module
// sees. They are how std.text, std.io, std.time and std.math reach what Cairn cannot express
// (bytes of text, files, clocks, libm), as the std contract says (docs/stdlib.md).
//
// This is the one list the checker (which types the calls) and the lowering (which emits them)
// agree on (style.md, 10); the runtime defines each entry under the same name.
//
// Invariants:
//   I1. `sig` is the result then the parameters, one letter each: v none (result only), i int,
//       f float, b bool, t text, a an array of any element type. In C: int64_t, double, int
//       (0 or 1), void * (a text, an array or NULL).
//   I2. With `takes_loc`, the C function's first parameter is the call's `const cairn_loc *`,
//       where the runtime errors it reports point.
//   I3. A module sees the intrinsics only if it is part of the standard library (its file is in
//       the standard library's folder, ModuleInfo::is_std); a module's own names come first.
#ifndef CAIRN_FRONTEND_CHECK_INTRINSICS_H
#define CAIRN_FRONTEND_CHECK_INTRINSICS_H

#include <string_view>

namespace cairn::front {

struct Intrinsic {
  const char *name;  // the name std code calls and the runtime entry's C name
  const char *sig;   // I1
  bool takes_loc;    // I2
  bool noreturn;     // a runtime error: never returns
};

// The intrinsic called `name`, or nullptr.
const Intrinsic *findIntrinsic(std::string_view name);

}  // namespace cairn::front

#endif  // CAIRN_FRONTEND_CHECK_INTRINSICS_H
