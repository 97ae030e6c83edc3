; What the pass cannot describe is a clear error, never a crash; each case is one module.
; RUN: rm -rf %t && %split-file %s %t
; RUN: %not %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output %t/union_storage.ll 2>&1 | %FileCheck %s --check-prefix=UNION
; RUN: %not %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output %t/union_access.ll 2>&1 | %FileCheck %s --check-prefix=ACCESS
; RUN: %not %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output %t/not_struct.ll 2>&1 | %FileCheck %s --check-prefix=NOTSTRUCT
; RUN: %not %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output %t/unknown_use.ll 2>&1 | %FileCheck %s --check-prefix=UNKNOWN
; RUN: %not %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output %t/indirect_call.ll 2>&1 | %FileCheck %s --check-prefix=INDIRECT
; RUN: %not %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output %t/wrong_allocator.ll 2>&1 | %FileCheck %s --check-prefix=WRONG
; RUN: %not %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output %t/packed.ll 2>&1 | %FileCheck %s --check-prefix=PACKED
; RUN: %not %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output %t/overaligned.ll 2>&1 | %FileCheck %s --check-prefix=ALIGN
; RUN: %not %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output %t/flexible.ll 2>&1 | %FileCheck %s --check-prefix=FLEX
; RUN: %not %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output %t/unsupported.ll 2>&1 | %FileCheck %s --check-prefix=UNSUPPORTED
; RUN: %not %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output %t/opaque.ll 2>&1 | %FileCheck %s --check-prefix=OPAQUE
; RUN: %not %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output %t/bad_metadata.ll 2>&1 | %FileCheck %s --check-prefix=METADATA
; RUN: %not %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output %t/array_of_arrays.ll 2>&1 | %FileCheck %s --check-prefix=ARRAYS
; RUN: %not %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output %t/text_not_i8.ll 2>&1 | %FileCheck %s --check-prefix=TEXT
; RUN: %not %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output %t/no_name.ll 2>&1 | %FileCheck %s --check-prefix=NONAME
; RUN: %not %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output %t/methods_not_type.ll 2>&1 | %FileCheck %s --check-prefix=METHODS-MALFORMED
; RUN: %not %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output %t/methods_unmarked.ll 2>&1 | %FileCheck %s --check-prefix=METHODS-UNMARKED
; RUN: %not %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output %t/methods_not_function.ll 2>&1 | %FileCheck %s --check-prefix=METHODS-NOTFN
; RUN: %not %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output %t/methods_intrinsic.ll 2>&1 | %FileCheck %s --check-prefix=METHODS-INTRINSIC
; RUN: %not %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output %t/methods_twice.ll 2>&1 | %FileCheck %s --check-prefix=METHODS-TWICE
; RUN: %not %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output %t/type_ref_not_marker.ll 2>&1 | %FileCheck %s --check-prefix=TYPEREF-ARG
; RUN: %not %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output %t/type_ref_signature.ll 2>&1 | %FileCheck %s --check-prefix=TYPEREF-SIG
; RUN: %not %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output %t/type_ref_address.ll 2>&1 | %FileCheck %s --check-prefix=TYPEREF-ADDR
; RUN: %not %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output %t/root_thread_local.ll 2>&1 | %FileCheck %s --check-prefix=ROOT-TLS
; RUN: %not %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output %t/root_packed.ll 2>&1 | %FileCheck %s --check-prefix=ROOT-PACKED
; RUN: %not %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output %t/root_huge.ll 2>&1 | %FileCheck %s --check-prefix=ROOT-HUGE
; No case may crash (a crash prints a stack dump and "PLEASE submit a bug report").
; RUN: for f in %t/*.ll; do %not --crash %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output $f 2>/dev/null && exit 1; done; true

; UNION: error: cairn-descriptors: type 'U' is a union holding a reference (%union.U = type { ptr addrspace(1) }); the collector cannot know which member a union holds
; ACCESS: error: cairn-descriptors: in function 'get': reads a reference in union 'V' inside a heap object; the collector cannot know which member a union holds: keep references in struct fields of their own
; NOTSTRUCT: error: cairn-descriptors: marker @cairn_heap_type_Count of heap type 'Count' has type i64, not a struct; a plain heap type's marker must be a global of its struct type
; UNKNOWN: error: cairn-descriptors: in function 'leak': unknown use of the marker of heap type 'Node': @cairn_heap_type_Node is used by `store ptr @cairn_heap_type_Node, ptr %slot, align 8`; a marker may only be the first argument of a direct call to cairn_malloc_typed (CAIRN_NEW(T)) or to cairn_type_ref (CAIRN_TYPE(T), for the descriptor's address), see cairn/heap_c.h
; INDIRECT: error: cairn-descriptors: in function 'make': unknown use of the marker of heap type 'Node': @cairn_heap_type_Node is used by `%p = call ptr %alloc(ptr @cairn_heap_type_Node)`
; WRONG: error: cairn-descriptors: in function 'make': heap type 'Node' is allocated with cairn_malloc_array but its marker @cairn_heap_type_Node names a plain type; allocate it with cairn_malloc_typed (CAIRN_NEW(T) in cairn/heap_c.h)
; PACKED: error: cairn-descriptors: type 'Packed' has a reference at offset 1 that is not a multiple of 8 (a packed struct?)
; ALIGN: error: cairn-descriptors: type 'Wide' needs 16-byte alignment but heap objects are 8-byte aligned
; FLEX: error: cairn-descriptors: field 'items' of type 'Vec' is a flexible array member holding references
; UNSUPPORTED: error: cairn-descriptors: field 'f1' of type 'Odd' has IR type x86_fp80, which Cairn cannot describe (supported: i1, i8, i16, i32, i64, float, double, ptr, ptr addrspace(1), structs and fixed arrays of these)
; OPAQUE: error: cairn-descriptors: type 'Hidden' (%Hidden = type opaque) has no fixed layout in this module
; METADATA: error: cairn-descriptors: !cairn.fields entry for %Node names 1 fields but the type has 2; give one name per element
; ARRAYS: error: cairn-descriptors: marker @cairn_heap_array_Grid of array type 'Grid' has type [4 x i64]; an array marker must be a global of the element type
; TEXT: error: cairn-descriptors: marker @cairn_heap_text_Name of text type 'Name' has type i32; a text marker must be an i8 (a C char)
; NONAME: error: cairn-descriptors: marker @cairn_heap_type_ names no type
; METHODS-MALFORMED: error: cairn-descriptors: malformed !cairn.methods entry: its first operand must be a constant of the heap type's struct (e.g. %Node poison), followed by one function per method slot (ptr @f)
; METHODS-UNMARKED: error: cairn-descriptors: !cairn.methods lists methods for %Loose, which is not a plain heap type in this module: declare a marker global @cairn_heap_type_<Name> of that type, or drop the entry (array and text types have no methods)
; METHODS-NOTFN: error: cairn-descriptors: !cairn.methods entry for %Node: slot 1 is `i64 3`, not a function; give one function per method slot (ptr @f), inherited methods included
; METHODS-INTRINSIC: error: cairn-descriptors: !cairn.methods entry for %Node: slot 0 is the intrinsic @llvm.trap, whose address cannot be taken; use a function that calls it
; METHODS-TWICE: error: cairn-descriptors: two !cairn.methods entries list different methods for %Node; give one entry per type
; TYPEREF-ARG: error: cairn-descriptors: in function 'what': `%t = call ptr @cairn_type_ref(ptr %p)` does not name a heap type: cairn_type_ref takes a marker global (cairn_heap_type_<Name>, cairn_heap_array_<Name> or cairn_heap_text_<Name>) as its only argument, and is replaced by that type's descriptor (CAIRN_TYPE(T) in cairn/heap_c.h)
; TYPEREF-SIG: error: cairn-descriptors: in function 'wide': heap type 'Node' is named by `%t = call ptr @cairn_type_ref(ptr @cairn_heap_type_Node, i64 1)`; declare cairn_type_ref as `ptr @cairn_type_ref(ptr)` and call it with the marker as its only argument (CAIRN_TYPE(T) in cairn/heap_c.h)
; TYPEREF-ADDR: error: cairn-descriptors: the address of cairn_type_ref is used by `@f = global ptr @cairn_type_ref`; it is no real function (the pass replaces its calls): only call it directly, with a marker
; ROOT-TLS: error: cairn-descriptors: global @current is thread-local and holds references; Cairn does not support thread-local references (one mutator thread, and only the roots of ordinary globals are registered): make it an ordinary global
; ROOT-PACKED: error: cairn-descriptors: global @odd holds a reference at offset 4, not a multiple of 8 (a packed struct?); the collector updates roots as aligned 8-byte words: remove the packing or reorder the fields
; ROOT-HUGE: error: cairn-descriptors: global @everything holds more than 1048576 references, each of which would be a root; keep them in a heap array and the array's reference in the global

;--- union_storage.ll
%union.U = type { ptr addrspace(1) }
%Holder = type { i64, %union.U }
@cairn_heap_type_Holder = internal global %Holder zeroinitializer

;--- union_access.ll
; The union's storage is an i64, so only the access shows the reference.
%union.V = type { i64 }
%Holder = type { i64, %union.V }
@cairn_heap_type_Holder = internal global %Holder zeroinitializer
define ptr addrspace(1) @get(ptr addrspace(1) %h) {
  %u = getelementptr inbounds %Holder, ptr addrspace(1) %h, i32 0, i32 1
  %r = load ptr addrspace(1), ptr addrspace(1) %u
  ret ptr addrspace(1) %r
}

;--- not_struct.ll
@cairn_heap_type_Count = internal global i64 0

;--- unknown_use.ll
%Node = type { i64, ptr addrspace(1) }
@cairn_heap_type_Node = internal global %Node zeroinitializer
define void @leak(ptr %slot) {
  store ptr @cairn_heap_type_Node, ptr %slot
  ret void
}

;--- indirect_call.ll
%Node = type { i64, ptr addrspace(1) }
@cairn_heap_type_Node = internal global %Node zeroinitializer
define ptr @make(ptr %alloc) {
  %p = call ptr %alloc(ptr @cairn_heap_type_Node)
  ret ptr %p
}

;--- wrong_allocator.ll
%Node = type { i64, ptr addrspace(1) }
@cairn_heap_type_Node = internal global %Node zeroinitializer
declare ptr @cairn_malloc_array(ptr, i64)
define ptr @make() {
  %p = call ptr @cairn_malloc_array(ptr @cairn_heap_type_Node, i64 3)
  ret ptr %p
}

;--- packed.ll
%Packed = type <{ i8, ptr addrspace(1) }>
@cairn_heap_type_Packed = internal global %Packed zeroinitializer

;--- overaligned.ll
; Over-alignment shows in IR types only through the DataLayout (here: a 16-byte aligned i64).
target datalayout = "e-i64:128"
%Wide = type { i64, ptr addrspace(1) }
@cairn_heap_type_Wide = internal global %Wide zeroinitializer

;--- flexible.ll
%Vec = type { i64, [0 x ptr addrspace(1)] }
@cairn_heap_type_Vec = internal global %Vec zeroinitializer
!cairn.fields = !{!0}
!0 = !{%Vec poison, !"length", !"items"}

;--- unsupported.ll
%Odd = type { i64, x86_fp80 }
@cairn_heap_type_Odd = internal global %Odd zeroinitializer

;--- opaque.ll
%Hidden = type opaque
@cairn_heap_type_Hidden = external global %Hidden

;--- bad_metadata.ll
%Node = type { i64, ptr addrspace(1) }
@cairn_heap_type_Node = internal global %Node zeroinitializer
!cairn.fields = !{!0}
!0 = !{%Node poison, !"value"}

;--- array_of_arrays.ll
@cairn_heap_array_Grid = internal global [4 x i64] zeroinitializer

;--- text_not_i8.ll
@cairn_heap_text_Name = internal global i32 0

;--- no_name.ll
%Node = type { i64 }
@cairn_heap_type_ = internal global %Node zeroinitializer

;--- methods_not_type.ll
%Node = type { i64 }
@cairn_heap_type_Node = internal global %Node zeroinitializer
!cairn.methods = !{!0}
!0 = !{!"Node", ptr @show}
declare void @show(ptr addrspace(1))

;--- methods_unmarked.ll
; %Loose has no marker (opt stops at the first error; in_process_test sees the others).
%Loose = type { i64 }
!cairn.methods = !{!0}
!0 = !{%Loose poison, ptr @show}
declare void @show(ptr addrspace(1))

;--- methods_not_function.ll
%Node = type { i64 }
@cairn_heap_type_Node = internal global %Node zeroinitializer
!cairn.methods = !{!0}
!0 = !{%Node poison, ptr @show, i64 3}
declare void @show(ptr addrspace(1))

;--- methods_intrinsic.ll
%Node = type { i64 }
@cairn_heap_type_Node = internal global %Node zeroinitializer
!cairn.methods = !{!0}
!0 = !{%Node poison, ptr @llvm.trap}
declare void @llvm.trap()

;--- methods_twice.ll
%Node = type { i64 }
@cairn_heap_type_Node = internal global %Node zeroinitializer
!cairn.methods = !{!0, !1}
!0 = !{%Node poison, ptr @show}
!1 = !{%Node poison, ptr @hide}
declare void @show(ptr addrspace(1))
declare void @hide(ptr addrspace(1))

;--- type_ref_not_marker.ll
declare ptr @cairn_type_ref(ptr)
define ptr @what(ptr %p) {
  %t = call ptr @cairn_type_ref(ptr %p)
  ret ptr %t
}

;--- type_ref_signature.ll
%Node = type { i64 }
@cairn_heap_type_Node = internal global %Node zeroinitializer
declare ptr @cairn_type_ref(ptr, i64)
define ptr @wide() {
  %t = call ptr @cairn_type_ref(ptr @cairn_heap_type_Node, i64 1)
  ret ptr %t
}

;--- type_ref_address.ll
declare ptr @cairn_type_ref(ptr)
@f = global ptr @cairn_type_ref

;--- root_thread_local.ll
@current = thread_local global ptr addrspace(1) null

;--- root_packed.ll
@odd = global <{ i32, ptr addrspace(1) }> zeroinitializer

;--- root_huge.ll
@everything = global [2000000 x ptr addrspace(1)] zeroinitializer
