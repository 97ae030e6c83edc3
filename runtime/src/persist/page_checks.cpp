// The per-frame record of object starts and expected references (D11, page_checks.h).
#include "persist/page_checks.h"

#include <sys/mman.h>

#include "heap/object.h"

namespace cairn::persist {

PageChecks::~PageChecks() {
  if (entries_) munmap(entries_, pages_ * sizeof(Entry));
}

bool PageChecks::Reserve(size_t pages) {
  if (entries_) return true;
  // Anonymous and not committed: the kernel gives a zero page when an entry is first touched.
  void *p = mmap(nullptr, pages * sizeof(Entry), PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return false;
  entries_ = static_cast<Entry *>(p);
  pages_ = pages;
  return true;
}

uint32_t PageChecks::Loaded(size_t frame, const Starts &starts, uint32_t used) {
  Entry &e = entries_[frame];
  for (size_t w = 0; w < kWords; w++) {
    if (uint64_t stray = e.starts.bits[w] & ~starts.bits[w])
      return uint32_t((w * 64 + size_t(__builtin_ctzll(stray))) * 8);
  }
  e.starts = starts;
  e.covered = used;
  return 0;
}

bool PageChecks::WalkAndCheck(size_t frame, uint32_t offset, const char *page, uint32_t used) {
  Entry &e = entries_[frame];
  {
    // Objects appended since the page was walked (stabilization fills pages it made).
    size_t off = e.covered;
    while (off + 2 * heap::kWordSize <= used) {
      uintptr_t word = *reinterpret_cast<const uintptr_t *>(page + off);
      if (word == 0) break;
      const char *ref = page + off + heap::kWordSize;
      e.starts.Set(uint32_t(off + heap::kWordSize));
      off += heap::ObjectBytes(heap::TypeOfHeader(word), ref);
    }
    e.covered = uint32_t(off);
  }
  return e.starts.Has(offset);
}

}  // namespace cairn::persist
