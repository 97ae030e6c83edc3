/* Cairn: heap type descriptors.
 *
 * A type descriptor tells the collector exactly where the references are in every object of a
 * type, and tells tools (printing, the database type tables) what the fields are. Descriptors are
 * made by the compiler plugin from a module's IR (compiler-plugin/), or written by hand by C and
 * C++ programs that use the runtime directly. This header is the one definition of the format:
 * the plugin emits constants with exactly this layout, so any change bumps CAIRN_TYPE_ABI.
 *
 * Object layout (see also cairn/gc.h):
 *
 *     header word | payload ...
 *                 ^ a reference points here (8-byte aligned)
 *
 * The header word holds the address of the object's descriptor. A plain object's payload is
 * `size` bytes of fields. An array's payload is its length (int64) followed by `length` elements
 * of `size` bytes each, starting at payload offset 8 (CAIRN_ARRAY_DATA_OFFSET).
 *
 * Invariants of a registered descriptor (checked by cairn_register_type):
 *   T1. abi == CAIRN_TYPE_ABI and fingerprint == cairn_type_fingerprint_compute(this) != 0.
 *   T2. refs[0..nrefs) are strictly increasing, multiples of 8, and each ref + 8 <= size.
 *       For a plain type they are payload offsets; for an array type, offsets in one element,
 *       whose size is then a multiple of 8: every reference slot of an object is 8-aligned, so
 *       none crosses a page.
 *   T3. An array type has CAIRN_TYPE_ARRAY set and elem_kind != CAIRN_KIND_NONE; size is the
 *       element size (>= 1). A plain type has elem_kind == CAIRN_KIND_NONE.
 *   T4. A descriptor is immutable and lives as long as the program (static storage).
 *   T5. Two registered descriptors with the same fingerprint have the same layout:
 *       cairn_type_layout_compare (below) finds no difference; any other is refused.
 *   T6. refs are exactly the references its fields describe (cairn_type_refs_agree):
 *       each REF field's elements, and each STRUCT field's elements' nested refs, in field order.
 *       An array type without fields (scalar elements) has refs {0} if its elements are
 *       references, else none. Fields are in ascending offset order, do not overlap and lie
 *       within `size`; a scalar field's `size` is cairn_kind_size(kind), a STRUCT field's is its
 *       nested descriptor's `size`.
 *   T7. One descriptor per type in a process: the first descriptor registered with a
 *       fingerprint is that type's canonical descriptor; a later one of the same fingerprint
 *       (another module's) is accepted if T5 holds and maps to it (cairn_canonical_type). Every
 *       object's header is a canonical descriptor (allocation puts the canonical one there).
 *
 * A program that builds descriptors in C++ uses cairn/type_builder.hpp, which keeps T2, T3 and
 * T6 by construction.
 */
#ifndef CAIRN_TYPE_H
#define CAIRN_TYPE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the descriptor layout below (2: cairn_field.type). */
#define CAIRN_TYPE_ABI 2u

/* How deep nested structs may be nested (a struct inside a struct inside ...). A class's base
 * is a nested struct of it, so this bounds a chain of base classes too: registration refuses a
 * deeper descriptor (it bounds a malformed cycle) and the compiler a deeper class, at the class. */
#define CAIRN_MAX_NESTING 1000

/* Byte offset of element 0 in an array's payload (the length word comes first). */
#define CAIRN_ARRAY_DATA_OFFSET 8u

/* The kind of a field or of an array's elements. Values are part of the ABI and of the
 * fingerprint: never renumber. */
typedef enum cairn_kind {
  CAIRN_KIND_NONE = 0,
  CAIRN_KIND_BOOL = 1, /* one byte, 0 or 1 */
  CAIRN_KIND_I8 = 2,   /* signed or unsigned integers of the given width */
  CAIRN_KIND_I16 = 3,
  CAIRN_KIND_I32 = 4,
  CAIRN_KIND_I64 = 5,
  CAIRN_KIND_F32 = 6,
  CAIRN_KIND_F64 = 7,
  CAIRN_KIND_REF = 8,    /* a traced reference to a heap object (IR: ptr addrspace(1)), or nil */
  CAIRN_KIND_RAW = 9,    /* an untraced machine address: never followed, meaningless on disk */
  CAIRN_KIND_STRUCT = 10 /* an inline struct value, laid out as described by `nested` */
} cairn_kind;

