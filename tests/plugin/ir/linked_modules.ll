; What llvm-link makes of two modules that both define, name and use the heap type Node: two
; markers (the second renamed with a ".1" suffix, which is not part of the name), and
; !cairn.fields and !cairn.methods each listing the same node twice. That is no error: both
; descriptors have the same names, fingerprint and method table. (They are two descriptors
; still: one per marker. One canonical descriptor per type is issue 9's first item.)
; RUN: %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -S %s | %FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -S %s | %FileCheck %s --check-prefix=NAMES
; NAMES: private unnamed_addr constant [6 x i8] c"value\00"
; NAMES: private unnamed_addr constant [5 x i8] c"next\00"

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%Node = type { i64, ptr addrspace(1) }
@cairn_heap_type_Node = internal global %Node zeroinitializer
@cairn_heap_type_Node.1 = internal global %Node zeroinitializer

!cairn.fields = !{!0, !0}
!0 = !{%Node poison, !"value", !"next"}
!cairn.methods = !{!1, !1}
!1 = !{%Node poison, ptr @Node.show}

declare void @Node.show(ptr addrspace(1))
declare ptr @cairn_malloc_typed(ptr)

define ptr @make_a() {
  %p = call ptr @cairn_malloc_typed(ptr @cairn_heap_type_Node)
  ret ptr %p
}
define ptr @make_b() {
  %p = call ptr @cairn_malloc_typed(ptr @cairn_heap_type_Node.1)
  ret ptr %p
}

; CHECK: @cairn.type.Node = internal constant %cairn.type { i32 2, i32 0, i64 [[FP:-?[0-9]+]], {{.*}}, ptr @cairn.type.Node.methods, i32 1, i32 0 }
; CHECK: @cairn.type.Node.methods = private constant [1 x ptr] [ptr @Node.show]
; CHECK: @cairn.type.[[SECOND:Node.[0-9]+]] = internal constant %cairn.type { i32 2, i32 0, i64 [[FP]], {{.*}}, ptr [[METHODS:@cairn.type.Node.methods.[0-9]+]], i32 1, i32 0 }
; CHECK: [[METHODS]] = private constant [1 x ptr] [ptr @Node.show]
; CHECK-LABEL: define ptr @make_a()
; CHECK-NEXT: call ptr @cairn_malloc_typed(ptr @cairn.type.Node)
; CHECK-LABEL: define ptr @make_b()
; CHECK-NEXT: call ptr @cairn_malloc_typed(ptr @cairn.type.[[SECOND]])
