// Memory of the machine and of its control group (memory_info.h).
#include "util/memory_info.h"

#include <sys/sysinfo.h>

#include <cinttypes>
#include <cstdio>

namespace cairn::util {
namespace {

// The first number in `path`, if it has one.
bool ReadNumber(const char *path, uint64_t *out) {
  std::FILE *f = std::fopen(path, "r");
  if (f == nullptr) return false;
  unsigned long long v = 0;
  const bool ok = std::fscanf(f, "%llu", &v) == 1;
  std::fclose(f);
  if (ok) *out = v;
  return ok;
}

struct Cgroup {
  const char *limit, *usage;
};
constexpr Cgroup kCgroups[] = {
    {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"},
    {"/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"},
};

}  // namespace

uint64_t MachineMemoryBytes() {
  struct sysinfo si;
  if (sysinfo(&si) != 0) return 0;
  uint64_t bytes = (uint64_t(si.totalram) + si.totalswap) * si.mem_unit;
  for (const Cgroup &c : kCgroups)
    if (uint64_t limit = 0; ReadNumber(c.limit, &limit) && limit > 0 && limit < bytes)
      bytes = limit;
  return bytes;
}

uint64_t AvailableMemoryBytes() {
  std::FILE *f = std::fopen("/proc/meminfo", "r");
  if (f == nullptr) return 0;
  uint64_t available = 0, swap = 0, kib = 0;
  bool have = false;
  char line[256];
  while (std::fgets(line, sizeof line, f)) {
    if (std::sscanf(line, "MemAvailable: %" SCNu64, &kib) == 1) {
      available = kib * 1024;
      have = true;
    } else if (std::sscanf(line, "SwapFree: %" SCNu64, &kib) == 1) {
      swap = kib * 1024;
    }
  }
  std::fclose(f);
  if (!have) return 0;
  uint64_t bytes = available + swap;
  for (const Cgroup &c : kCgroups) {
    uint64_t limit = 0, usage = 0;
    if (!ReadNumber(c.limit, &limit) || !ReadNumber(c.usage, &usage) || limit == 0) continue;
    const uint64_t left = limit > usage ? limit - usage : 0;
    if (left < bytes) bytes = left;
  }
  return bytes;
}

}  // namespace cairn::util
