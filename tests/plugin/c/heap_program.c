/* A C program on the Cairn heap, compiled by clang with the compiler plugin (at -O0 and -O2, with
 * and without -g; see ../CMakeLists.txt) and linked with the runtime.
 *
 * It checks, for every heap type it declares, that the descriptor the plugin made has the C
 * compiler's layout (size, alignment, every field's offset and kind, and each reference field's
 * offset equal to offsetof), a fingerprint the runtime's function agrees with, and the right
 * super type. Then it builds linked lists, trees, buckets of nested structs, arrays and text
 * through CAIRN_REF references, drops much of it, forces collections and checks that every
 * surviving object still holds its data and that the heap verifies after each collection.
 *
 * With `commit DIR` it then also commits a tree (in a tagged list, with text labels) to a new
 * database in the store DIR; with `read DIR` a second process, which has built nothing and
 * knows the types only from the plugin's registration, opens that database and checks the tree.
 *
 * Exit status 0 and "heap_program: ok" on success; otherwise each failed check is printed.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cairn/heap_c.h"
#include "cairn/persist.h"

/* --- The heap types ------------------------------------------------------------------------- */

struct List {
  int64_t value;
  CAIRN_REF(struct List) next;
};
CAIRN_HEAP_TYPE(List);

struct Tree {
  int64_t key;
  CAIRN_REF(struct Tree) left;
  double weight;
  CAIRN_REF(struct Tree) right;
  int16_t depth;
  CAIRN_REF(void) label; /* a Text */
};
CAIRN_HEAP_TYPE(Tree);

/* Not a heap type by itself: only inline in Bucket and in the Pairs array. */
struct Pair {
  CAIRN_REF(struct List) first;
  int32_t count;
  CAIRN_REF(struct List) second;
};

struct Bucket {
  int8_t tag;
  struct Pair pairs[3];
  void *raw; /* untraced */
  CAIRN_REF(struct Bucket) next;
};
CAIRN_HEAP_TYPE(Bucket);

/* An inherited prefix: a TaggedList is a List followed by more fields. */
struct TaggedList {
  struct List base;
  CAIRN_REF(struct Tree) tree;
  uint8_t flag;
};
CAIRN_HEAP_TYPE(TaggedList);

CAIRN_HEAP_ARRAY(Lists, CAIRN_REF(struct List));
CAIRN_HEAP_ARRAY(Pairs, struct Pair);
CAIRN_HEAP_ARRAY(Longs, int64_t);
CAIRN_HEAP_TEXT(Text);

/* --- Checking --------------------------------------------------------------------------------- */

static int failures;