/* Descriptor flags. */
enum {
  CAIRN_TYPE_ARRAY = 1u << 0, /* payload is length + elements (see the top of this file) */
  CAIRN_TYPE_TEXT = 1u << 1,  /* an I8 array holding text (UTF-8 by convention) */
  CAIRN_TYPE_LAYOUT = 1u << 2 /* only a nested struct layout: cannot be allocated on its own */
};

struct cairn_type;

/* One field of a type (for reflection, printing and type tables; the collector uses `refs`). */
typedef struct cairn_field {
  const char *name;                /* NUL-terminated; "f<N>" when the source gave none */
  uint32_t offset;                 /* bytes from the payload start (or the element start) */
  uint16_t kind;                   /* a cairn_kind */
  uint16_t reserved;               /* zero */
  uint32_t count;                  /* 1 for a scalar, N for a fixed array T[N] */
  uint32_t size;                   /* bytes of one element of this field */
  const struct cairn_type *nested; /* kind == CAIRN_KIND_STRUCT: the inline struct's layout */
  const char *type;                /* the field's declared type as the source language writes it
                                      ("int", "[text]", "List[Connection]", "any"), NUL-terminated,
                                      or NULL if unknown (C). Not in the fingerprint; in the
                                      same-layout rule when both sides give one (a reference
                                      field declared `text` and one declared `[int]` have one
                                      layout, but reading either's objects as the other's is
                                      garbage). Also for tools that show or browse data without
                                      the program's source (a database's type table keeps it,
                                      docs/store-format.md) */
} cairn_field;

/* A type descriptor. All pointers are to static, immutable data (T4). */
typedef struct cairn_type {
  uint32_t abi;                   /* CAIRN_TYPE_ABI */
  uint32_t flags;                 /* CAIRN_TYPE_* */
  uint64_t fingerprint;           /* cairn_type_fingerprint_compute(this) */
  const char *name;               /* the type's name, NUL-terminated */
  uint64_t size;                  /* plain: payload bytes; array: bytes per element */
  uint32_t align;                 /* alignment of the payload (<= 8) */
  uint32_t elem_kind;             /* arrays: the cairn_kind of an element; else CAIRN_KIND_NONE */
  uint32_t nrefs;                 /* number of entries in refs */
  uint32_t nfields;               /* number of entries in fields */
  const uint32_t *refs;           /* reference offsets, ascending (T2) */
  const cairn_field *fields;      /* the fields (of one element, for arrays of structs) */
  const struct cairn_type *super; /* the type this one extends as a prefix, or NULL */
  void *const *methods;           /* the method table (virtual functions), or NULL */
  uint32_t nmethods;              /* number of entries in methods */
  uint32_t reserved;              /* zero */
} cairn_type;

/* The structural fingerprint of a descriptor: a 64-bit hash of the type's name, its array and
 * text flags, its element kind, and each field's name, kind and count in order (nested structs
 * by their own fingerprint). It deliberately ignores sizes, offsets and alignment, so it is the
 * same on every machine and at every optimization level, and changes when a field is renamed,
 * retyped, added, removed or reordered. Never returns 0. Defined here, inline, so that the
 * runtime and the compiler plugin compute it with the same code (constexpr in C++). */
#ifdef __cplusplus
#define CAIRN_FP_FN_ static inline constexpr
/* Whether a STRUCT field's nested layout can be read. During constant evaluation it is read
 * without the test (a missing one is then a compile error): GCC with -fsanitize=undefined does
 * not accept comparing the address of a constant with null as a constant expression. */
