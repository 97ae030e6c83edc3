/* Two modules that define the same heap type (two_modules.h), compiled separately through the
 * plugin and linked into one program: each registers its own descriptor, the runtime keeps the
 * first as the type's canonical one (type.h T7), and each module's canonical slot receives it.
 * So an object made by either module passes the other's identity test (header == CAIRN_TYPE),
 * and both modules name the same descriptor. Without canonical slots, module B would compare
 * headers with its own descriptor and find module A's objects not to be Points.
 *
 * Exit status 0 and "two_modules: ok" on success; each failed check is printed. */
#include <stdio.h>

#include "two_modules.h"

CAIRN_HEAP_TYPE(Point);

static int failures = 0;

#define CHECK(cond)                                                                   \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      fprintf(stderr, "two_modules: check failed at line %d: %s\n", __LINE__, #cond); \
      failures++;                                                                     \
    }                                                                                 \
  } while (0)

static CAIRN_REF(struct Point) a_make_point(int64_t x, int64_t y) {
  CAIRN_REF(struct Point) p = CAIRN_NEW(Point);
  p->x = x;
  p->y = y;
  return p;
}

static int a_is_point(CAIRN_REF(void) obj) {
  return cairn_type_of(CAIRN_PTR(obj)) == CAIRN_TYPE(Point);
}

int main(void) {
  if (cairn_init(NULL) != CAIRN_OK) {
    fprintf(stderr, "two_modules: cairn_init: %s\n", cairn_last_error());
    return 1;
  }
  /* One descriptor for the type in the process, whichever module names it. */
  CHECK(CAIRN_TYPE(Point) == b_point_type());
  CHECK(cairn_canonical_type(CAIRN_TYPE(Point)) == CAIRN_TYPE(Point));

  CAIRN_REF(struct Point) made_by_a = a_make_point(1, 2);
  CAIRN_REF(struct Point) made_by_b = b_make_point(3, 4);
  CHECK(cairn_type_of(CAIRN_PTR(made_by_a)) == cairn_type_of(CAIRN_PTR(made_by_b)));
  /* Identity tests agree across the modules, both ways. */
  CHECK(a_is_point(made_by_a));
  CHECK(a_is_point(made_by_b));
  CHECK(b_is_point(made_by_a));
  CHECK(b_is_point(made_by_b));

  /* And still after collections that move the objects. */
  made_by_a->next = made_by_b;
  for (int i = 0; i < 5; i++) cairn_collect();
  CHECK(b_is_point(made_by_a) && a_is_point(made_by_a->next));
  CHECK(made_by_a->x == 1 && made_by_a->next->y == 4);
  CHECK(cairn_verify_heap(10) == 0);

  if (failures) return 1;
  printf("two_modules: ok\n");
  return 0;
}
