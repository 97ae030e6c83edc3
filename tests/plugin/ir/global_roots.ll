; Module globals holding references become exact roots: every reference slot of every global
; defined here (through structs, arrays and vectors) is listed in @cairn.global_roots, which a
; constructor registers (priority 101, after the types) and a destructor unregisters. Not
; roots: constants, declarations, available_externally copies, markers, llvm.* globals and
; globals without references. A packed global gets alignment 8. Running the pass twice
; registers nothing twice; optimization keeps the table (and so the globals, as globals).
; RUN: %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -S %s | %FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -S %s | %FileCheck %s --check-prefix=NOT
; RUN: %opt -load-pass-plugin=%plugin -passes=cairn-descriptors,cairn-descriptors -S %s | %FileCheck %s --check-prefix=ONCE
; RUN: %opt -load-pass-plugin=%plugin -passes='default<O2>' -S %s | %FileCheck %s --check-prefix=O2

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%Node = type { i64, ptr addrspace(1) }
%Pair = type { ptr addrspace(1), i32, ptr addrspace(1) }
%Holder = type { i8, [2 x %Pair], <2 x ptr addrspace(1)> }

@cairn_heap_type_Node = internal global %Node zeroinitializer

@head = global ptr addrspace(1) null
@table = internal global [3 x ptr addrspace(1)] zeroinitializer
@holder = internal global %Holder zeroinitializer
@cache = internal global ptr addrspace(1) null
@packed = global <{ ptr addrspace(1), i8 }> zeroinitializer, align 1
@shared = linkonce_odr global ptr addrspace(1) null
@count = global i64 0
@raw = global ptr null
@nil = constant ptr addrspace(1) null
@elsewhere = external global ptr addrspace(1)
@inlined = available_externally global ptr addrspace(1) null
@llvm.used = appending global [1 x ptr] [ptr @head], section "llvm.metadata"

declare ptr @cairn_malloc_typed(ptr)
declare void @cairn_collect()

; The global is written, the runtime may move its object, the global is read again: the
; registration passes @cache's address to the runtime, so optimization must assume that any
; call into the runtime may change @cache.
define i64 @value_after_collect(i64 %v) {
  %p = call ptr @cairn_malloc_typed(ptr @cairn_heap_type_Node)
  %n = addrspacecast ptr %p to ptr addrspace(1)
  %f = getelementptr inbounds %Node, ptr addrspace(1) %n, i32 0, i32 0
  store i64 %v, ptr addrspace(1) %f
  store ptr addrspace(1) %n, ptr @cache
  call void @cairn_collect()
  %h = load ptr addrspace(1), ptr @cache
  %g = getelementptr inbounds %Node, ptr addrspace(1) %h, i32 0, i32 0
  %r = load i64, ptr addrspace(1) %g
  ret i64 %r
}

; CHECK-DAG: @head = global ptr addrspace(1) null, align 8, !cairn.root [[TAG:![0-9]+]]
; CHECK-DAG: @table = internal global [3 x ptr addrspace(1)] zeroinitializer, align {{8|16}}, !cairn.root [[TAG]]
; CHECK-DAG: @holder = internal global %Holder zeroinitializer, align {{8|16}}, !cairn.root [[TAG]]
; CHECK-DAG: @packed = global <{ ptr addrspace(1), i8 }> zeroinitializer, align 8, !cairn.root [[TAG]]
; CHECK-DAG: @shared = linkonce_odr global ptr addrspace(1) null, align 8, !cairn.root [[TAG]]
; Holder: i8 at 0, pairs at 8 (refs at 8, 24) and 32 (refs at 32, 48), the vector at 64 (64, 72).
; CHECK-DAG: @cairn.global_roots = private constant [13 x ptr] [ptr @head, ptr @table, ptr getelementptr inbounds (i8, ptr @table, i64 8), ptr getelementptr inbounds (i8, ptr @table, i64 16), ptr getelementptr inbounds (i8, ptr @holder, i64 8), ptr getelementptr inbounds (i8, ptr @holder, i64 24), ptr getelementptr inbounds (i8, ptr @holder, i64 32), ptr getelementptr inbounds (i8, ptr @holder, i64 48), ptr getelementptr inbounds (i8, ptr @holder, i64 64), ptr getelementptr inbounds (i8, ptr @holder, i64 72), ptr @cache, ptr @packed, ptr @shared], align 8
; CHECK-DAG: @llvm.global_ctors = appending global [2 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 101, ptr @cairn.register_types, ptr null }, { i32, ptr, ptr } { i32 101, ptr @cairn.register_roots, ptr null }]
; CHECK-DAG: @llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 101, ptr @cairn.unregister_roots, ptr null }]

; CHECK-LABEL: define internal void @cairn.register_roots()
; CHECK-NEXT: entry:
; CHECK-NEXT: call void @cairn_add_exact_roots(ptr @cairn.global_roots, i64 13)
; CHECK-NEXT: ret void
; CHECK-LABEL: define internal void @cairn.unregister_roots()
; CHECK-NEXT: entry:
; CHECK-NEXT: call void @cairn_remove_exact_roots(ptr @cairn.global_roots, i64 13)
; CHECK-NEXT: ret void
; CHECK: [[TAG]] = !{}

; NOT-NOT: @count = {{.*}}!cairn.root
; NOT-NOT: @raw = {{.*}}!cairn.root
; NOT-NOT: @nil = {{.*}}!cairn.root
; NOT-NOT: @elsewhere = {{.*}}!cairn.root
; NOT-NOT: @inlined = {{.*}}!cairn.root
; NOT-NOT: @llvm.used = {{.*}}!cairn.root

; ONCE: @cairn.global_roots = private constant [13 x ptr]
; ONCE-NOT: @cairn.global_roots.{{[0-9]}}
; ONCE-NOT: cairn.register_roots.{{[0-9]}}
; ONCE: @llvm.global_dtors = appending global [1 x { i32, ptr, ptr }]

; The load of @cache after the call is kept: the call may have moved the object.
; O2: @cairn.global_roots = private constant [13 x ptr]
; O2-LABEL: define {{.*}}i64 @value_after_collect(
; O2: store ptr addrspace(1) {{%.*}}, ptr @cache
; O2-NEXT: tail call void @cairn_collect()
; O2-NEXT: load ptr addrspace(1), ptr @cache