#define CAIRN_FP_HAS_NESTED_(f) (__builtin_is_constant_evaluated() || (f)->nested != 0)
#else
#define CAIRN_FP_FN_ static inline
#define CAIRN_FP_HAS_NESTED_(f) ((f)->nested != 0)
#endif
CAIRN_FP_FN_ uint64_t cairn_fp_mix_byte_(uint64_t h, unsigned char b) {
  h ^= b;
  return h * 0x100000001b3ull; /* FNV-1a 64 prime */
}
CAIRN_FP_FN_ uint64_t cairn_fp_mix_u64_(uint64_t h, uint64_t v) {
  for (int i = 0; i < 8; i++) h = cairn_fp_mix_byte_(h, (unsigned char)(v >> (8 * i))); /* LE */
  return h;
}
CAIRN_FP_FN_ uint64_t cairn_fp_mix_str_(uint64_t h, const char *s) {
  uint64_t n = 0;
  if (s)
    while (s[n]) n++;
  h = cairn_fp_mix_u64_(h, n);
  for (uint64_t i = 0; i < n; i++) h = cairn_fp_mix_byte_(h, (unsigned char)s[i]);
  return h;
}
CAIRN_FP_FN_ uint64_t cairn_type_fingerprint_compute(const cairn_type *t) {
  uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a 64 offset basis */
  h = cairn_fp_mix_str_(h, "cairn.type.v1");
  h = cairn_fp_mix_u64_(h, t->flags & (CAIRN_TYPE_ARRAY | CAIRN_TYPE_TEXT));
  h = cairn_fp_mix_str_(h, t->name);
  h = cairn_fp_mix_u64_(h, t->elem_kind);
  h = cairn_fp_mix_u64_(h, t->nfields);
  for (uint32_t i = 0; i < t->nfields; i++) {
    const cairn_field *f = &t->fields[i];
    h = cairn_fp_mix_str_(h, f->name);
    h = cairn_fp_mix_u64_(h, f->kind);
    h = cairn_fp_mix_u64_(h, f->count);
    if (f->kind == CAIRN_KIND_STRUCT && CAIRN_FP_HAS_NESTED_(f))
      h = cairn_fp_mix_u64_(h, cairn_type_fingerprint_compute(f->nested));
  }
  /* final avalanche (splitmix64) so that nearby inputs spread over all 64 bits */
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  h ^= h >> 31;
  return h ? h : 1;
}

/* --- The same-layout rule ----------------------------------------------------------------------
 * Two descriptors of one fingerprint (two modules' copies of a type, or a program's type and a
 * database's stored one) can read each other's objects only if their layouts agree. This is the
 * one rule for it, used by registration (T5), the compiler plugin and the database type check.
 * It compares what a database's type table stores too: the name, the array and text flags, the
 * element kind, the size, every reference offset, and every field's name, kind, count and
 * offset; also each field's size when both sides give one (non-zero), its declared type when
 * both sides give one (non-empty: a database written by a C program, or whose type table entry
 * predates declared types, has none) and, recursively, each
 * STRUCT field's nested layout when both sides have one (a database stores neither: the sizes
 * follow from the kinds and offsets it does store, and a nested struct's references are in
 * `refs`). Not compared: `align` (objects are always 8-aligned), `super`, the methods, and the
 * fingerprint itself (callers match fingerprints first). */

/* What differs, the first difference found (in the order listed). */
typedef enum cairn_layout_diff {
  CAIRN_LAYOUT_SAME = 0,
  CAIRN_LAYOUT_NAME = 1,          /* the type names */
  CAIRN_LAYOUT_SHAPE = 2,         /* plain or array, text or not, the element kind */
  CAIRN_LAYOUT_SIZE = 3,          /* size (of the payload, or of one element) */
  CAIRN_LAYOUT_NREFS = 4,         /* the number of references */
  CAIRN_LAYOUT_REF_OFFSET = 5,    /* reference *where's offset */
  CAIRN_LAYOUT_NFIELDS = 6,       /* the number of fields */
  CAIRN_LAYOUT_FIELD_NAME = 7,    /* field *where's name */
  CAIRN_LAYOUT_FIELD_KIND = 8,    /* ... its kind */
  CAIRN_LAYOUT_FIELD_COUNT = 9,   /* ... its count (fixed array length) */
  CAIRN_LAYOUT_FIELD_OFFSET = 10, /* ... its offset */
  CAIRN_LAYOUT_FIELD_SIZE = 11,   /* ... its element size */
  CAIRN_LAYOUT_FIELD_NESTED = 12, /* ... its nested struct's layout */
  CAIRN_LAYOUT_FIELD_TYPE = 13    /* ... its declared type, when both sides give one */
} cairn_layout_diff;

/* Bytes of one value of a scalar kind (BOOL .. RAW; RAW, a machine address, on the 64-bit
 * targets Cairn supports), 0 for NONE and STRUCT. */
CAIRN_FP_FN_ uint32_t cairn_kind_size(uint32_t kind) {
  switch (kind) {
    case CAIRN_KIND_BOOL:
    case CAIRN_KIND_I8:
      return 1;
    case CAIRN_KIND_I16:
      return 2;
    case CAIRN_KIND_I32:
    case CAIRN_KIND_F32:
      return 4;
    case CAIRN_KIND_I64:
    case CAIRN_KIND_F64:
    case CAIRN_KIND_REF:
    case CAIRN_KIND_RAW:
      return 8;
    default:
      return 0;
  }
}

