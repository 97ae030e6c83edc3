// The compiler's memory allocator (cli.h: AllocatorName).
//
// `cairn` is linked with mimalloc (Debian's libmimalloc-dev) when the build found it, before the
// C library, so every malloc and operator new of the process goes to it, LLVM's included. A -O0
// build of the 5,020-line compilebench program spends most of its time in LLVM, which allocates
// and frees many small objects: with the C library's malloc a tenth of the build went to malloc
// and free and another tenth to the kernel's page faults on fresh heap memory
// (docs/benchmarks.md has the figures).
#include <cstdlib>
#include <string>

#include "driver/cli.h"

#if CAIRN_HAVE_MIMALLOC
#include <mimalloc.h>
#endif

namespace cairn::driver {
namespace {

#if CAIRN_HAVE_MIMALLOC
// Huge pages where the kernel gives them (transparent huge pages, madvise mode): a fault per
// 2 MiB of heap, not per 4 KiB. mimalloc reads the option whenever it maps a segment, and the
// first one is mapped before main (libLLVM's static constructors allocate), so the option is
// set from the executable's preinit array: the dynamic linker calls it after every library is
// relocated and before any library's constructor runs. Setting an option writes mimalloc's
// static option table only (no allocation), and overrides MIMALLOC_LARGE_OS_PAGES.
void EarlyAllocatorOptions(int, char **, char **) { mi_option_enable(mi_option_large_os_pages); }
using PreinitFunction = void (*)(int, char **, char **);
__attribute__((section(".preinit_array"), used)) const PreinitFunction kEarlyAllocatorOptions =
    &EarlyAllocatorOptions;
#endif

}  // namespace

std::string AllocatorName() {
#if CAIRN_HAVE_MIMALLOC
  // Linked is not enough: malloc must resolve to mimalloc's.
  char *probe = static_cast<char *>(std::malloc(64));
  if (probe == nullptr) return "unknown (out of memory)";
  probe[0] = 0;
  bool ours = mi_is_in_heap_region(probe);
  std::free(probe);
  if (ours) {
    int v = mi_version();
    return "mimalloc " + std::to_string(v / 100) + "." + std::to_string(v / 10 % 10) + "." +
           std::to_string(v % 10) +
           (mi_option_is_enabled(mi_option_large_os_pages) ? ", huge pages" : "");
  }
#endif
  return "the C library's";
}

}  // namespace cairn::driver
