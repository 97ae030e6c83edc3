; The type Tree as a front end would emit it, with its field names as !cairn.fields metadata
; (the same names as the C source's, so the same fingerprint as clang -g gives).
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%Tree = type { i64, ptr addrspace(1), ptr addrspace(1), double }

@cairn_heap_type_Tree = internal global %Tree zeroinitializer

!cairn.fields = !{!0}
!0 = !{%Tree poison, !"key", !"left", !"right", !"weight"}

declare ptr @cairn_malloc_typed(ptr)

define ptr addrspace(1) @leaf(i64 %key) {
  %p = call ptr @cairn_malloc_typed(ptr @cairn_heap_type_Tree)
  %t = addrspacecast ptr %p to ptr addrspace(1)
  store i64 %key, ptr addrspace(1) %t
  ret ptr addrspace(1) %t
}