CAIRN_FP_FN_ int cairn_layout_str_eq_(const char *a, const char *b) {
  if (!a || !b) return a == b;
  while (*a && *a == *b) a++, b++;
  return *a == *b;
}

/* The first difference between the layouts of a and b (CAIRN_LAYOUT_SAME if none). If where is
 * not NULL it gets the index of the reference or field concerned (else 0). */
CAIRN_FP_FN_ cairn_layout_diff cairn_type_layout_compare(const cairn_type *a, const cairn_type *b,
                                                         uint32_t *where) {
  const uint32_t shape = CAIRN_TYPE_ARRAY | CAIRN_TYPE_TEXT;
  if (where) *where = 0;
  if (!cairn_layout_str_eq_(a->name, b->name)) return CAIRN_LAYOUT_NAME;
  if ((a->flags & shape) != (b->flags & shape) || a->elem_kind != b->elem_kind)
    return CAIRN_LAYOUT_SHAPE;
  if (a->size != b->size) return CAIRN_LAYOUT_SIZE;
  if (a->nrefs != b->nrefs) return CAIRN_LAYOUT_NREFS;
  for (uint32_t i = 0; i < a->nrefs; i++)
    if (a->refs[i] != b->refs[i]) {
      if (where) *where = i;
      return CAIRN_LAYOUT_REF_OFFSET;
    }
  if (a->nfields != b->nfields) return CAIRN_LAYOUT_NFIELDS;
  for (uint32_t i = 0; i < a->nfields; i++) {
    const cairn_field *f = &a->fields[i], *g = &b->fields[i];
    cairn_layout_diff d = CAIRN_LAYOUT_SAME;
    if (!cairn_layout_str_eq_(f->name, g->name))
      d = CAIRN_LAYOUT_FIELD_NAME;
    else if (f->kind != g->kind)
      d = CAIRN_LAYOUT_FIELD_KIND;
    else if (f->count != g->count)
      d = CAIRN_LAYOUT_FIELD_COUNT;
    else if (f->offset != g->offset)
      d = CAIRN_LAYOUT_FIELD_OFFSET;
    else if (f->size && g->size && f->size != g->size)
      d = CAIRN_LAYOUT_FIELD_SIZE;
    else if (f->kind == CAIRN_KIND_STRUCT && f->nested && g->nested && f->nested != g->nested &&
             cairn_type_layout_compare(f->nested, g->nested, 0) != CAIRN_LAYOUT_SAME)
      d = CAIRN_LAYOUT_FIELD_NESTED;
    else if (f->type && g->type && *f->type && *g->type && !cairn_layout_str_eq_(f->type, g->type))
      d = CAIRN_LAYOUT_FIELD_TYPE;
    if (d != CAIRN_LAYOUT_SAME) {
      if (where) *where = i;
      return d;
    }
  }
  return CAIRN_LAYOUT_SAME;
}

/* 1 if t's refs are exactly the references its fields describe (T6; fields in offset order). */
CAIRN_FP_FN_ int cairn_type_refs_agree(const cairn_type *t) {
  uint32_t n = 0;
  if (t->nfields == 0 && (t->flags & CAIRN_TYPE_ARRAY)) {
    if (t->elem_kind != CAIRN_KIND_REF) return t->nrefs == 0;
    return t->nrefs == 1 && t->refs[0] == 0;
  }
  for (uint32_t i = 0; i < t->nfields; i++) {
    const cairn_field *f = &t->fields[i];
    const struct cairn_type *nested = f->kind == CAIRN_KIND_STRUCT ? f->nested : 0;
    if (f->kind != CAIRN_KIND_REF && !nested) continue;
    for (uint32_t k = 0; k < f->count; k++) {
      const uint64_t base = (uint64_t)f->offset + (uint64_t)k * f->size;
      if (!nested) {
        if (n >= t->nrefs || t->refs[n] != base) return 0;
        n++;
        continue;
      }
      for (uint32_t r = 0; r < nested->nrefs; r++, n++)
        if (n >= t->nrefs || t->refs[n] != base + nested->refs[r]) return 0;
    }
  }
  return n == t->nrefs;
}

/* 1 if a and b have the same layout (cairn_type_layout_compare finds no difference). */
CAIRN_FP_FN_ int cairn_type_same_layout(const cairn_type *a, const cairn_type *b) {
  return cairn_type_layout_compare(a, b, 0) == CAIRN_LAYOUT_SAME;
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CAIRN_TYPE_H */
