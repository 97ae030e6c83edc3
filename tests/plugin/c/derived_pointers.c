/* Derived pointers at -O2 (R1 in runtime/src/gc/collector.h), compiled by clang with the plugin
 * at -O2 and run against the runtime, in the GC stress build too (a collection before every
 * allocation).
 *
 * Loop strength reduction turns a loop over an array's elements into a pointer that walks them
 * and is compared with a pointer one past the end; the array's own reference is dead by then.
 * Each loop here collects (cairn_collect, which the optimizer cannot see through, and in the
 * stress build every allocation) while the only words pointing at its array are such derived
 * pointers: into its elements, and one past its end. The caller, too, keeps only the pointer
 * one past the end. The array must stay where it is, alive and scanned (the objects it
 * references alive): after each loop, garbage takes the pages a wrongly freed array or cell
 * would have left, and then the array, its type, its length, its elements and its cells are
 * checked through the derived pointer.
 *
 * Sizes: a small array (one past its end is the next object's header, or the end of its page's
 * objects), and a large one of exactly two pages (one past its end is the next page).
 *
 * Exit status 0 and "derived_pointers: ok" on success; otherwise each failed check is printed.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cairn/heap_c.h"

struct Cell {
  int64_t value;
  CAIRN_REF(struct Cell) next;
};
CAIRN_HEAP_TYPE(Cell);
CAIRN_HEAP_ARRAY(Longs, int64_t);
CAIRN_HEAP_ARRAY(Cells, CAIRN_REF(struct Cell));

typedef CAIRN_REF(int64_t) long_ref;
typedef CAIRN_REF(struct Cell) cell_ref;
typedef CAIRN_REF(cell_ref) cell_slot; /* points at an element of a Cells array */

static int failures;

