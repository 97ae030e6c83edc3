// Text objects as the language runtime sees them: arrays of cairn_text_type, whose payload is
// the length (int64) followed by the bytes at CAIRN_ARRAY_DATA_OFFSET (cairn/type.h).
//
// Any allocation may collect, and a collection moves every object that only the heap reaches.
// A reference held in a local (stack or register) pins its object, so a function that reads a
// text after allocating keeps the text's reference in a local until the read is done
// (KeepAlive marks the last use for the optimizer); pointers into the bytes are never kept
// across an allocation without their object's reference.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cairn/gc.h"
#include "cairn/lang.h"

namespace cairn::lang {

// Makes the optimizer treat p as used here, so the reference (and with it the pinned object)
// stays in a register or on the stack, where the collector sees it, until this point.
inline void KeepAlive(const void *p) { asm volatile("" : : "r"(p) : "memory"); }

inline int64_t TextLength(const void *text) { return *static_cast<const int64_t *>(text); }
inline const char *TextBytes(const void *text) {
  return static_cast<const char *>(text) + CAIRN_ARRAY_DATA_OFFSET;
}
inline char *MutableTextBytes(void *text) {
  return static_cast<char *>(text) + CAIRN_ARRAY_DATA_OFFSET;
}
// The bytes of a text: valid only while nothing allocates, or while `text` itself stays live.
inline std::string_view TextView(const void *text) {
  return std::string_view(TextBytes(text), static_cast<size_t>(TextLength(text)));
}

// 1 if obj is a text (not nil, and its descriptor has CAIRN_TYPE_TEXT).
inline bool IsText(const void *obj) {
  return obj != nullptr && (cairn_type_of(obj)->flags & CAIRN_TYPE_TEXT) != 0;
}

// A new text holding a copy of s. s must not point into the heap (use cairn_text_new for that).
void *NewText(std::string_view s);

// A text (or a builder's buffer) of `bytes` bytes (more than any size if `overflow`): a runtime
// error at loc, its message after `what` and ": " if given, when the heap cannot hold one object
// that large, or cannot make room for it beside what is live (which would otherwise be a fatal
// out-of-memory error, or memory filled a piece at a time before it). text_ops.cpp.
void CheckTextBytes(const cairn_loc *loc, uint64_t bytes, bool overflow,
                    const std::string &what = "");

// The most bytes a text read from outside (a file, standard input, a program's output) can hold:
// what the heap takes in one object (cairn_largest_object_bytes, less a text's header: as
// CheckTextBytes; half the reservation, or three quarters of the machine's memory and swap when
// that is less). A read stops one
// byte past it, so a stream that never ends (/dev/zero, a line without its end) is refused after
// that many bytes, not read (outside the heap) until the machine runs out. text_ops.cpp.
uint64_t LimitOfRead();

// Appends n bytes to a read's buffer, growing it by doubling but never to more than the limit
// (and the bytes appended) needs: a doubling past it would hold up to twice the limit outside
// the heap. text_ops.cpp.
void AppendWithin(std::string *s, const char *bytes, size_t n, uint64_t limit);

// The runtime error for a read of `what` ("cannot read file 'x'") past `limit`: of `bytes` when
// `exact` (a file's size: CheckTextBytes's message), else of more than the limit (a stream cut
// off there; `bytes` unused). `what` must not be a std::string of the caller's frame, nor hold
// what was read: a runtime error hook's jump would leak them. text_ops.cpp.
[[noreturn]] void TooLargeToRead(const cairn_loc *loc, const std::string &what, uint64_t bytes,
                                 bool exact, uint64_t limit);

// Appends "N MiB, and the heap has no room for it after a collection (...)" to an
// out-of-memory message, for an object of `bytes` that fits in the heap but not beside what is
// live (cairn_has_room_for said 0). errors.cpp.
void AppendFullHeap(std::string *m, uint64_t bytes);

// Appends "N MiB: half its reservation); set CAIRN_HEAP_RESERVE_MB higher" to a message saying
// an object is more than the heap has for one (room: cairn_largest_object_bytes), or "N MiB:
// three quarters of this machine's memory and swap)" when that sets it
// (cairn_stats.machine_bytes). errors.cpp.
void AppendLargestObject(std::string *m, uint64_t room);

}  // namespace cairn::lang
