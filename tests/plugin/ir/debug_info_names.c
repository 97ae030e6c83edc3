// Field names come from debug info when clang compiles with -g (at any -O level), else they
// are numbered; kinds, offsets and references are the same either way. A nested struct gets
// its members' names too; a base-struct prefix that is itself a heap type becomes `super`.
// RUN: %clang -std=c11 -g -O0 -I%include -fpass-plugin=%plugin -S -emit-llvm %s -o - | %FileCheck %s --check-prefixes=CHECK,NAMED
// RUN: %clang -std=c11 -g -O2 -I%include -fpass-plugin=%plugin -S -emit-llvm %s -o - | %FileCheck %s --check-prefixes=CHECK,NAMED
// RUN: %clang -std=c11 -O0 -I%include -fpass-plugin=%plugin -S -emit-llvm %s -o - | %FileCheck %s --check-prefixes=CHECK,NUMBERED
// RUN: %clang -std=c11 -O3 -I%include -fpass-plugin=%plugin -S -emit-llvm %s -o - | %FileCheck %s --check-prefixes=CHECK,NUMBERED
#include "cairn/heap_c.h"

struct Point {
  int32_t x, y;
  CAIRN_REF(struct Label) label;
};
struct Label {
  CAIRN_REF(void) text;
  struct Point at[2];
  char flag;
};
CAIRN_HEAP_TYPE(Label);

struct Labeled {
  struct Label base;
  int64_t extra;
  CAIRN_REF(struct Labeled) next;
};
CAIRN_HEAP_TYPE(Labeled);

CAIRN_REF(struct Labeled) make(void) {
  CAIRN_REF(struct Labeled) l = CAIRN_NEW(Labeled);
  l->base.at[1].label = CAIRN_AS_REF(struct Label, CAIRN_PTR(CAIRN_NEW(Label)));
  return l;
}

// Label: text at 0, at[2] (16 bytes each) at 8 with refs at 16 and 32, flag at 40: size 48.
// CHECK-DAG: @cairn.type.Label = internal constant %cairn.type { i32 2, i32 0, i64 {{-?[0-9]+}}, ptr {{@cairn.str[.0-9]*}}, i64 48, i32 8, i32 0, i32 3, i32 3, ptr @cairn.type.Label.refs, ptr @cairn.type.Label.fields, ptr null,
// CHECK-DAG: @cairn.type.Label.refs = private constant [3 x i32] [i32 0, i32 16, i32 32]
// CHECK-DAG: @cairn.type.Label.fields = private constant [3 x %cairn.field] [%cairn.field { ptr [[TEXT:@cairn.str[.0-9]*]], i32 0, i16 8, i16 0, i32 1, i32 8, ptr null, ptr null }, %cairn.field { ptr [[AT:@cairn.str[.0-9]*]], i32 8, i16 10, i16 0, i32 2, i32 16, ptr @cairn.layout.Point, ptr null }, %cairn.field { ptr [[FLAG:@cairn.str[.0-9]*]], i32 40, i16 2, i16 0, i32 1, i32 1, ptr null, ptr null }]
// CHECK-DAG: @cairn.layout.Point.fields = private constant [3 x %cairn.field] [%cairn.field { ptr [[X:@cairn.str[.0-9]*]], i32 0, i16 4, {{.*}} }, %cairn.field { ptr {{@cairn.str[.0-9]*}}, i32 4, i16 4, {{.*}} }, %cairn.field { ptr [[LABEL:@cairn.str[.0-9]*]], i32 8, i16 8, {{.*}} }]
// Labeled extends Label: super, and Label's refs first.
// CHECK-DAG: @cairn.type.Labeled = internal constant %cairn.type { i32 2, i32 0, i64 {{-?[0-9]+}}, ptr {{@cairn.str[.0-9]*}}, i64 64, i32 8, i32 0, i32 4, i32 3, ptr @cairn.type.Labeled.refs, ptr @cairn.type.Labeled.fields, ptr @cairn.type.Label,
// CHECK-DAG: @cairn.type.Labeled.refs = private constant [4 x i32] [i32 0, i32 16, i32 32, i32 56]
// NAMED-DAG: [[TEXT]] = private unnamed_addr constant [5 x i8] c"text\00"
// NAMED-DAG: [[AT]] = private unnamed_addr constant [3 x i8] c"at\00"
// NAMED-DAG: [[FLAG]] = private unnamed_addr constant [5 x i8] c"flag\00"
// NAMED-DAG: [[X]] = private unnamed_addr constant [2 x i8] c"x\00"
// NAMED-DAG: [[LABEL]] = private unnamed_addr constant [6 x i8] c"label\00"
// NUMBERED-DAG: [[TEXT]] = private unnamed_addr constant [3 x i8] c"f0\00"
// NUMBERED-DAG: [[AT]] = private unnamed_addr constant [3 x i8] c"f1\00"
// NUMBERED-DAG: [[FLAG]] = private unnamed_addr constant [3 x i8] c"f2\00"
// (Equal names share one string: Point's f0 and f2 are Label's, checked above.)
// CHECK-DAG: @cairn.module_types = private constant [2 x ptr] [ptr @cairn.type.{{Label|Labeled}}, ptr @cairn.type.{{Label|Labeled}}]
