; cairn_type_ref names a descriptor as a value: each direct call (or invoke) with a marker as
; its only argument is replaced by the descriptor's address and erased, for plain, array and
; text types; the declaration goes once nothing calls it. Generated code compares an object's
; header with it (`is`/`as`) and passes it to the runtime.
; RUN: %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -S %s | %FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -S %s | %FileCheck %s --check-prefix=GONE
; RUN: %opt -load-pass-plugin=%plugin -passes='default<O2>' -S %s | %FileCheck %s --check-prefix=O2
; GONE-NOT: cairn_type_ref
; GONE-NOT: cairn_heap_

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%Node = type { i64, ptr addrspace(1) }
@cairn_heap_type_Node = internal global %Node zeroinitializer
@cairn_heap_array_Nodes = internal global ptr addrspace(1) null
@cairn_heap_text_Text = internal global i8 0

declare ptr @cairn_type_ref(ptr)
declare ptr @cairn_malloc_array(ptr, i64)
declare i32 @cairn_is_a(ptr, ptr)
declare i32 @__gxx_personality_v0(...)

; `obj is Node`, by identity of the header.
define i1 @is_node(ptr addrspace(1) %obj) {
  %header = getelementptr inbounds i8, ptr addrspace(1) %obj, i64 -8
  %type = load ptr, ptr addrspace(1) %header, align 8
  %node = call ptr @cairn_type_ref(ptr @cairn_heap_type_Node)
  %is = icmp eq ptr %type, %node
  ret i1 %is
}
; CHECK-LABEL: define i1 @is_node(
; CHECK: %type = load ptr, ptr addrspace(1) %header, align 8
; CHECK-NEXT: %is = icmp eq ptr %type, @cairn.type.Node
; CHECK-NEXT: ret i1 %is

; Passed to the runtime, for an array type and a text type; an unused result just goes.
define i32 @subtype(ptr %obj) {
  %unused = call ptr @cairn_type_ref(ptr @cairn_heap_text_Text)
  %nodes = call ptr @cairn_type_ref(ptr @cairn_heap_array_Nodes)
  %r = call i32 @cairn_is_a(ptr %obj, ptr %nodes)
  ret i32 %r
}
; CHECK-LABEL: define i32 @subtype(
; CHECK-NEXT: %r = call i32 @cairn_is_a(ptr %obj, ptr @cairn.type.Nodes)
; CHECK-NEXT: ret i32 %r

; Allocation and naming side by side; an invoke becomes a branch to its normal destination.
define ptr @text(i64 %n) personality ptr @__gxx_personality_v0 {
entry:
  %t = invoke ptr @cairn_type_ref(ptr @cairn_heap_text_Text)
          to label %ok unwind label %failed
ok:
  %a = call ptr @cairn_malloc_array(ptr @cairn_heap_text_Text, i64 %n)
  ret ptr %t
failed:
  %lp = landingpad { ptr, i32 } cleanup
  ret ptr null
}
; CHECK-LABEL: define ptr @text(
; CHECK: entry:
; CHECK-NEXT: br label %ok
; CHECK: ok:
; CHECK-NEXT: %a = call ptr @cairn_malloc_array(ptr @cairn.type.Text, i64 %n)
; CHECK-NEXT: ret ptr @cairn.type.Text

; O2-LABEL: define {{.*}}i1 @is_node(
; O2: icmp eq ptr %type, @cairn.type.Node
