; Declared types: `!cairn.field_types` (one node per struct, one string per element, "" for none)
; becomes each field's cairn_field.type, the last member of %cairn.field; a type without an entry
; (and an element with "") gets null. The fingerprint does not change with them: Point is the
; same type with or without its entry (the last three RUN lines compare its fingerprint).
; RUN: %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -S %s | %FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -S %s | sed -n -E 's/^@cairn[.]type[.]Point = internal constant %cairn[.]type [{] i32 2, i32 0, i64 (-?[0-9]+),.*/\1/p' > %t.with
; RUN: sed -e '/^!cairn.field_types/d' %s | %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -S | sed -n -E 's/^@cairn[.]type[.]Point = internal constant %cairn[.]type [{] i32 2, i32 0, i64 (-?[0-9]+),.*/\1/p' > %t.without
; RUN: test -s %t.with && cmp %t.with %t.without

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%Base = type { i64 }
%Point = type { %Base, ptr addrspace(1), double }
%Bare = type { ptr addrspace(1) }

@cairn_heap_type_Base = internal global %Base zeroinitializer
@cairn_heap_type_Point = internal global %Point zeroinitializer
@cairn_heap_type_Bare = internal global %Bare zeroinitializer

!cairn.fields = !{!0, !1, !2}
!0 = !{%Base poison, !"id"}
!1 = !{%Point poison, !"Base", !"next", !"x"}
!2 = !{%Bare poison, !"other"}
!cairn.field_types = !{!3, !4}
!3 = !{%Base poison, !"int"}
!4 = !{%Point poison, !"", !"List[Point]", !"float"}

declare ptr @cairn_malloc_typed(ptr)

define void @make() {
  %a = call ptr @cairn_malloc_typed(ptr @cairn_heap_type_Point)
  %b = call ptr @cairn_malloc_typed(ptr @cairn_heap_type_Bare)
  ret void
}

; CHECK-DAG: @cairn.type.Point.fields = private constant [3 x %cairn.field] [%cairn.field { ptr {{@cairn.str[.0-9]*}}, i32 0, i16 10, i16 0, i32 1, i32 8, ptr @cairn.type.Base, ptr null }, %cairn.field { ptr {{@cairn.str[.0-9]*}}, i32 8, i16 8, i16 0, i32 1, i32 8, ptr null, ptr [[LIST:@cairn.str[.0-9]*]] }, %cairn.field { ptr {{@cairn.str[.0-9]*}}, i32 16, i16 7, i16 0, i32 1, i32 8, ptr null, ptr [[FLOAT:@cairn.str[.0-9]*]] }]
; CHECK-DAG: [[LIST]] = private unnamed_addr constant [12 x i8] c"List[Point]\00"
; CHECK-DAG: [[FLOAT]] = private unnamed_addr constant [6 x i8] c"float\00"
; CHECK-DAG: @cairn.type.Base.fields = private constant [1 x %cairn.field] [%cairn.field { ptr {{@cairn.str[.0-9]*}}, i32 0, i16 5, i16 0, i32 1, i32 8, ptr null, ptr [[INT:@cairn.str[.0-9]*]] }]
; CHECK-DAG: [[INT]] = private unnamed_addr constant [4 x i8] c"int\00"
; CHECK-DAG: @cairn.type.Bare.fields = private constant [1 x %cairn.field] [%cairn.field { ptr {{@cairn.str[.0-9]*}}, i32 0, i16 8, i16 0, i32 1, i32 8, ptr null, ptr null }]
