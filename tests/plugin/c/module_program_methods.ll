; The method tables of module_program.c's heap types, as the Cairn front end would emit them
; (C has no syntax for them): linked with the C file's IR before the plugin runs. The struct
; types are the C file's (the IR linker maps these onto them); slot i of Shape is slot i of
; Circle and Square, inherited or overridden.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.Shape = type { i64, ptr addrspace(1) }
%struct.Circle = type { %struct.Shape, double }
%struct.Square = type { %struct.Shape, double, ptr addrspace(1) }

!cairn.methods = !{!0, !1, !2}
!0 = !{%struct.Shape poison, ptr @shape_area, ptr @shape_kind}
!1 = !{%struct.Circle poison, ptr @circle_area, ptr @shape_kind, ptr @circle_scale}
!2 = !{%struct.Square poison, ptr @square_area, ptr @square_kind, ptr @square_scale}

declare double @shape_area(ptr addrspace(1))
declare i64 @shape_kind(ptr addrspace(1))
declare double @circle_area(ptr addrspace(1))
declare void @circle_scale(ptr addrspace(1), double)
declare double @square_area(ptr addrspace(1))
declare i64 @square_kind(ptr addrspace(1))
declare void @square_scale(ptr addrspace(1), double)
