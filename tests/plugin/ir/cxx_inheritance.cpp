// C++ through clang++: a static marker is mangled (_ZL<length><name>) and still recognized; with
// debug info a base class is an inherited prefix (super = the base's layout, field named after
// the base), without it the base is an ordinary first field.
// RUN: %clang -x c++ -std=c++20 -g -O1 -I%include -fpass-plugin=%plugin -S -emit-llvm %s -o - | %FileCheck %s --check-prefixes=CHECK,DEBUG
// RUN: %clang -x c++ -std=c++20 -O1 -I%include -fpass-plugin=%plugin -S -emit-llvm %s -o - | %FileCheck %s --check-prefixes=CHECK,NODEBUG
// RUN: %clang -x c++ -std=c++20 -O1 -I%include -fpass-plugin=%plugin -S -emit-llvm %s -o - | %FileCheck %s --check-prefix=GONE
#include "cairn/heap_c.h"

struct Base {
  int64_t id;
  CAIRN_REF(Base) peer;
};
struct Derived : Base {
  int32_t extra;
  CAIRN_REF(Derived) next;
};
CAIRN_HEAP_TYPE(Derived);

CAIRN_REF(Derived) make() { return CAIRN_NEW(Derived); }

// DEBUG: @cairn.type.Derived = internal constant %cairn.type { i32 2, i32 0, i64 {{-?[0-9]+}}, ptr {{@cairn.str[.0-9]*}}, i64 32, i32 8, i32 0, i32 2, i32 3, ptr @cairn.type.Derived.refs, ptr @cairn.type.Derived.fields, ptr @cairn.layout.Base,
// NODEBUG: @cairn.type.Derived = internal constant %cairn.type { i32 2, i32 0, i64 {{-?[0-9]+}}, ptr {{@cairn.str[.0-9]*}}, i64 32, i32 8, i32 0, i32 2, i32 3, ptr @cairn.type.Derived.refs, ptr @cairn.type.Derived.fields, ptr null,
// CHECK-DAG: @cairn.type.Derived.refs = private constant [2 x i32] [i32 8, i32 24]
// CHECK-DAG: @cairn.type.Derived.fields = private constant [3 x %cairn.field] [%cairn.field { ptr [[BASE:@cairn.str[.0-9]*]], i32 0, i16 10, i16 0, i32 1, i32 16, ptr @cairn.layout.Base, ptr null }
// DEBUG-DAG: [[BASE]] = private unnamed_addr constant [5 x i8] c"Base\00"
// NODEBUG-DAG: [[BASE]] = private unnamed_addr constant [3 x i8] c"f0\00"
// GONE-NOT: @_ZL23cairn_heap_type_Derived =
