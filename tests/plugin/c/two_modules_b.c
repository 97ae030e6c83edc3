/* The second module of the two_modules test (two_modules_a.c says what it checks). */
#include "two_modules.h"

CAIRN_HEAP_TYPE(Point);

CAIRN_REF(struct Point) b_make_point(int64_t x, int64_t y) {
  CAIRN_REF(struct Point) p = CAIRN_NEW(Point);
  p->x = x;
  p->y = y;
  return p;
}

int b_is_point(CAIRN_REF(void) obj) { return cairn_type_of(CAIRN_PTR(obj)) == CAIRN_TYPE(Point); }

const cairn_type *b_point_type(void) { return CAIRN_TYPE(Point); }
