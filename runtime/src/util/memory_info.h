// What the machine (or the control group a container runs in) has of memory, from the kernel's
// files: for the heap's size (heap/page_heap.cpp) and a commit's memory check
// (persist/commit.cpp, CheckCommitMemory).
#pragma once

#include <cstdint>

namespace cairn::util {

// The machine's memory and swap, or its control group's limit when that is less (cgroup v2's
// memory.max, v1's memory/memory.limit_in_bytes, read at the root of the cgroup file system as
// a container sees it; "max", or v1's huge number, is no limit); 0 if unknown.
uint64_t MachineMemoryBytes();

// What can still be had now: MemAvailable and SwapFree of /proc/meminfo, or, when less, the
// control group's limit less its usage (memory.max - memory.current; v1: limit_in_bytes -
// usage_in_bytes); 0 if unknown.
uint64_t AvailableMemoryBytes();

}  // namespace cairn::util
