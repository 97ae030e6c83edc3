/* Tree's descriptor written by hand, as a C program using the runtime directly would: prints
 * cairn_type_fingerprint_compute of it (as a signed number, the way LLVM IR prints an i64), so
 * check.sh can compare the runtime's computation with the plugin's. */
#include <inttypes.h>
#include <stdio.h>

#include "cairn/type.h"

int main(void) {
  static const cairn_field fields[] = {
      {"key", 0, CAIRN_KIND_I64, 0, 1, 8, NULL, NULL},
      {"left", 8, CAIRN_KIND_REF, 0, 1, 8, NULL, NULL},
      {"right", 16, CAIRN_KIND_REF, 0, 1, 8, NULL, NULL},
      {"weight", 24, CAIRN_KIND_F64, 0, 1, 8, NULL, NULL},
  };
  static const uint32_t refs[] = {8, 16};
  cairn_type tree = {CAIRN_TYPE_ABI, 0, 0, "Tree", 32, 8, CAIRN_KIND_NONE, 2, 4, refs, fields,
                     NULL, NULL, 0, 0};
  printf("%" PRId64 "\n", (int64_t)cairn_type_fingerprint_compute(&tree));
  return 0;
}