#define CHECK(cond, ...)                                            \
  do {                                                              \
    if (!(cond)) {                                                  \
      failures++;                                                   \
      fprintf(stderr, "heap_program: %s:%d: ", __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                                 \
      fprintf(stderr, "\n");                                        \
    }                                                               \
  } while (0)

/* One expected field: its name in the source, offset, kind, count and element size. */
typedef struct expected_field {
  const char *name;
  size_t offset;
  cairn_kind kind;
  uint32_t count;
  size_t size;
} expected_field;

#define FIELD(T, f, kind, count, size) {#f, offsetof(T, f), kind, count, size}

/* Checks a descriptor against the C compiler's layout: size, alignment, the reference offsets
 * (each an offsetof), the fields, the fingerprint, the super type. */
static void check_type(const cairn_type *t, const char *name, uint32_t flags, size_t size,
                       size_t align, cairn_kind elem_kind, const size_t *refs, size_t nrefs,
                       const expected_field *fields, size_t nfields, const cairn_type *super) {
  CHECK(t != NULL, "%s: no descriptor", name);
  if (t == NULL) return;
  CHECK(t->abi == CAIRN_TYPE_ABI, "%s: abi %u", name, t->abi);
  CHECK(strcmp(t->name, name) == 0, "%s: named '%s'", name, t->name);
  CHECK(t->flags == flags, "%s: flags %u, expected %u", name, t->flags, flags);
  CHECK(t->size == size, "%s: size %llu, sizeof says %zu", name, (unsigned long long)t->size, size);
  CHECK(t->align == align, "%s: align %u, _Alignof says %zu", name, t->align, align);
  CHECK(t->elem_kind == (uint32_t)elem_kind, "%s: elem_kind %u", name, t->elem_kind);
  CHECK(t->fingerprint == cairn_type_fingerprint_compute(t), "%s: fingerprint mismatch", name);
  CHECK(t->super == super, "%s: super is %s", name, t->super ? t->super->name : "NULL");
  CHECK(t->methods == NULL && t->nmethods == 0, "%s: methods", name);
  CHECK(t->nrefs == nrefs, "%s: %u references, expected %zu", name, t->nrefs, nrefs);
  for (size_t i = 0; i < nrefs && i < t->nrefs; i++)
    CHECK(t->refs[i] == refs[i], "%s: reference %zu at offset %u, offsetof says %zu", name, i,
          t->refs[i], refs[i]);
  CHECK(t->nfields == nfields, "%s: %u fields, expected %zu", name, t->nfields, nfields);
  for (size_t i = 0; i < nfields && i < t->nfields; i++) {
    const cairn_field *f = &t->fields[i];
    const expected_field *e = &fields[i];
#ifdef CAIRN_TEST_NAMES /* compiled with -g: the source's names */
    CHECK(strcmp(f->name, e->name) == 0, "%s: field %zu named '%s', expected '%s'", name, i,
          f->name, e->name);
#else /* numbered */
    char numbered[16];
    snprintf(numbered, sizeof numbered, "f%zu", i);
    CHECK(strcmp(f->name, numbered) == 0, "%s: field %zu named '%s', expected '%s'", name, i,
          f->name, numbered);
#endif
    CHECK(f->offset == e->offset, "%s.%s: offset %u, offsetof says %zu", name, e->name, f->offset,
          e->offset);
    CHECK(f->kind == (uint16_t)e->kind, "%s.%s: kind %u, expected %d", name, e->name, f->kind,
          (int)e->kind);
    CHECK(f->count == e->count, "%s.%s: count %u, expected %u", name, e->name, f->count, e->count);
    CHECK(f->size == e->size, "%s.%s: size %u, expected %zu", name, e->name, f->size, e->size);
    CHECK((f->kind == CAIRN_KIND_STRUCT) == (f->nested != NULL), "%s.%s: nested", name, e->name);
  }
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void check_descriptors(CAIRN_REF(struct List) list, CAIRN_REF(struct Tree) tree,
                              CAIRN_REF(struct Bucket) bucket, CAIRN_REF(struct TaggedList) tagged,
                              CAIRN_REF(void) lists, CAIRN_REF(void) pairs, CAIRN_REF(void) longs,
                              CAIRN_REF(void) text) {
  const cairn_type *list_t = cairn_type_of(CAIRN_PTR(list));
  {
    static const size_t refs[] = {offsetof(struct List, next)};
    static const expected_field fields[] = {
        FIELD(struct List, value, CAIRN_KIND_I64, 1, 8),
        FIELD(struct List, next, CAIRN_KIND_REF, 1, 8),
    };
    check_type(list_t, "List", 0, sizeof(struct List), _Alignof(struct List), CAIRN_KIND_NONE, refs,
               COUNT(refs), fields, COUNT(fields), NULL);
  }
  {
    static const size_t refs[] = {offsetof(struct Tree, left), offsetof(struct Tree, right),
                                  offsetof(struct Tree, label)};
    static const expected_field fields[] = {
        FIELD(struct Tree, key, CAIRN_KIND_I64, 1, 8),
        FIELD(struct Tree, left, CAIRN_KIND_REF, 1, 8),
        FIELD(struct Tree, weight, CAIRN_KIND_F64, 1, 8),
        FIELD(struct Tree, right, CAIRN_KIND_REF, 1, 8),
        FIELD(struct Tree, depth, CAIRN_KIND_I16, 1, 2),
        FIELD(struct Tree, label, CAIRN_KIND_REF, 1, 8),
    };
    check_type(cairn_type_of(CAIRN_PTR(tree)), "Tree", 0, sizeof(struct Tree),
               _Alignof(struct Tree), CAIRN_KIND_NONE, refs, COUNT(refs), fields, COUNT(fields),
               NULL);
  }
  /* Pair, inline: its layout is the nested descriptor of Bucket.pairs and of the Pairs array. */
  static const size_t pair_refs[] = {offsetof(struct Pair, first), offsetof(struct Pair, second)};
  static const expected_field pair_fields[] = {
      FIELD(struct Pair, first, CAIRN_KIND_REF, 1, 8),
      FIELD(struct Pair, count, CAIRN_KIND_I32, 1, 4),
      FIELD(struct Pair, second, CAIRN_KIND_REF, 1, 8),
  };
  {
    static const size_t refs[] = {offsetof(struct Bucket, pairs[0].first),
                                  offsetof(struct Bucket, pairs[0].second),
                                  offsetof(struct Bucket, pairs[1].first),
                                  offsetof(struct Bucket, pairs[1].second),
                                  offsetof(struct Bucket, pairs[2].first),
                                  offsetof(struct Bucket, pairs[2].second),
                                  offsetof(struct Bucket, next)};
    static const expected_field fields[] = {
        FIELD(struct Bucket, tag, CAIRN_KIND_I8, 1, 1),
        FIELD(struct Bucket, pairs, CAIRN_KIND_STRUCT, 3, sizeof(struct Pair)),
        FIELD(struct Bucket, raw, CAIRN_KIND_RAW, 1, 8),
        FIELD(struct Bucket, next, CAIRN_KIND_REF, 1, 8),
    };
    const cairn_type *t = cairn_type_of(CAIRN_PTR(bucket));
    check_type(t, "Bucket", 0, sizeof(struct Bucket), _Alignof(struct Bucket), CAIRN_KIND_NONE,
               refs, COUNT(refs), fields, COUNT(fields), NULL);
    if (t != NULL && t->nfields == COUNT(fields))
      check_type(t->fields[1].nested, "Pair", CAIRN_TYPE_LAYOUT, sizeof(struct Pair),
                 _Alignof(struct Pair), CAIRN_KIND_NONE, pair_refs, COUNT(pair_refs), pair_fields,
                 COUNT(pair_fields), NULL);
  }
  {
    static const size_t refs[] = {offsetof(struct TaggedList, base.next),
                                  offsetof(struct TaggedList, tree)};
    static const expected_field fields[] = {
        FIELD(struct TaggedList, base, CAIRN_KIND_STRUCT, 1, sizeof(struct List)),
        FIELD(struct TaggedList, tree, CAIRN_KIND_REF, 1, 8),
        FIELD(struct TaggedList, flag, CAIRN_KIND_I8, 1, 1),
    };
    const cairn_type *t = cairn_type_of(CAIRN_PTR(tagged));
    check_type(t, "TaggedList", 0, sizeof(struct TaggedList), _Alignof(struct TaggedList),
               CAIRN_KIND_NONE, refs, COUNT(refs), fields, COUNT(fields), list_t);
    if (t != NULL && t->nfields == COUNT(fields))
      CHECK(t->fields[0].nested == list_t, "TaggedList.base: nested is not List's descriptor");
  }
  {
    static const size_t refs[] = {0};
    check_type(cairn_type_of(CAIRN_PTR(lists)), "Lists", CAIRN_TYPE_ARRAY,
               sizeof(CAIRN_REF(struct List)), 8, CAIRN_KIND_REF, refs, COUNT(refs), NULL, 0, NULL);
  }
  check_type(cairn_type_of(CAIRN_PTR(pairs)), "Pairs", CAIRN_TYPE_ARRAY, sizeof(struct Pair),
             _Alignof(struct Pair), CAIRN_KIND_STRUCT, pair_refs, COUNT(pair_refs), pair_fields,
             COUNT(pair_fields), NULL);
  check_type(cairn_type_of(CAIRN_PTR(longs)), "Longs", CAIRN_TYPE_ARRAY, sizeof(int64_t),
             _Alignof(int64_t), CAIRN_KIND_I64, NULL, 0, NULL, 0, NULL);
  check_type(cairn_type_of(CAIRN_PTR(text)), "Text", CAIRN_TYPE_ARRAY | CAIRN_TYPE_TEXT, 1, 1,
             CAIRN_KIND_I8, NULL, 0, NULL, 0, NULL);

  /* Each heap type is registered under its fingerprint. */
  CHECK(cairn_find_type(list_t->fingerprint) != NULL, "List is not registered");
}

/* --- Building and checking data ------------------------------------------------------------- */

static CAIRN_REF(struct List) list_make(int64_t first, int64_t n) {
  CAIRN_REF(struct List) head = 0;
  for (int64_t i = n - 1; i >= 0; i--) {
    CAIRN_REF(struct List) node = CAIRN_NEW(List);
    node->value = first + i;
    node->next = head;
    head = node;
  }
  return head;
}

static void list_check(CAIRN_REF(struct List) list, int64_t first, int64_t n, const char *what) {
  int64_t i = 0;
  for (; list != 0 && i <= n; list = list->next, i++)
    if (list->value != first + i) break;
  CHECK(i == n && list == 0, "%s: list broken at element %lld", what, (long long)i);
}

static CAIRN_REF(void) text_make(const char *s) {
  size_t n = strlen(s);
  CAIRN_REF(void) text = CAIRN_NEW_TEXT(Text, n);
  CAIRN_REF(char) bytes = CAIRN_ARRAY_DATA(char, text);
  for (size_t i = 0; i < n; i++) bytes[i] = s[i];
  return text;
}

static int text_equals(CAIRN_REF(void) text, const char *s) {
  size_t n = strlen(s);
  if (text == 0 || cairn_ref_array_length(text) != (int64_t)n) return 0;
  CAIRN_REF(char) bytes = CAIRN_ARRAY_DATA(char, text);
  for (size_t i = 0; i < n; i++)
    if (bytes[i] != s[i]) return 0;
  return 1;
}

/* A balanced search tree of the keys lo..hi, each node labeled with its key as text. */
static CAIRN_REF(struct Tree) tree_make(int64_t lo, int64_t hi, int16_t depth) {
  if (lo > hi) return 0;
  int64_t mid = lo + (hi - lo) / 2;
  CAIRN_REF(struct Tree) t = CAIRN_NEW(Tree);
  t->key = mid;
  t->weight = (double)mid / 2.0;
  t->depth = depth;
  char label[32];
  snprintf(label, sizeof label, "node %lld", (long long)mid);
  t->label = text_make(label);
  t->left = tree_make(lo, mid - 1, (int16_t)(depth + 1));
  t->right = tree_make(mid + 1, hi, (int16_t)(depth + 1));
  return t;
}

/* Checks order, weights, depths and labels; returns the number of nodes. */
static int64_t tree_check(CAIRN_REF(struct Tree) t, int64_t lo, int64_t hi, int16_t depth) {
  if (t == 0) return 0;
  char label[32];
  snprintf(label, sizeof label, "node %lld", (long long)t->key);
  CHECK(t->key >= lo && t->key <= hi, "tree: key %lld outside [%lld, %lld]", (long long)t->key,
        (long long)lo, (long long)hi);
  CHECK(t->weight == (double)t->key / 2.0, "tree: weight of %lld", (long long)t->key);
  CHECK(t->depth == depth, "tree: depth of %lld", (long long)t->key);
  CHECK(text_equals(t->label, label), "tree: label of %lld", (long long)t->key);
  return 1 + tree_check(t->left, lo, t->key - 1, (int16_t)(depth + 1)) +
         tree_check(t->right, t->key + 1, hi, (int16_t)(depth + 1));
}

/* A chain of buckets tagged first, first + 1, ... first + n - 1, each with three pairs of lists. */
static CAIRN_REF(struct Bucket) buckets_make(int first, int n) {
  CAIRN_REF(struct Bucket) head = 0;
  for (int i = first + n - 1; i >= first; i--) {
    CAIRN_REF(struct Bucket) b = CAIRN_NEW(Bucket);
    b->tag = (int8_t)i;
    for (int j = 0; j < 3; j++) {
      b->pairs[j].first = list_make(100 * i + 10 * j, 3);
      b->pairs[j].count = 3 + j;
      b->pairs[j].second = list_make(-(100 * i + 10 * j), 5);
    }
    b->next = head;
    head = b;
  }
  return head;
}

static void buckets_check(CAIRN_REF(struct Bucket) b, int n) {
  int i = 0;
  for (; b != 0; b = b->next, i++) {
    CHECK(b->tag == (int8_t)i, "bucket %d: tag %d", i, b->tag);
    for (int j = 0; j < 3; j++) {
      list_check(b->pairs[j].first, 100 * i + 10 * j, 3, "bucket pair first");
      list_check(b->pairs[j].second, -(100 * i + 10 * j), 5, "bucket pair second");
      CHECK(b->pairs[j].count == 3 + j, "bucket %d pair %d: count", i, j);
    }
  }
  CHECK(i == n, "buckets: %d of %d", i, n);
}

/* Allocates and drops garbage, so that collections have something to reclaim. (The GC stress
 * build collects before every allocation: one round does there.) */
static void make_garbage(int rounds) {
  if (cairn_gc_stress_build()) rounds = 1;
  for (int r = 0; r < rounds; r++) (void)list_make(r, 200);
}

static void collect_and_verify(const char *when) {
  cairn_collect();
  size_t problems = cairn_verify_heap(10);
  CHECK(problems == 0, "heap verification after %s: %zu problems", when, problems);
}

enum { kPersistentKeys = 512 };

/* The persistent part: commit a tagged list holding a tree, or read it back and check it. */
static int open_store(const char *dir) {
  cairn_persist_options o = {0};
  o.store_dir = dir;
  if (cairn_store_open(&o) != CAIRN_OK) {
    fprintf(stderr, "heap_program: cairn_store_open: %s\n", cairn_last_error());
    return 0;
  }
  return 1;
}

#define STEP(call)                                                          \
  do {                                                                      \
    if ((call) != CAIRN_OK) {                                               \
      fprintf(stderr, "heap_program: %s: %s\n", #call, cairn_last_error()); \
      return 1;                                                             \
    }                                                                       \
  } while (0)

static int commit_tree(const char *dir) {
  if (!open_store(dir)) return 1;
  cairn_db *db;
  STEP(cairn_db_create("ctree", &db));
  STEP(cairn_txn_begin());
  CAIRN_REF(struct TaggedList) root = CAIRN_NEW(TaggedList);
  root->base.value = 42;
  root->base.next = list_make(1000, 10);
  root->tree = tree_make(0, kPersistentKeys - 1, 0);
  root->flag = 1;
  make_garbage(10);
  STEP(cairn_db_set_root(db, CAIRN_PTR(root)));
  STEP(cairn_txn_commit());
  cairn_persist_stats st;
  cairn_persist_last_commit_stats(&st);
  CHECK(st.pages_written > 0 && st.objects_made_persistent >= 2 * kPersistentKeys + 11,
        "commit: %llu pages written, %llu objects made persistent",
        (unsigned long long)st.pages_written, (unsigned long long)st.objects_made_persistent);
  return failures != 0;
}

static int read_tree(const char *dir) {
  if (!open_store(dir)) return 1;
  cairn_db *db;
  STEP(cairn_db_open("ctree", &db));
  STEP(cairn_txn_begin());
  void *r = 0;
  STEP(cairn_db_get_root(db, &r));
  CHECK(r != 0, "read: the database has no root");
  if (r == 0) return 1;
  CAIRN_REF(struct TaggedList) root = CAIRN_AS_REF(struct TaggedList, r);
  CHECK(strcmp(cairn_type_of(r)->name, "TaggedList") == 0, "read: root is a %s",
        cairn_type_of(r)->name);
  CHECK(root->base.value == 42 && root->flag == 1, "read: tagged list fields");
  list_check(root->base.next, 1000, 10, "read: tagged list tail");
  CHECK(tree_check(root->tree, 0, kPersistentKeys - 1, 0) == kPersistentKeys,
        "read: the tree's node count");
  collect_and_verify("reading the database");
  STEP(cairn_txn_commit());
  cairn_persist_stats st;
  cairn_persist_get_stats(&st);
  CHECK(st.pages_faulted > 0, "read: no page was faulted in");
  if (failures != 0) {
    fprintf(stderr, "heap_program: %d check(s) failed\n", failures);
    return 1;
  }
  printf("heap_program: read back ok (%llu pages faulted)\n", (unsigned long long)st.pages_faulted);
  return 0;
}

int main(int argc, char **argv) {
  const int committing = argc == 3 && strcmp(argv[1], "commit") == 0;
  if (argc == 3 && strcmp(argv[1], "read") == 0) return read_tree(argv[2]);
  if (argc != 1 && !committing) {
    fprintf(stderr, "usage: heap_program [commit DIR | read DIR]\n");
    return 2;
  }
  /* A small trigger, so that collections also happen while the structures are being built. */
  cairn_options options = {0};
  options.min_trigger_bytes = 256 * 1024;
  cairn_status s = cairn_init(&options);
  if (s != CAIRN_OK) {
    fprintf(stderr, "heap_program: cairn_init: %s\n", cairn_last_error());
    return 1;
  }

  /* Smaller in the GC stress build, where every allocation is a collection. */
  const int stress = cairn_gc_stress_build();
  const int kListLength = stress ? 400 : 5000, kTreeKeys = stress ? 255 : 2047,
            kBuckets = stress ? 10 : 40, kArray = stress ? 60 : 300;
  CAIRN_REF(struct List) list = list_make(1, kListLength);
  make_garbage(20);
  CAIRN_REF(struct Tree) tree = tree_make(0, kTreeKeys - 1, 0);
  make_garbage(20);
  CAIRN_REF(struct Bucket) buckets = buckets_make(0, kBuckets);

  CAIRN_REF(struct TaggedList) tagged = CAIRN_NEW(TaggedList);
  tagged->base.value = 42;
  tagged->base.next = list_make(1000, 10);
  tagged->tree = tree_make(0, 6, 0);
  tagged->flag = 1;

  CAIRN_REF(void) lists = CAIRN_NEW_ARRAY(Lists, kArray);
  for (int i = 0; i < kArray; i++)
    CAIRN_ARRAY_DATA(CAIRN_REF(struct List), lists)[i] = list_make(i, i % 7 + 1);
  CAIRN_REF(void) pairs = CAIRN_NEW_ARRAY(Pairs, kArray);
  for (int i = 0; i < kArray; i++) {
    CAIRN_ARRAY_DATA(struct Pair, pairs)[i].first = list_make(i, 2);
    CAIRN_ARRAY_DATA(struct Pair, pairs)[i].count = i;
    CAIRN_ARRAY_DATA(struct Pair, pairs)[i].second = list_make(-i, 3);
  }
  CAIRN_REF(void) longs = CAIRN_NEW_ARRAY(Longs, kArray);
  for (int i = 0; i < kArray; i++) CAIRN_ARRAY_DATA(int64_t, longs)[i] = (int64_t)i * i;
  CAIRN_REF(void) text = text_make("hello, heap");

  check_descriptors(list, tree, buckets, tagged, lists, pairs, longs, text);

  cairn_stats before;
  cairn_get_stats(&before);
  for (int round = 0; round < 3; round++) {
    make_garbage(30);
    collect_and_verify("a forced collection");
    list_check(list, 1, kListLength, "long list");
    CHECK(tree_check(tree, 0, kTreeKeys - 1, 0) == kTreeKeys, "tree: wrong node count");
    buckets_check(buckets, kBuckets);
    CHECK(tagged->base.value == 42 && tagged->flag == 1, "tagged list: fields");
    list_check(tagged->base.next, 1000, 10, "tagged list tail");
    CHECK(tree_check(tagged->tree, 0, 6, 0) == 7, "tagged list: tree");
    CHECK(cairn_ref_array_length(lists) == kArray, "Lists: length");
    for (int i = 0; i < kArray; i++)
      list_check(CAIRN_ARRAY_DATA(CAIRN_REF(struct List), lists)[i], i, i % 7 + 1, "Lists");
    for (int i = 0; i < kArray; i++) {
      list_check(CAIRN_ARRAY_DATA(struct Pair, pairs)[i].first, i, 2, "Pairs first");
      list_check(CAIRN_ARRAY_DATA(struct Pair, pairs)[i].second, -i, 3, "Pairs second");
      CHECK(CAIRN_ARRAY_DATA(struct Pair, pairs)[i].count == i, "Pairs count");
    }
    for (int i = 0; i < kArray; i++)
      CHECK(CAIRN_ARRAY_DATA(int64_t, longs)[i] == (int64_t)i * i, "Longs[%d]", i);
    CHECK(text_equals(text, "hello, heap"), "text");

    /* Replace part of the data: the old tail becomes garbage, the new one must survive. */
    buckets->next = buckets_make(1, kBuckets - 1);
  }
  cairn_stats after;
  cairn_get_stats(&after);
  CHECK(after.collections >= before.collections + 3, "collections: %llu -> %llu",
        (unsigned long long)before.collections, (unsigned long long)after.collections);
  /* Objects reachable only through references moved: the descriptors were followed. */
  CHECK(after.bytes_copied > before.bytes_copied, "no object was copied by the collections");

  if (failures != 0) {
    fprintf(stderr, "heap_program: %d check(s) failed\n", failures);
    return 1;
  }
  printf("heap_program: ok (%llu collections, %llu bytes copied)\n",
         (unsigned long long)after.collections, (unsigned long long)after.bytes_copied);
  return committing ? commit_tree(argv[2]) : 0;
}
