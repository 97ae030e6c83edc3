; The plugin adds the pass at the start of every default pipeline (so clang -fpass-plugin gets
; it at -O0 as at -O3), before struct GEPs become byte offsets; running the pass again on its
; own output changes nothing (no markers remain, and registered globals are tagged).
; RUN: %opt -load-pass-plugin=%plugin -passes='default<O0>' -S %s | %FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes='default<O1>' -S %s | %FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes='default<O2>' -S %s | %FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes='default<O3>' -S %s | %FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes='thinlto-pre-link<O2>' -S %s | %FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes='lto-pre-link<O2>' -S %s | %FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes=cairn-descriptors,cairn-descriptors -S %s | %FileCheck %s --check-prefixes=CHECK,ONCE
; Without the plugin the marker is left alone.
; RUN: %opt -passes='default<O0>' -S %s | %FileCheck %s --check-prefix=NOPLUGIN

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%Node = type { i64, ptr addrspace(1) }
@cairn_heap_type_Node = internal global %Node zeroinitializer
@llvm.compiler.used = appending global [1 x ptr] [ptr @cairn_heap_type_Node], section "llvm.metadata"
@last = global ptr addrspace(1) null

declare ptr @cairn_malloc_typed(ptr)

define ptr addrspace(1) @push(ptr addrspace(1) %head, i64 %value) {
  %p = call ptr @cairn_malloc_typed(ptr @cairn_heap_type_Node)
  %n = addrspacecast ptr %p to ptr addrspace(1)
  %v = getelementptr inbounds %Node, ptr addrspace(1) %n, i32 0, i32 0
  store i64 %value, ptr addrspace(1) %v
  %next = getelementptr inbounds %Node, ptr addrspace(1) %n, i32 0, i32 1
  store ptr addrspace(1) %head, ptr addrspace(1) %next
  store ptr addrspace(1) %n, ptr @last
  ret ptr addrspace(1) %n
}

; CHECK: @cairn.type.Node = internal constant %cairn.type { i32 2, i32 0, i64 {{-?[0-9]+}}, ptr {{@cairn.str[.0-9]*}}, i64 16, i32 8, i32 0, i32 1, i32 2, ptr @cairn.type.Node.refs
; ONCE-NOT: @cairn.type.Node.{{[0-9]}} =
; ONCE-NOT: cairn.register_types.{{[0-9]}}
; CHECK: @cairn.global_roots = private constant [1 x ptr] [ptr @last]
; ONCE-NOT: cairn.register_roots.{{[0-9]}}
; CHECK: @llvm.global_ctors = appending global [2 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 101, ptr @cairn.register_types, ptr null }, { i32, ptr, ptr } { i32 101, ptr @cairn.register_roots, ptr null }]
; CHECK: @llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 101, ptr @cairn.unregister_roots, ptr null }]
; CHECK: call {{.*}}ptr @cairn_malloc_typed(ptr {{.*}}@cairn.type.Node)
; CHECK: define internal void @cairn.register_types()
; CHECK: define internal void @cairn.register_roots()
; CHECK: define internal void @cairn.unregister_roots()

; NOPLUGIN: @cairn_heap_type_Node = internal global %Node zeroinitializer
; NOPLUGIN-NOT: cairn.type
