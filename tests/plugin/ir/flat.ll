; A flat struct: scalars of every kind, references and a raw pointer, named by !cairn.fields.
; The descriptor has the DataLayout's offsets, the marker's allocation call is pointed at it,
; the marker leaves llvm.compiler.used, and a constructor registers the descriptor.
; RUN: %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -S %s | %FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -S %s | %FileCheck %s --check-prefix=GONE
; GONE-NOT: cairn_heap_type_Flat
; GONE-NOT: llvm.compiler.used

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%Flat = type { i1, i8, ptr addrspace(1), i16, i32, float, i64, double, ptr, ptr addrspace(1) }

@cairn_heap_type_Flat = internal global %Flat zeroinitializer
@llvm.compiler.used = appending global [1 x ptr] [ptr @cairn_heap_type_Flat], section "llvm.metadata"

!cairn.fields = !{!0}
!0 = !{%Flat poison, !"done", !"tag", !"left", !"small", !"count", !"ratio", !"big", !"exact", !"handle", !"right"}

declare ptr @cairn_malloc_typed(ptr)

define ptr addrspace(1) @make() {
  %p = call ptr @cairn_malloc_typed(ptr @cairn_heap_type_Flat)
  %r = addrspacecast ptr %p to ptr addrspace(1)
  ret ptr addrspace(1) %r
}

; The descriptor: abi 1, flags 0, a fingerprint, name, size 64, align 8, no element kind,
; 2 refs, 10 fields, no super, no methods.
; CHECK: @cairn.type.Flat = internal constant %cairn.type { i32 2, i32 0, i64 [[FP:-?[0-9]+]], ptr [[NAME:@cairn.str[.0-9]*]], i64 64, i32 8, i32 0, i32 2, i32 10, ptr @cairn.type.Flat.refs, ptr @cairn.type.Flat.fields, ptr null, ptr null, i32 0, i32 0 }, align 8
; CHECK-DAG: [[NAME]] = private unnamed_addr constant [5 x i8] c"Flat\00"
; CHECK-DAG: @cairn.type.Flat.refs = private constant [2 x i32] [i32 8, i32 56]
; Fields: name, offset, kind, 0, count, size, nested. Kinds: bool 1, i8 2, ref 8, i16 3, i32 4,
; f32 6, i64 5, f64 7, raw 9.
; CHECK-DAG: @cairn.type.Flat.fields = private constant [10 x %cairn.field] [%cairn.field { ptr [[DONE:@cairn.str[.0-9]*]], i32 0, i16 1, i16 0, i32 1, i32 1, ptr null, ptr null }, %cairn.field { ptr {{@cairn.str[.0-9]*}}, i32 1, i16 2, i16 0, i32 1, i32 1, ptr null, ptr null }, %cairn.field { ptr [[LEFT:@cairn.str[.0-9]*]], i32 8, i16 8, i16 0, i32 1, i32 8, ptr null, ptr null }, %cairn.field { ptr {{@cairn.str[.0-9]*}}, i32 16, i16 3, i16 0, i32 1, i32 2, ptr null, ptr null }, %cairn.field { ptr {{@cairn.str[.0-9]*}}, i32 20, i16 4, i16 0, i32 1, i32 4, ptr null, ptr null }, %cairn.field { ptr {{@cairn.str[.0-9]*}}, i32 24, i16 6, i16 0, i32 1, i32 4, ptr null, ptr null }, %cairn.field { ptr {{@cairn.str[.0-9]*}}, i32 32, i16 5, i16 0, i32 1, i32 8, ptr null, ptr null }, %cairn.field { ptr {{@cairn.str[.0-9]*}}, i32 40, i16 7, i16 0, i32 1, i32 8, ptr null, ptr null }, %cairn.field { ptr {{@cairn.str[.0-9]*}}, i32 48, i16 9, i16 0, i32 1, i32 8, ptr null, ptr null }, %cairn.field { ptr [[RIGHT:@cairn.str[.0-9]*]], i32 56, i16 8, i16 0, i32 1, i32 8, ptr null, ptr null }]
; CHECK-DAG: [[DONE]] = private unnamed_addr constant [5 x i8] c"done\00"
; CHECK-DAG: [[LEFT]] = private unnamed_addr constant [5 x i8] c"left\00"
; CHECK-DAG: [[RIGHT]] = private unnamed_addr constant [6 x i8] c"right\00"
; CHECK-DAG: @cairn.module_types = private constant [1 x ptr] [ptr @cairn.type.Flat]
; CHECK-DAG: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 101, ptr @cairn.register_types, ptr null }]

; CHECK-LABEL: define ptr addrspace(1) @make()
; CHECK-NEXT: call ptr @cairn_malloc_typed(ptr @cairn.type.Flat)

; CHECK-LABEL: define internal void @cairn.register_types()
; CHECK-NEXT: entry:
; CHECK-NEXT: call void @cairn_register_module_or_exit(ptr @cairn.module_types, ptr @cairn.canon, i64 1, ptr {{@cairn.str[.0-9]*}})
; CHECK-NEXT: ret void
