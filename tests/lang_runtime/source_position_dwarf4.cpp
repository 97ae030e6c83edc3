// Compiled with -gdwarf-4 (CMakeLists.txt): a call whose line the reader finds in a DWARF 4
// line-number program (source_position_test.cpp).
#include <cstdint>

namespace cairn_langtest {
namespace {

__attribute__((noinline)) uintptr_t CallSite4() {
  return reinterpret_cast<uintptr_t>(__builtin_return_address(0)) - 1;
}

}  // namespace

__attribute__((noinline)) uintptr_t Dwarf4CallSite(int *line) {
  *line = __LINE__ + 1;
  const uintptr_t at = CallSite4();
  asm volatile("" ::: "memory");  // not a tail call: the call stays in this function
  return at;
}

}  // namespace cairn_langtest
