// Scrubbing the dead part of the stack before a commit.
//
// The collector scans the stack conservatively: every word that looks like a reference pins the
// page it points into. Words left in dead frames by earlier calls (the program's, the
// allocator's) are not below the stack pointer only: the frames of the commit itself are built
// over them, and a slot the commit's code never writes (padding, a local not yet assigned) keeps
// the stale word and is scanned. At an ordinary collection that only keeps garbage a little
// longer; at a commit it makes the page persistent in place, ambiguously, with whatever else is
// on it. Zeroing the stack below the caller first removes those stale words.
#pragma once

#include <cstddef>
#include <cstring>

namespace cairn::util {

// How much dead stack is zeroed: more than the deepest chain of frames the commit builds.
inline constexpr size_t kScrubBytes = 64 * 1024;

// Zeroes kScrubBytes of the stack below the caller's frame.
__attribute__((noinline)) inline void ScrubDeadStack() {
  volatile char buf[kScrubBytes];
  std::memset(const_cast<char *>(buf), 0, sizeof buf);
  asm volatile("" : : "r"(buf) : "memory");
}

}  // namespace cairn::util
