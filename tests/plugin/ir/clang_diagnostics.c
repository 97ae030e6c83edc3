// Through clang the pass's errors are compile errors with the source location, at any -O level.
// RUN: %not %clang -std=c11 -g -O0 -I%include -fpass-plugin=%plugin -c %s -o /dev/null 2>&1 | %FileCheck %s
// RUN: %not %clang -std=c11 -g -O2 -I%include -fpass-plugin=%plugin -c %s -o /dev/null 2>&1 | %FileCheck %s
#include "cairn/heap_c.h"

struct Cell {
  int64_t tag;
  union {
    int64_t number;
    CAIRN_REF(struct Cell) link;  // not the union's storage type: only the access shows it
  } as;
};
CAIRN_HEAP_TYPE(Cell);

CAIRN_REF(struct Cell) follow(CAIRN_REF(struct Cell) c) {
  return c->as.link;
}

const void *marker_address(void) {
  return &cairn_heap_type_Cell;
}

// CHECK-DAG: error: cairn-descriptors: {{.*}}clang_diagnostics.c:16:{{[0-9]+}}: in function 'follow': reads a reference in union 'anon' inside a heap object
// CHECK-DAG: error: cairn-descriptors: {{.*}}clang_diagnostics.c:20:{{[0-9]+}}: in function 'marker_address': unknown use of the marker of heap type 'Cell'
