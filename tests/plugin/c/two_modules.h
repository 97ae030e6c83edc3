/* The type both modules of two_modules_{a,b}.c define, each with its own descriptor (the plugin
 * describes every module's types): one type to the runtime, with one canonical descriptor. */
#ifndef CAIRN_TEST_TWO_MODULES_H
#define CAIRN_TEST_TWO_MODULES_H

#include <stdint.h>

#include "cairn/heap_c.h"

struct Point {
  int64_t x;
  int64_t y;
  CAIRN_REF(struct Point) next;
};

/* Defined in two_modules_b.c. */
CAIRN_REF(struct Point) b_make_point(int64_t x, int64_t y);
int b_is_point(CAIRN_REF(void) obj);
const cairn_type *b_point_type(void);

#endif
