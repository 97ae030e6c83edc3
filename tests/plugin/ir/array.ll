; Array types: the marker is a global of the element type. size is the element size, refs are
; offsets within one element, elem_kind the element's kind; flags ARRAY (1), TEXT (2).
; RUN: %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -S %s | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.Pair = type { ptr addrspace(1), i32, ptr addrspace(1) }

@cairn_heap_array_Refs = internal global ptr addrspace(1) null
@cairn_heap_array_Longs = internal global i64 0
@cairn_heap_array_Pairs = internal global %struct.Pair zeroinitializer
@cairn_heap_text_Text = internal global i8 0

!cairn.fields = !{!0}
!0 = !{%struct.Pair poison, !"first", !"weight", !"second"}

declare ptr @cairn_malloc_array(ptr, i64)

define void @make(i64 %n) {
  %a = call ptr @cairn_malloc_array(ptr @cairn_heap_array_Refs, i64 %n)
  %b = call ptr @cairn_malloc_array(ptr @cairn_heap_array_Longs, i64 %n)
  %c = call ptr @cairn_malloc_array(ptr @cairn_heap_array_Pairs, i64 %n)
  %d = call ptr @cairn_malloc_array(ptr @cairn_heap_text_Text, i64 %n)
  ret void
}

; CHECK-DAG: @cairn.type.Refs = internal constant %cairn.type { i32 2, i32 1, i64 {{-?[0-9]+}}, ptr {{@cairn.str[.0-9]*}}, i64 8, i32 8, i32 8, i32 1, i32 0, ptr @cairn.type.Refs.refs, ptr null, ptr null, ptr null, i32 0, i32 0 }
; CHECK-DAG: @cairn.type.Refs.refs = private constant [1 x i32] zeroinitializer
; CHECK-DAG: @cairn.type.Longs = internal constant %cairn.type { i32 2, i32 1, i64 {{-?[0-9]+}}, ptr {{@cairn.str[.0-9]*}}, i64 8, i32 8, i32 5, i32 0, i32 0, ptr null, ptr null, ptr null, ptr null, i32 0, i32 0 }
; An array of structs: elem_kind STRUCT (10), the element's refs and fields.
; CHECK-DAG: @cairn.type.Pairs = internal constant %cairn.type { i32 2, i32 1, i64 {{-?[0-9]+}}, ptr {{@cairn.str[.0-9]*}}, i64 24, i32 8, i32 10, i32 2, i32 3, ptr @cairn.type.Pairs.refs, ptr @cairn.type.Pairs.fields, ptr null, ptr null, i32 0, i32 0 }
; CHECK-DAG: @cairn.type.Pairs.refs = private constant [2 x i32] [i32 0, i32 16]
; CHECK-DAG: @cairn.type.Pairs.fields = private constant [3 x %cairn.field] [%cairn.field { ptr [[FIRST:@cairn.str[.0-9]*]], i32 0, i16 8, i16 0, i32 1, i32 8, ptr null, ptr null }, %cairn.field { ptr {{@cairn.str[.0-9]*}}, i32 8, i16 4, i16 0, i32 1, i32 4, ptr null, ptr null }, %cairn.field { ptr {{@cairn.str[.0-9]*}}, i32 16, i16 8, i16 0, i32 1, i32 8, ptr null, ptr null }]
; CHECK-DAG: [[FIRST]] = private unnamed_addr constant [6 x i8] c"first\00"
; Text: ARRAY|TEXT, I8 elements of one byte.
; CHECK-DAG: @cairn.type.Text = internal constant %cairn.type { i32 2, i32 3, i64 {{-?[0-9]+}}, ptr {{@cairn.str[.0-9]*}}, i64 1, i32 1, i32 2, i32 0, i32 0, ptr null, ptr null, ptr null, ptr null, i32 0, i32 0 }
; CHECK-DAG: @cairn.module_types = private constant [4 x ptr] [ptr @cairn.type.Refs, ptr @cairn.type.Longs, ptr @cairn.type.Pairs, ptr @cairn.type.Text]

; CHECK-LABEL: define void @make(
; CHECK-NEXT: call ptr @cairn_malloc_array(ptr @cairn.type.Refs, i64 %n)
; CHECK-NEXT: call ptr @cairn_malloc_array(ptr @cairn.type.Longs, i64 %n)
; CHECK-NEXT: call ptr @cairn_malloc_array(ptr @cairn.type.Pairs, i64 %n)
; CHECK-NEXT: call ptr @cairn_malloc_array(ptr @cairn.type.Text, i64 %n)
