/* Cairn: writing C whose objects live on the Cairn heap.
 *
 * Compile with clang and the compiler plugin (clang-19 -fpass-plugin=.../CairnDescriptors.so,
 * at any -O level; add -g to give descriptors the source's field names, see docs/plugin.md).
 * The plugin turns each marker below into a type descriptor (cairn/type.h) computed from the
 * struct's layout, and registers the descriptors when the program starts.
 *
 *   struct Node { int64_t value; CAIRN_REF(struct Node) next; };
 *   CAIRN_HEAP_TYPE(Node);                     // struct Node is a heap type named "Node"
 *   CAIRN_REF(struct Node) n = CAIRN_NEW(Node);
 *
 *   CAIRN_HEAP_ARRAY(Nodes, CAIRN_REF(struct Node));  // an array type of references
 *   CAIRN_REF(void) a = CAIRN_NEW_ARRAY(Nodes, 10);
 *   CAIRN_ARRAY_DATA(CAIRN_REF(struct Node), a)[3] = n;
 *
 *   if (cairn_type_of(CAIRN_PTR(n)) == CAIRN_TYPE(Node)) ...   // the descriptor as a value
 *
 *   static CAIRN_REF(struct Node) cache;  // a global holding a reference: an exact root
 *
 * Rules (the plugin reports a compile error for what it can see breaking them):
 *   - A reference is CAIRN_REF(T): a pointer in address space 1. Only references are traced;
 *     a plain pointer to a heap object in a heap object is not, and is left dangling when the
 *     object moves. Local variables may hold either kind (the stack is scanned conservatively).
 *   - A heap struct must not keep a reference inside a union, and every reference must sit at
 *     an 8-byte-aligned offset (no packed structs around references).
 *   - Markers are only used through the macros below (any other use of a marker is an error).
 *   - A global (not a constant, not thread-local) holding references is registered as a root
 *     by the plugin, so what it references stays alive and the global follows it when it
 *     moves. A thread-local one is an error.
 *   - A reference is converted to a plain pointer (to call the runtime's C API, which takes
 *     plain pointers) with CAIRN_PTR(r), and back with CAIRN_AS_REF(T, p).
 * Without the plugin, a program using these macros still compiles and links but hands the
 * runtime an all-zero marker instead of a descriptor: its behavior is undefined (typically a
 * crash in the first allocation). Always compile with the plugin.
 */
#ifndef CAIRN_HEAP_C_H
#define CAIRN_HEAP_C_H

#include <stdint.h>

#include "cairn/gc.h"

/* A traced reference to a heap object of type T (e.g. CAIRN_REF(struct Node)); T may itself be
 * a reference type (CAIRN_REF(CAIRN_REF(struct Node)) points at a reference in a heap array).
 * On x86-64 it is an ordinary address; the address space tells the plugin what it is. */
#define CAIRN_REF(T) __typeof__(T) __attribute__((address_space(1))) *

/* Declares `struct T` a heap type named "T". Put it after the struct's definition, at file
 * scope, in every file that allocates a T (each file gets its own descriptor; the runtime
 * accepts identical ones). */
#define CAIRN_HEAP_TYPE(T) __attribute__((used)) static struct T cairn_heap_type_##T

/* Declares an array type named Name whose elements are Elem (a scalar, a reference or a struct;
 * not an array). */
#define CAIRN_HEAP_ARRAY(Name, Elem) __attribute__((used)) static Elem cairn_heap_array_##Name

/* Declares a text type named Name: an array of bytes (UTF-8 by convention). */
#define CAIRN_HEAP_TEXT(Name) __attribute__((used)) static char cairn_heap_text_##Name

/* What CAIRN_TYPE and its kin expand to. It does not exist at run time: the plugin replaces each
 * call by the marker's descriptor (a program built without the plugin fails to link). */
#ifdef __cplusplus
extern "C" {
#endif
const cairn_type *cairn_type_ref(const void *marker) __attribute__((nothrow));
#ifdef __cplusplus
}
#endif

/* The descriptor of heap type T (of array type Name, of text type Name), as a const cairn_type *:
 * to compare with cairn_type_of(obj) or to pass to the runtime. Usable wherever an expression is
 * (not in static initializers). */
#define CAIRN_TYPE(T) cairn_type_ref(&cairn_heap_type_##T)
#define CAIRN_ARRAY_TYPE(Name) cairn_type_ref(&cairn_heap_array_##Name)
#define CAIRN_TEXT_TYPE(Name) cairn_type_ref(&cairn_heap_text_##Name)

/* A new zero-filled object of heap type T, as a CAIRN_REF(struct T). */
#define CAIRN_NEW(T) \
  ((CAIRN_REF(struct T))cairn_malloc_typed((const cairn_type *)&cairn_heap_type_##T))

/* A new zero-filled array of n elements of array type Name, as a CAIRN_REF(void). */
#define CAIRN_NEW_ARRAY(Name, n) \
  ((CAIRN_REF(void))cairn_malloc_array((const cairn_type *)&cairn_heap_array_##Name, (n)))

/* A new zero-filled text of n bytes of text type Name, as a CAIRN_REF(void). */
#define CAIRN_NEW_TEXT(Name, n) \
  ((CAIRN_REF(void))cairn_malloc_array((const cairn_type *)&cairn_heap_text_##Name, (n)))

/* The plain address of a referenced object (for the runtime's API), and back. */
#define CAIRN_PTR(r) ((void *)(r))
#define CAIRN_AS_REF(T, p) ((CAIRN_REF(T))(p))

/* The length of an array or text (the int64 before its elements). */
static inline int64_t cairn_ref_array_length(CAIRN_REF(void) array) {
  return *(CAIRN_REF(int64_t))array;
}

/* The elements of an array or text, as a CAIRN_REF(Elem) to element 0. */
#define CAIRN_ARRAY_DATA(Elem, array) \
  ((CAIRN_REF(Elem))((CAIRN_REF(char))(array) + CAIRN_ARRAY_DATA_OFFSET))

#endif /* CAIRN_HEAP_C_H */
