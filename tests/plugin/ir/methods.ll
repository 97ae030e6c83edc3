; Method tables from !cairn.methods: each listed type's descriptor points at a private [n x ptr]
; of its functions in slot order (an inherited slot holds the base's function unless
; overridden; a method defined in another module is a declaration); a type without an entry
; keeps methods NULL, nmethods 0. The table is not part of the fingerprint, the metadata is
; consumed, and after optimization the methods stay alive through the descriptor alone.
; RUN: rm -rf %t && %split-file %s %t
; RUN: %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -S %t/shapes.ll | %FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes='default<O2>' -S %t/shapes.ll | %FileCheck %s --check-prefix=O2
; The same types without methods have the same fingerprints.
; RUN: %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -S %t/shapes.ll > %t/with.ll
; RUN: %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -S %t/no_methods.ll > %t/without.ll
; RUN: cat %t/with.ll %t/without.ll | %FileCheck %s --check-prefix=FP
; Linking two modules that list the same methods repeats the entry: that is no error.
; RUN: %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -S %t/listed_twice.ll | %FileCheck %s --check-prefix=TWICE

;--- shapes.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%Shape = type { i64, ptr addrspace(1) }
%Circle = type { %Shape, double }
%Plain = type { i64 }
; struct cairn_type, for the dispatch below; `methods` is element 12 (byte offset 72).
%cairn.type = type { i32, i32, i64, ptr, i64, i32, i32, i32, i32, ptr, ptr, ptr, ptr, i32, i32 }

@cairn_heap_type_Shape = internal global %Shape zeroinitializer
@cairn_heap_type_Circle = internal global %Circle zeroinitializer
@cairn_heap_type_Plain = internal global %Plain zeroinitializer

!cairn.fields = !{!0, !1, !2}
!0 = !{%Shape poison, !"id", !"next"}
!1 = !{%Circle poison, !"shape", !"radius"}
!2 = !{%Plain poison, !"value"}
!cairn.methods = !{!3, !4}
; Slot 0 `name` is inherited, slot 1 `area` overridden, slot 2 `scale` new in Circle.
!3 = !{%Shape poison, ptr @Shape.name, ptr @Shape.area}
!4 = !{%Circle poison, ptr @Shape.name, ptr @Circle.area, ptr @Circle.scale}

declare ptr @cairn_malloc_typed(ptr)
declare ptr @Shape.name(ptr addrspace(1))
define internal double @Shape.area(ptr addrspace(1) %self) {
  ret double 0.0
}
define internal double @Circle.area(ptr addrspace(1) %self) {
  %r.addr = getelementptr inbounds %Circle, ptr addrspace(1) %self, i32 0, i32 1
  %r = load double, ptr addrspace(1) %r.addr
  %a = fmul double %r, %r
  ret double %a
}
define internal void @Circle.scale(ptr addrspace(1) %self, double %by) {
  %r.addr = getelementptr inbounds %Circle, ptr addrspace(1) %self, i32 0, i32 1
  %r = load double, ptr addrspace(1) %r.addr
  %s = fmul double %r, %by
  store double %s, ptr addrspace(1) %r.addr
  ret void
}

; Virtual dispatch as generated code does it: header -> descriptor -> methods -> slot 1.
define double @area(ptr addrspace(1) %obj) {
  %header = getelementptr inbounds i8, ptr addrspace(1) %obj, i64 -8
  %type = load ptr, ptr addrspace(1) %header, align 8
  %methods.addr = getelementptr inbounds %cairn.type, ptr %type, i32 0, i32 12
  %methods = load ptr, ptr %methods.addr, align 8
  %slot = getelementptr inbounds ptr, ptr %methods, i64 1
  %fn = load ptr, ptr %slot, align 8
  %a = call double %fn(ptr addrspace(1) %obj)
  ret double %a
}
define ptr @make() {
  %c = call ptr @cairn_malloc_typed(ptr @cairn_heap_type_Circle)
  %s = call ptr @cairn_malloc_typed(ptr @cairn_heap_type_Shape)
  %p = call ptr @cairn_malloc_typed(ptr @cairn_heap_type_Plain)
  ret ptr %c
}

