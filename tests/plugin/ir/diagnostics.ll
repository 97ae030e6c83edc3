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
; No case may crash (a crash prints a stack dump and "PLEASE submit a bug report").
; RUN: for f in %t/*.ll; do %not --crash %opt -load-pass-plugin=%plugin -passes=cairn-descriptors -disable-output $f 2>/dev/null && exit 1; done; true

; UNION: error: cairn-descriptors: type 'U' is a union holding a reference (%union.U = type { ptr addrspace(1) }); the collector cannot know which member a union holds
; ACCESS: error: cairn-descriptors: in function 'get': reads a reference in union 'V' inside a heap object; the collector cannot know which member a union holds: keep references in struct fields of their own
; NOTSTRUCT: error: cairn-descriptors: marker @cairn_heap_type_Count of heap type 'Count' has type i64, not a struct; a plain heap type's marker must be a global of its struct type
; UNKNOWN: error: cairn-descriptors: in function 'leak': unknown allocation form for heap type 'Node': its marker @cairn_heap_type_Node is used by `store ptr @cairn_heap_type_Node, ptr %slot, align 8`; a marker may only be the first argument of a direct call to cairn_malloc_typed (CAIRN_NEW(T) in cairn/heap_c.h)
; INDIRECT: error: cairn-descriptors: in function 'make': unknown allocation form for heap type 'Node': its marker @cairn_heap_type_Node is used by `%p = call ptr %alloc(ptr @cairn_heap_type_Node)`
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
