/* What compiled code needs from the plugin beyond descriptors, in a C program compiled by clang
 * with the plugin (at -O0 and -O2; see ../CMakeLists.txt) and linked with the runtime:
 *
 *   - method tables: module_program_methods.ll lists the methods of Shape, Circle and Square in
 *     !cairn.methods (as the Cairn front end does; C has no syntax for it), and is linked with
 *     this file's IR before the plugin runs. Calls dispatch virtually through
 *     cairn_type_of(obj)->methods[slot], on objects of the subclasses;
 *   - descriptors as values: CAIRN_TYPE(Name) compared with an object's header, and passed to
 *     the runtime;
 *   - globals as roots: a list reachable only from a global, and references in a struct global,
 *     survive many collections that move them, with the heap verified after each.
 *
 * With `commit DIR` it then commits a list of shapes to a new database in the store DIR; with
 * `read DIR` a second process opens it and dispatches on the objects it faults in: a persistent
 * object runs the methods of the program that reads it.
 *
 * Exit status 0 and "module_program: ok" on success; otherwise each failed check is printed.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cairn/heap_c.h"
#include "cairn/persist.h"

/* --- Types and their methods ----------------------------------------------------------------- */

struct Shape {
  int64_t id;
  CAIRN_REF(struct Shape) next;
};
CAIRN_HEAP_TYPE(Shape);

struct Circle {
  struct Shape base;
  double radius;
};
CAIRN_HEAP_TYPE(Circle);

struct Square {
  struct Shape base;
  double side;
  CAIRN_REF(void) label; /* a Text */
};
CAIRN_HEAP_TYPE(Square);

CAIRN_HEAP_TEXT(Text);
CAIRN_HEAP_ARRAY(Shapes, CAIRN_REF(struct Shape));

/* Method slots, as module_program_methods.ll lists them. Slot kSlotKind is inherited by Circle
 * and overridden by Square; kSlotScale is new in Circle and Square. */
enum { kSlotArea, kSlotKind, kSlotScale, kShapeMethods = 2, kSubclassMethods = 3 };

typedef double (*area_method)(CAIRN_REF(struct Shape));
typedef int64_t (*kind_method)(CAIRN_REF(struct Shape));
typedef void (*scale_method)(CAIRN_REF(struct Shape), double);

/* The methods are not static: C has no use for them but the metadata, so clang would drop
 * static ones before the plugin saw them. */
double shape_area(CAIRN_REF(struct Shape) self);
int64_t shape_kind(CAIRN_REF(struct Shape) self);
double circle_area(CAIRN_REF(struct Shape) self);
void circle_scale(CAIRN_REF(struct Shape) self, double by);
double square_area(CAIRN_REF(struct Shape) self);
int64_t square_kind(CAIRN_REF(struct Shape) self);
void square_scale(CAIRN_REF(struct Shape) self, double by);

double shape_area(CAIRN_REF(struct Shape) self) {
  (void)self;
  return -1.0;
}
int64_t shape_kind(CAIRN_REF(struct Shape) self) { return 100 + self->id % 2; }
double circle_area(CAIRN_REF(struct Shape) self) {
  const double r = ((CAIRN_REF(struct Circle))self)->radius;
  return 3.0 * r * r;
}
void circle_scale(CAIRN_REF(struct Shape) self, double by) {
  ((CAIRN_REF(struct Circle))self)->radius *= by;
}
double square_area(CAIRN_REF(struct Shape) self) {
  const double s = ((CAIRN_REF(struct Square))self)->side;
  return s * s;
}
int64_t square_kind(CAIRN_REF(struct Shape) self) { return 200 + self->id % 2; }
void square_scale(CAIRN_REF(struct Shape) self, double by) {
  ((CAIRN_REF(struct Square))self)->side *= by;
}

/* Virtual calls: header -> descriptor -> methods[slot]. */
static double area(CAIRN_REF(struct Shape) s) {
  return ((area_method)cairn_type_of(CAIRN_PTR(s))->methods[kSlotArea])(s);
}
static int64_t kind(CAIRN_REF(struct Shape) s) {
  return ((kind_method)cairn_type_of(CAIRN_PTR(s))->methods[kSlotKind])(s);
}
static void scale(CAIRN_REF(struct Shape) s, double by) {
  ((scale_method)cairn_type_of(CAIRN_PTR(s))->methods[kSlotScale])(s, by);
}

