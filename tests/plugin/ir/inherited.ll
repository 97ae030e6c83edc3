; An inherited prefix: a struct whose first element is a marked heap type extends it. Its
; descriptor's super is the base's descriptor, field 0 is the base (nested = the base's own
; descriptor, not a layout copy), and the base's references come first. A local marker's
; ".<digits>" suffix is not part of the name.
; RUN: %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -S %s | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%Shape = type { ptr addrspace(1), i32 }
%Circle = type { %Shape, double, ptr addrspace(1) }
%Ring = type { %Circle, ptr addrspace(1) }

@cairn_heap_type_Shape.3 = internal global %Shape zeroinitializer
@cairn_heap_type_Circle = internal global %Circle zeroinitializer
@cairn_heap_type_Ring = internal global %Ring zeroinitializer

!cairn.fields = !{!0, !1, !2}
!0 = !{%Shape poison, !"name", !"sides"}
!1 = !{%Circle poison, !"shape", !"radius", !"center"}
!2 = !{%Ring poison, !"outer", !"hole"}

declare ptr @cairn_malloc_typed(ptr)

define void @make() {
  %a = call ptr @cairn_malloc_typed(ptr @cairn_heap_type_Shape.3)
  %b = call ptr @cairn_malloc_typed(ptr @cairn_heap_type_Circle)
  %c = call ptr @cairn_malloc_typed(ptr @cairn_heap_type_Ring)
  ret void
}

; CHECK-DAG: @cairn.type.Shape = internal constant %cairn.type { i32 2, i32 0, i64 {{-?[0-9]+}}, ptr [[SHAPE:@cairn.str[.0-9]*]], i64 16, i32 8, i32 0, i32 1, i32 2, ptr @cairn.type.Shape.refs, ptr @cairn.type.Shape.fields, ptr null, ptr null, i32 0, i32 0 }
; CHECK-DAG: [[SHAPE]] = private unnamed_addr constant [6 x i8] c"Shape\00"
; CHECK-DAG: @cairn.type.Circle = internal constant %cairn.type { i32 2, i32 0, i64 {{-?[0-9]+}}, ptr {{@cairn.str[.0-9]*}}, i64 32, i32 8, i32 0, i32 2, i32 3, ptr @cairn.type.Circle.refs, ptr @cairn.type.Circle.fields, ptr @cairn.type.Shape, ptr null, i32 0, i32 0 }
; CHECK-DAG: @cairn.type.Circle.refs = private constant [2 x i32] [i32 0, i32 24]
; CHECK-DAG: @cairn.type.Circle.fields = private constant [3 x %cairn.field] [%cairn.field { ptr {{@cairn.str[.0-9]*}}, i32 0, i16 10, i16 0, i32 1, i32 16, ptr @cairn.type.Shape, ptr null }, %cairn.field { ptr {{@cairn.str[.0-9]*}}, i32 16, i16 7, i16 0, i32 1, i32 8, ptr null, ptr null }, %cairn.field { ptr {{@cairn.str[.0-9]*}}, i32 24, i16 8, i16 0, i32 1, i32 8, ptr null, ptr null }]
; CHECK-DAG: @cairn.type.Ring = internal constant %cairn.type { i32 2, i32 0, i64 {{-?[0-9]+}}, ptr {{@cairn.str[.0-9]*}}, i64 40, i32 8, i32 0, i32 3, i32 2, ptr @cairn.type.Ring.refs, ptr @cairn.type.Ring.fields, ptr @cairn.type.Circle, ptr null, i32 0, i32 0 }
; CHECK-DAG: @cairn.type.Ring.refs = private constant [3 x i32] [i32 0, i32 24, i32 32]
; CHECK-DAG: @cairn.module_types = private constant [3 x ptr] [ptr @cairn.type.Shape, ptr @cairn.type.Circle, ptr @cairn.type.Ring]
; CHECK-NOT: cairn.layout