#define CHECK(cond, ...)                                                \
  do {                                                                  \
    if (!(cond)) {                                                      \
      failures++;                                                       \
      fprintf(stderr, "derived_pointers: %s:%d: ", __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                                     \
      fprintf(stderr, "\n");                                            \
    }                                                                   \
  } while (0)

/* 8 (header) + 8 (length) + 2046 * 8 = 16384 bytes: a large object of exactly two pages. */
#define SMALL 21
#define TWO_PAGES 2046

static int64_t value_at(int64_t i) { return i * 7 + 3; }

/* --- Building arrays: each returns one past its last element, and nothing else -------------- */

__attribute__((noinline)) static long_ref new_longs(int64_t n) {
  long_ref p = CAIRN_ARRAY_DATA(int64_t, CAIRN_NEW_ARRAY(Longs, n));
  for (int64_t i = 0; i < n; i++) p[i] = value_at(i);
  return p + n;
}

__attribute__((noinline)) static cell_slot new_cells(int64_t n) {
  return CAIRN_ARRAY_DATA(cell_ref, CAIRN_NEW_ARRAY(Cells, n)) + n;
}

/* Zeroes dead stack below the caller, so that no stale copy of an array's own reference (left by
 * the function that built it) pins it instead of the derived pointers. */
__attribute__((noinline)) static void scrub_stack(void) {
  volatile char dead[32 * 1024];
  memset((char *)dead, 0, sizeof dead);
  __asm__ volatile("" : : "r"(dead) : "memory");
}

/* Garbage that takes the pages the last collection freed, then a collection. */
__attribute__((noinline)) static void churn(void) {
  for (int i = 0; i < 3000; i++) CAIRN_NEW(Cell)->value = -1;
  for (int i = 0; i < 8; i++) CAIRN_NEW_ARRAY(Longs, TWO_PAGES);
  cairn_collect();
}

/* --- The loops -------------------------------------------------------------------------------- */

/* Each loop gets one past the end of an array and its length, and walks it from its first
 * element (a callee computes that, so that no caller keeps it across calls). */

/* Sums the n elements before end by pointer increment with a collection after each: at every
 * collection the live words are p (into the array, or one past its end at the last) and end. */
__attribute__((noinline)) static int64_t sum_collecting(long_ref end, int64_t n) {
  long_ref p = end - n;
  int64_t s = 0;
  while (p != end) {
    s += *p++;
    cairn_collect();
  }
  return s;
}

/* Walks to the end, then collects: p == end, and only pointers one past the end are live. */
__attribute__((noinline)) static int64_t sum_then_collect(long_ref end, int64_t n) {
  long_ref p = end - n;
  int64_t s = 0;
  while (p != end) s += *p++;
  cairn_collect();
  return s;
}

/* Scales the elements in place, allocating (a collection in the stress build) at each. */
__attribute__((noinline)) static void scale_allocating(long_ref end, int64_t n, int64_t k) {
  for (long_ref p = end - n; p != end; p++) {
    *p *= k;
    CAIRN_NEW(Cell)->value = *p; /* garbage */
  }
}

/* Stores a new cell in each slot: the cells are reachable only through the array, which only
 * derived pointers reach. */
__attribute__((noinline)) static void fill_cells(cell_slot end, int64_t n) {
  int64_t i = 0;
  for (cell_slot p = end - n; p != end; p++) {
    cell_ref c = CAIRN_NEW(Cell);
    c->value = value_at(i++);
    *p = c;
    if ((i & 7) == 0) cairn_collect();
  }
}

/* Gives each cell a successor, allocated here, and sums the values on the way. */
__attribute__((noinline)) static int64_t link_cells(cell_slot end, int64_t n) {
  int64_t s = 0;
  for (cell_slot p = end - n; p != end; p++) {
    cell_ref next = CAIRN_NEW(Cell);
    next->value = -(*p)->value;
    (*p)->next = next;
    s += (*p)->value;
    cairn_collect();
  }
  return s;
}

/* --- Checks ------------------------------------------------------------------------------------
 */

static int64_t expected_sum(int64_t n) {
  int64_t s = 0;
  for (int64_t i = 0; i < n; i++) s += value_at(i);
  return s;
}

/* The array of n elements of `size` bytes that ends at `end`: still there, of type `type`, n long.
 */
static int check_array(CAIRN_REF(char) end, int64_t n, size_t size, const char *type,
                       const char *what) {
  void *arr = CAIRN_PTR(end - n * (int64_t)size - CAIRN_ARRAY_DATA_OFFSET);
  CHECK(cairn_in_heap(arr), "%s: the array was freed", what);
  if (!cairn_in_heap(arr)) return 0;
  CHECK(strcmp(cairn_type_of(arr)->name, type) == 0, "%s: the array is now a '%s'", what,
        cairn_type_of(arr)->name);
  CHECK(cairn_array_length(arr) == (size_t)n, "%s: length %zu, expected %lld", what,
        cairn_array_length(arr), (long long)n);
  return strcmp(cairn_type_of(arr)->name, type) == 0;
}

static void check_longs(long_ref end, int64_t n, int64_t factor, const char *what) {
  if (!check_array((CAIRN_REF(char))end, n, sizeof(int64_t), "Longs", what)) return;
  for (int64_t i = 0; i < n; i++)
    CHECK(end[i - n] == value_at(i) * factor, "%s: element %lld is %lld", what, (long long)i,
          (long long)end[i - n]);
  CHECK(cairn_verify_heap(10) == 0, "%s: the heap does not verify", what);
}

static void check_cells(cell_slot end, int64_t n, int linked, const char *what) {
  if (!check_array((CAIRN_REF(char))end, n, sizeof(cell_ref), "Cells", what)) return;
  for (int64_t i = 0; i < n; i++) {
    cell_ref c = end[i - n];
    CHECK(c != NULL, "%s: cell %lld is nil", what, (long long)i);
    if (c == NULL) continue;
    CHECK(strcmp(cairn_type_of(CAIRN_PTR(c))->name, "Cell") == 0, "%s: cell %lld is a '%s'", what,
          (long long)i, cairn_type_of(CAIRN_PTR(c))->name);
    CHECK(c->value == value_at(i), "%s: cell %lld holds %lld", what, (long long)i,
          (long long)c->value);
    if (linked)
      CHECK(c->next != NULL && c->next->value == -value_at(i), "%s: cell %lld's successor", what,
            (long long)i);
  }
  CHECK(cairn_verify_heap(10) == 0, "%s: the heap does not verify", what);
}

/* --- The program --------------------------------------------------------------------------------
 */

__attribute__((noinline)) static void longs(int64_t n, const char *what) {
  long_ref end = new_longs(n);
  scrub_stack();
  CHECK(sum_collecting(end, n) == expected_sum(n), "%s: sum while collecting", what);
  churn();
  check_longs(end, n, 1, what);
  CHECK(sum_then_collect(end, n) == expected_sum(n), "%s: sum, then a collection", what);
  churn();
  check_longs(end, n, 1, what);
  scale_allocating(end, n, 3);
  churn();
  check_longs(end, n, 3, what);
}

__attribute__((noinline)) static void cells(int64_t n, const char *what) {
  cell_slot end = new_cells(n);
  scrub_stack();
  fill_cells(end, n);
  churn();
  check_cells(end, n, 0, what);
  CHECK(link_cells(end, n) == expected_sum(n), "%s: sum of the cells", what);
  churn();
  check_cells(end, n, 1, what);
}

int main(void) {
  CHECK(cairn_init(NULL) == CAIRN_OK, "cairn_init: %s", cairn_last_error());
  longs(SMALL, "small [int]");
  longs(TWO_PAGES, "[int] of two pages");
  cells(SMALL, "small [Cell]");
  cells(TWO_PAGES, "[Cell] of two pages");
  if (failures) {
    fprintf(stderr, "derived_pointers: %d failure(s)\n", failures);
    return 1;
  }
  printf("derived_pointers: ok\n");
  return 0;
}