; Operands: ..., super, methods, nmethods, reserved.
; CHECK-DAG: @cairn.type.Shape = internal constant %cairn.type { i32 2, i32 0, i64 {{-?[0-9]+}}, ptr {{@cairn.str[.0-9]*}}, i64 16, i32 8, i32 0, i32 1, i32 2, ptr @cairn.type.Shape.refs, ptr @cairn.type.Shape.fields, ptr null, ptr @cairn.type.Shape.methods, i32 2, i32 0 }
; CHECK-DAG: @cairn.type.Shape.methods = private constant [2 x ptr] [ptr @Shape.name, ptr @Shape.area], align 8
; CHECK-DAG: @cairn.type.Circle = internal constant %cairn.type { i32 2, i32 0, i64 {{-?[0-9]+}}, ptr {{@cairn.str[.0-9]*}}, i64 24, i32 8, i32 0, i32 1, i32 2, ptr @cairn.type.Circle.refs, ptr @cairn.type.Circle.fields, ptr @cairn.type.Shape, ptr @cairn.type.Circle.methods, i32 3, i32 0 }
; CHECK-DAG: @cairn.type.Circle.methods = private constant [3 x ptr] [ptr @Shape.name, ptr @Circle.area, ptr @Circle.scale], align 8
; CHECK-DAG: @cairn.type.Plain = internal constant %cairn.type { i32 2, i32 0, i64 {{-?[0-9]+}}, ptr {{@cairn.str[.0-9]*}}, i64 8, i32 8, i32 0, i32 0, i32 1, ptr null, ptr @cairn.type.Plain.fields, ptr null, ptr null, i32 0, i32 0 }
; CHECK-NOT: !cairn.methods

; Only the descriptors reach the internal methods; optimization keeps them and the tables.
; O2-DAG: @cairn.type.Circle.methods = private constant [3 x ptr] [ptr @Shape.name, ptr @Circle.area, ptr @Circle.scale]
; O2-DAG: @cairn.type.Shape.methods = private constant [2 x ptr] [ptr @Shape.name, ptr @Shape.area]
; O2-DAG: define internal {{.*}}double @Shape.area(
; O2-DAG: define internal {{.*}}double @Circle.area(
; O2-DAG: define internal void @Circle.scale(

; FP: @cairn.type.Shape = internal constant %cairn.type { i32 2, i32 0, i64 [[SHAPE:-?[0-9]+]],
; FP: @cairn.type.Circle = internal constant %cairn.type { i32 2, i32 0, i64 [[CIRCLE:-?[0-9]+]],
; FP: @cairn.type.Shape = internal constant %cairn.type { i32 2, i32 0, i64 [[SHAPE]], {{.*}}, ptr null, i32 0, i32 0 }
; FP: @cairn.type.Circle = internal constant %cairn.type { i32 2, i32 0, i64 [[CIRCLE]], {{.*}}, ptr null, i32 0, i32 0 }

;--- no_methods.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
%Shape = type { i64, ptr addrspace(1) }
%Circle = type { %Shape, double }
@cairn_heap_type_Shape = internal global %Shape zeroinitializer
@cairn_heap_type_Circle = internal global %Circle zeroinitializer
!cairn.fields = !{!0, !1}
!0 = !{%Shape poison, !"id", !"next"}
!1 = !{%Circle poison, !"shape", !"radius"}

;--- listed_twice.ll
%Node = type { i64 }
@cairn_heap_type_Node = internal global %Node zeroinitializer
!cairn.methods = !{!0, !0}
!0 = !{%Node poison, ptr @Node.show}
declare void @Node.show(ptr addrspace(1))
; TWICE: @cairn.type.Node.methods = private constant [1 x ptr] [ptr @Node.show]
