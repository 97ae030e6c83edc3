; cairn_type_ref names a descriptor as a value: each direct call (or invoke) with a marker as
; its only argument is replaced by a load of the type's canonical slot in @"cairn.canon" (which
; the registration constructor fills with the process's canonical descriptor) and erased, for
; plain, array and text types; an unused call just goes; the declaration goes once nothing
; calls it. Generated code compares an object's header with it (`is`/`as`) and passes it to the
; runtime; allocation keeps naming the module's own descriptor (the runtime maps it).
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
; CHECK: @cairn.canon = internal global [3 x ptr] [ptr @cairn.type.Node, ptr @cairn.type.Nodes, ptr @cairn.type.Text], align 8
; CHECK: @cairn.module_types = private constant [3 x ptr] [ptr @cairn.type.Node, ptr @cairn.type.Nodes, ptr @cairn.type.Text], align 8

; CHECK-LABEL: define i1 @is_node(
; CHECK: %type = load ptr, ptr addrspace(1) %header, align 8
; CHECK-NEXT: %cairn.canonical = load ptr, ptr @cairn.canon, align 8
; CHECK-NEXT: %is = icmp eq ptr %type, %cairn.canonical
; CHECK-NEXT: ret i1 %is

; Passed to the runtime, for an array type and a text type; an unused result just goes.
define i32 @subtype(ptr %obj) {
  %unused = call ptr @cairn_type_ref(ptr @cairn_heap_text_Text)
  %nodes = call ptr @cairn_type_ref(ptr @cairn_heap_array_Nodes)
  %r = call i32 @cairn_is_a(ptr %obj, ptr %nodes)
  ret i32 %r
}
; CHECK-LABEL: define i32 @subtype(
; CHECK-NEXT: %cairn.canonical = load ptr, ptr getelementptr inbounds ([3 x ptr], ptr @cairn.canon, i64 0, i64 1), align 8
; CHECK-NEXT: %r = call i32 @cairn_is_a(ptr %obj, ptr %cairn.canonical)
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
; CHECK-NEXT: %cairn.canonical = load ptr, ptr getelementptr inbounds ([3 x ptr], ptr @cairn.canon, i64 0, i64 2), align 8
; CHECK-NEXT: br label %ok
; CHECK: ok:
; CHECK-NEXT: %a = call ptr @cairn_malloc_array(ptr @cairn.type.Text, i64 %n)
; CHECK-NEXT: ret ptr %cairn.canonical

; The constructor registers the types and fills the slots.
; CHECK-LABEL: define internal void @cairn.register_types()
; CHECK-NEXT: entry:
; CHECK-NEXT: call void @cairn_register_module_or_exit(ptr @cairn.module_types, ptr @cairn.canon, i64 3, ptr {{@cairn.str[.0-9]*}})
; CHECK-NEXT: ret void

; At -O2 the slot is still loaded: its address escapes into the constructor's call.
; O2-LABEL: define {{.*}}i1 @is_node(
; O2: [[CANON:%.*]] = load ptr, ptr @cairn.canon
; O2: icmp eq ptr %type, [[CANON]]
