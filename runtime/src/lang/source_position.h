// Source positions of code addresses, from the running executable's own DWARF line table: the
// position of a runtime error that a signal handler finds (a stack overflow, a persistent page
// that cannot be faulted in), where the compiled code could not pass one.
//
// Invariants:
//  1. Only error paths call this: the first call maps /proc/self/exe read-only (kept mapped for
//     the process's life, never written) and each lookup makes one pass over .debug_line. It
//     takes no lock and does not allocate (no malloc: a stack overflow may have hit inside it),
//     and changes no global state but that mapping, so it may run inside a signal handler that
//     then ends the process or jumps away. The unwinder it calls (libgcc's, over glibc's
//     _dl_find_object) takes no lock either unless code registered frames at run time (a JIT).
//  2. It fails soft: an executable without a line table (-g0), a malformed or compressed section,
//     an address outside the executable's code (the REPL's JIT code, a shared library) give "no
//     position", never a crash or a wrong file. Every read is bounds-checked against its section.
//  3. A position's file is spelled as the compiler's cairn_loc spells it (the path as given on
//     its command line): the compiler emits each DIFile with that path as its name and an empty
//     directory (frontend/lower/lower_program.cpp, diFile), and a name is joined to its
//     directory only when both are non-empty and the name is relative.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace cairn::lang {

// A row of the line table. The strings lie in the mapped executable (1): they stay valid.
struct SourcePosition {
  std::string_view directory;  // the row's file's directory: empty if none or the name is absolute
  std::string_view name;       // the row's file's name: "DIRECTORY/NAME" is the file (see 3)
  // 1-based; 0: code the compiler gave no line and no row before it in its sequence has one. Code
  // of line 0 (an instruction merged from several lines at -O2) takes the position of the last
  // row before it in its sequence that has a line.
  uint32_t line = 0;
  uint32_t column = 0;  // 1-based; 0: none (a function's prologue)
};

// The row of the executable's line table (DWARF 2 to 5) that covers the code address `address`
// (a run-time address: the load bias of a position-independent executable is accounted for).
// False if there is none (2).
bool FindSourcePosition(uintptr_t address, SourcePosition *out);

// Which frame of a signal's stack gives a runtime error's position.
enum class FaultFrame {
  // The interrupted instruction if it is Cairn code, else the first caller that is: a page
  // touched by a Cairn line, or by the runtime on behalf of one (text concatenation, a hash).
  kToucher,
  // The call that nested too deep: the innermost Cairn call (a return address) that the walk
  // meets again further out, a recursion's call, also when the stack ran out in a function the
  // recursion called on the way (a helper, an allocation). (Through several functions, f
  // calling g calling f, it is one of the recursion's calls.) With no call met twice in the
  // walk's frames: the call that made the innermost Cairn frame (the interrupted one, or the
  // first caller that is Cairn code), in its caller; if that caller is not Cairn code, the
  // frame's own line.
  kCaller,
};

// The position of a runtime error found in a signal handler, from the calling thread's stack
// walked from here (through the handler's frame into the interrupted code, as the unwinder does
// on x86-64 and aarch64 Linux) as `which` says. A frame is Cairn code if its address (the
// interrupted pc, or a return address minus 1) lies in a `.cairn` file of the line table. `pc`,
// if not 0, is the interrupted instruction (from the signal's context): tried first for
// kToucher; the frames up to it are skipped. False, with no position, if there is no Cairn frame
// among the innermost 64, or the chosen row has a line of 0.
bool FindCairnPosition(uintptr_t pc, FaultFrame which, SourcePosition *out);

// Writes "FILE:LINE:COL: ", the prefix of a runtime error's message (errors.h), into `out` (of
// `size` bytes, NUL-terminated, cut short if it does not fit) and returns its length.
size_t FormatPosition(const SourcePosition &position, char *out, size_t size);

}  // namespace cairn::lang
