// The two instantiations of GCBench linked into cairn-gcbench.
#pragma once

#include "gcbench.h"

namespace gcbench {

Result RunCairn(double (*now)());
Result RunBoehm(double (*now)());
int BoehmMarkers();  // marker threads the Boehm collector runs with (1: no parallel marking)

}  // namespace gcbench