/* --- Checking --------------------------------------------------------------------------------- */

static int failures;

#define CHECK(cond, ...)                                              \
  do {                                                                \
    if (!(cond)) {                                                    \
      failures++;                                                     \
      fprintf(stderr, "module_program: %s:%d: ", __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                                   \
      fprintf(stderr, "\n");                                          \
    }                                                                 \
  } while (0)

static void check_method_tables(void) {
  const cairn_type *shape = CAIRN_TYPE(Shape);
  const cairn_type *circle = CAIRN_TYPE(Circle);
  const cairn_type *square = CAIRN_TYPE(Square);
  CHECK(shape->nmethods == kShapeMethods && shape->methods != NULL, "Shape: %u methods",
        shape->nmethods);
  CHECK(circle->nmethods == kSubclassMethods, "Circle: %u methods", circle->nmethods);
  CHECK(square->nmethods == kSubclassMethods, "Square: %u methods", square->nmethods);
  if (failures != 0) return;
  CHECK(shape->methods[kSlotArea] == (void *)shape_area, "Shape slot 0");
  CHECK(shape->methods[kSlotKind] == (void *)shape_kind, "Shape slot 1");
  CHECK(circle->methods[kSlotArea] == (void *)circle_area, "Circle slot 0");
  CHECK(circle->methods[kSlotKind] == (void *)shape_kind, "Circle slot 1 (inherited)");
  CHECK(circle->methods[kSlotScale] == (void *)circle_scale, "Circle slot 2");
  CHECK(square->methods[kSlotKind] == (void *)square_kind, "Square slot 1 (overridden)");
  CHECK(circle->super == shape && square->super == shape, "super types");
  /* Types without an entry have no method table; the table is not part of the fingerprint. */
  CHECK(CAIRN_TEXT_TYPE(Text)->methods == NULL && CAIRN_TEXT_TYPE(Text)->nmethods == 0, "Text");
  CHECK(CAIRN_ARRAY_TYPE(Shapes)->methods == NULL, "Shapes");
  CHECK(circle->fingerprint == cairn_type_fingerprint_compute(circle), "Circle: fingerprint");
}

/* --- Building and walking lists of shapes --------------------------------------------------- */

static CAIRN_REF(void) text_make(const char *s) {
  const size_t n = strlen(s);
  CAIRN_REF(void) t = CAIRN_NEW_TEXT(Text, n);
  for (size_t i = 0; i < n; i++) CAIRN_ARRAY_DATA(char, t)[i] = s[i];
  return t;
}

/* Even ids are circles of radius id, odd ones squares of side id labelled "sq<id>"; the list
 * runs from id `first` up. Circles are allocated through the descriptor value CAIRN_TYPE gives,
 * squares through their marker. */
static CAIRN_REF(struct Shape) shapes_make(int64_t first, int64_t n) {
  CAIRN_REF(struct Shape) head = 0;
  for (int64_t id = first + n - 1; id >= first; id--) {
    CAIRN_REF(struct Shape) s;
    if (id % 2 == 0) {
      CAIRN_REF(struct Circle)
      c = CAIRN_AS_REF(struct Circle, cairn_malloc_typed(CAIRN_TYPE(Circle)));
      c->radius = (double)id;
      s = &c->base;
    } else {
      CAIRN_REF(struct Square) q = CAIRN_NEW(Square);
      q->side = (double)id;
      char label[32];
      snprintf(label, sizeof label, "sq%lld", (long long)id);
      q->label = text_make(label);
      s = &q->base;
    }
    s->id = id;
    s->next = head;
    head = s;
  }
  return head;
}

/* Checks the list from `first` (every shape scaled by `factor` so far): types by identity,
 * areas and kinds by virtual calls. Returns the number of shapes. */
static int64_t shapes_check(CAIRN_REF(struct Shape) s, int64_t first, int64_t n, double factor,
                            const char *what) {
  int64_t count = 0;
  for (; s != 0 && count <= n; s = s->next, count++) {
    const int64_t id = first + count;
    CHECK(s->id == id, "%s: shape %lld has id %lld", what, (long long)id, (long long)s->id);
    const cairn_type *t = cairn_type_of(CAIRN_PTR(s));
    const double size = (double)id * factor;
    if (id % 2 == 0) {
      CHECK(t == CAIRN_TYPE(Circle), "%s: shape %lld is a %s", what, (long long)id, t->name);
      CHECK(area(s) == 3.0 * size * size, "%s: area of circle %lld", what, (long long)id);
      CHECK(kind(s) == 100, "%s: kind of circle %lld", what, (long long)id);
    } else {
      CHECK(t == CAIRN_TYPE(Square), "%s: shape %lld is a %s", what, (long long)id, t->name);
      CHECK(area(s) == size * size, "%s: area of square %lld", what, (long long)id);
      CHECK(kind(s) == 201, "%s: kind of square %lld", what, (long long)id);
      CAIRN_REF(void) label = ((CAIRN_REF(struct Square))s)->label;
      CHECK(cairn_type_of(CAIRN_PTR(label)) == CAIRN_TEXT_TYPE(Text), "%s: label type", what);
      char expected[32];
      snprintf(expected, sizeof expected, "sq%lld", (long long)id);
      CHECK(cairn_ref_array_length(label) == (int64_t)strlen(expected) &&
                memcmp((const char *)CAIRN_PTR(CAIRN_ARRAY_DATA(char, label)), expected,
                       strlen(expected)) == 0,
            "%s: label of square %lld", what, (long long)id);
    }
    CHECK(t != CAIRN_TYPE(Shape) && t->super == CAIRN_TYPE(Shape), "%s: super of %lld", what,
          (long long)id);
  }
  CHECK(count == n, "%s: %lld shapes, expected %lld", what, (long long)count, (long long)n);
  return count;
}

static void shapes_scale(CAIRN_REF(struct Shape) s, double by) {
  for (; s != 0; s = s->next) scale(s, by);
}

/* --- Globals as roots ----------------------------------------------------------------------- */

/* The only reference to a list of shapes: the collector sees it only as a registered root. */
static CAIRN_REF(struct Shape) g_shapes;

/* A struct global: its reference fields are roots, its integers are not. */
struct Registry {
  int64_t count;
  CAIRN_REF(struct Shape) first;
  double weight;
  CAIRN_REF(void) names[2]; /* Texts */
};
static struct Registry g_registry;

/* A global that holds no reference, and a constant one: neither is a root. */
static int64_t g_rounds;
static CAIRN_REF(struct Shape) const g_none = 0;

enum { kListLength = 3000, kRegistryLength = 500 };

/* Forced collections: fewer in the GC stress build, which collects at every allocation anyway. */
static int64_t rounds(void) { return cairn_gc_stress_build() ? 4 : 40; }

/* Garbage between collections, so pages freed by one are reused before the next. */
__attribute__((noinline)) static void make_garbage(int n) {
  for (int i = 0; i < n; i++) shapes_make(0, 20);
}

/* The list's addresses, hidden (complemented) so that they are no ambiguous roots. */
static uintptr_t g_hidden[kListLength];

/* Records where the shapes of g_shapes are; returns how many moved since the last call. */
__attribute__((noinline)) static int64_t track_moves(void) {
  int64_t moved = 0, i = 0;
  for (CAIRN_REF(struct Shape) s = g_shapes; s != 0 && i < kListLength; s = s->next, i++) {
    const uintptr_t hidden = ~(uintptr_t)CAIRN_PTR(s);
    if (g_hidden[i] != hidden) moved++;
    g_hidden[i] = hidden;
  }
  return moved;
}

__attribute__((noinline)) static void build_globals(void) {
  g_shapes = shapes_make(0, kListLength);
  g_registry.count = kRegistryLength;
  g_registry.first = shapes_make(10000, kRegistryLength);
  g_registry.weight = 0.5;
  g_registry.names[0] = text_make("first name");
  g_registry.names[1] = text_make("second name");
}

static int text_equals(CAIRN_REF(void) t, const char *s) {
  const int64_t n = (int64_t)strlen(s);
  return t != 0 && cairn_ref_array_length(t) == n &&
         memcmp((const char *)CAIRN_PTR(CAIRN_ARRAY_DATA(char, t)), s, (size_t)n) == 0;
}

__attribute__((noinline)) static void check_globals(double factor) {
  shapes_check(g_shapes, 0, kListLength, factor, "global list");
  shapes_check(g_registry.first, 10000, kRegistryLength, 1.0, "registry list");
  CHECK(g_registry.count == kRegistryLength && g_registry.weight == 0.5, "registry scalars");
  CHECK(text_equals(g_registry.names[0], "first name"), "registry name 0");
  CHECK(text_equals(g_registry.names[1], "second name"), "registry name 1");
}

/* Many collections; the lists live only in globals, and move. Returns how many moves of the
 * global list's shapes were seen. */
__attribute__((noinline)) static int64_t collect_many(void) {
  int64_t moved = 0;
  track_moves();
  double factor = 1.0;
  for (g_rounds = 0; g_rounds < rounds() && failures == 0; g_rounds++) {
    make_garbage(10);
    cairn_collect();
    const size_t problems = cairn_verify_heap(10);
    CHECK(problems == 0, "round %lld: heap verification: %zu problems", (long long)g_rounds,
          problems);
    moved += track_moves();
    if (g_rounds % 10 == 9) { /* a virtual call that writes, on moved objects */
      shapes_scale(g_shapes, 2.0);
      factor *= 2.0;
    }
    check_globals(factor);
  }
  /* Shapes only a root reaches move at every collection, unless a stale stack word pins their
   * page: most of them must have been seen moving. */
  CHECK(moved > rounds() * kListLength / 2, "only %lld of %lld shapes moved", (long long)moved,
        (long long)(rounds() * kListLength));
  CHECK(g_none == 0, "the constant global");
  return moved;
}

/* --- Persistence: the reader's methods run on the writer's objects -------------------------- */

enum { kPersistentLength = 300 };

#define STEP(call)                                                            \
  do {                                                                        \
    if ((call) != CAIRN_OK) {                                                 \
      fprintf(stderr, "module_program: %s: %s\n", #call, cairn_last_error()); \
      return 1;                                                               \
    }                                                                         \
  } while (0)

static int open_store(const char *dir) {
  cairn_persist_options o = {0};
  o.store_dir = dir;
  if (cairn_store_open(&o) != CAIRN_OK) {
    fprintf(stderr, "module_program: cairn_store_open: %s\n", cairn_last_error());
    return 0;
  }
  return 1;
}

static int commit_shapes(const char *dir) {
  if (!open_store(dir)) return 1;
  cairn_db *db;
  STEP(cairn_db_create("shapes", &db));
  STEP(cairn_txn_begin());
  STEP(cairn_db_set_root(db, CAIRN_PTR(shapes_make(0, kPersistentLength))));
  STEP(cairn_txn_commit());
  return failures != 0;
}

static int read_shapes(const char *dir) {
  if (!open_store(dir)) return 1;
  cairn_db *db;
  STEP(cairn_db_open("shapes", &db));
  STEP(cairn_txn_begin());
  void *root = 0;
  STEP(cairn_db_get_root(db, &root));
  CHECK(root != 0, "read: the database has no root");
  if (root == 0) return 1;
  g_shapes = CAIRN_AS_REF(struct Shape, root);
  root = 0;
  shapes_check(g_shapes, 0, kPersistentLength, 1.0, "read");
  cairn_collect();
  CHECK(cairn_verify_heap(10) == 0, "read: heap verification");
  shapes_check(g_shapes, 0, kPersistentLength, 1.0, "read, after a collection");
  STEP(cairn_txn_commit());
  if (failures != 0) {
    fprintf(stderr, "module_program: %d check(s) failed\n", failures);
    return 1;
  }
  printf("module_program: read back ok\n");
  return 0;
}

int main(int argc, char **argv) {
  const int committing = argc == 3 && strcmp(argv[1], "commit") == 0;
  if (argc == 3 && strcmp(argv[1], "read") == 0) return read_shapes(argv[2]);
  if (argc != 1 && !committing) {
    fprintf(stderr, "usage: module_program [commit DIR | read DIR]\n");
    return 2;
  }
  cairn_options options = {0};
  options.min_trigger_bytes = 256 * 1024; /* collections while the lists are built, too */
  if (cairn_init(&options) != CAIRN_OK) {
    fprintf(stderr, "module_program: cairn_init: %s\n", cairn_last_error());
    return 1;
  }
  check_method_tables();
  int64_t moved = 0;
  if (failures == 0) {
    build_globals();
    check_globals(1.0);
    moved = collect_many();
  }
  if (failures != 0) {
    fprintf(stderr, "module_program: %d check(s) failed\n", failures);
    return 1;
  }
  printf("module_program: ok (%lld forced collections, %lld moves of the global list's shapes)\n",
         (long long)rounds(), (long long)moved);
  return committing ? commit_shapes(argv[2]) : 0;
}
