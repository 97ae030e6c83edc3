; Nested structs and fixed arrays of structs and of references: every reference is found at
; its offset in the outer object; an unmarked nested struct gets its own layout descriptor
; (flag CAIRN_TYPE_LAYOUT = 4), named after the IR type; fields without names are numbered.
; RUN: %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -S %s | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.Inner = type { i32, ptr addrspace(1) }
%struct.Outer = type { i8, %struct.Inner, [3 x %struct.Inner], [2 x [2 x ptr addrspace(1)]], ptr, [4 x i16] }

@cairn_heap_type_Outer = internal global %struct.Outer zeroinitializer

declare ptr @cairn_malloc_typed(ptr)

define ptr @make() {
  %p = call ptr @cairn_malloc_typed(ptr @cairn_heap_type_Outer)
  ret ptr %p
}

; Inner at 8 (ref at 16); 3 x Inner at 24 (refs 32, 48, 64); 2x2 refs at 72..96; ptr at 104;
; [4 x i16] at 112: size 120, 8 refs, 6 fields.
; CHECK-DAG: @cairn.type.Outer = internal constant %cairn.type { i32 2, i32 0, i64 {{-?[0-9]+}}, ptr {{@cairn.str[.0-9]*}}, i64 120, i32 8, i32 0, i32 8, i32 6, ptr @cairn.type.Outer.refs, ptr @cairn.type.Outer.fields, ptr null, ptr null, i32 0, i32 0 }
; CHECK-DAG: @cairn.type.Outer.refs = private constant [8 x i32] [i32 16, i32 32, i32 48, i32 64, i32 72, i32 80, i32 88, i32 96]
; CHECK-DAG: @cairn.type.Outer.fields = private constant [6 x %cairn.field] [%cairn.field { ptr [[F0:@cairn.str[.0-9]*]], i32 0, i16 2, i16 0, i32 1, i32 1, ptr null, ptr null }, %cairn.field { ptr [[F1:@cairn.str[.0-9]*]], i32 8, i16 10, i16 0, i32 1, i32 16, ptr @cairn.layout.Inner, ptr null }, %cairn.field { ptr {{@cairn.str[.0-9]*}}, i32 24, i16 10, i16 0, i32 3, i32 16, ptr @cairn.layout.Inner, ptr null }, %cairn.field { ptr {{@cairn.str[.0-9]*}}, i32 72, i16 8, i16 0, i32 4, i32 8, ptr null, ptr null }, %cairn.field { ptr {{@cairn.str[.0-9]*}}, i32 104, i16 9, i16 0, i32 1, i32 8, ptr null, ptr null }, %cairn.field { ptr {{@cairn.str[.0-9]*}}, i32 112, i16 3, i16 0, i32 4, i32 2, ptr null, ptr null }]
; CHECK-DAG: [[F0]] = private unnamed_addr constant [3 x i8] c"f0\00"
; CHECK-DAG: [[F1]] = private unnamed_addr constant [3 x i8] c"f1\00"
; The nested layout: flags 4, size 16, one ref at 8; not registered.
; CHECK-DAG: @cairn.layout.Inner = internal constant %cairn.type { i32 2, i32 4, i64 {{-?[0-9]+}}, ptr [[INNER:@cairn.str[.0-9]*]], i64 16, i32 8, i32 0, i32 1, i32 2, ptr @cairn.layout.Inner.refs, ptr @cairn.layout.Inner.fields, ptr null, ptr null, i32 0, i32 0 }
; CHECK-DAG: [[INNER]] = private unnamed_addr constant [6 x i8] c"Inner\00"
; CHECK-DAG: @cairn.layout.Inner.refs = private constant [1 x i32] [i32 8]
; CHECK-DAG: @cairn.module_types = private constant [1 x ptr] [ptr @cairn.type.Outer]
