// str(e): the textual form of every value, appended to a std::string (no heap allocation, so
// the collector cannot run while a value is being read). cairn_str_* and cairn_print_* use it.
#pragma once

#include <cstdint>
#include <string>

namespace cairn::lang {

void AppendInt(std::string *out, int64_t v);
// The shortest text that reads back as v (std::to_chars), then ".0" if that text has no '.',
// 'e', "inf" or "nan", so that it reads as a float: 3.0 -> "3.0", 1e21 -> "1e+21".
void AppendFloat(std::string *out, double v);
void AppendBool(std::string *out, bool v);
// str of a reference: "nil", a text's bytes, "[...]" for arrays, "Type#N" for other objects.
void AppendRef(std::string *out, const void *v);

// Limits of an array's form: the elements of all arrays shown in one value (arrays of arrays
// sharing their elements could otherwise be exponentially long), after which the array being
// shown, and each array around it, ends with ", ...]" (the elements left, arrays among them,
// unshown); and the arrays nested in one another,
// after which an inner one is "[...]" (so that a deep chain does not exhaust the stack). An
// array inside itself (an `[any]` holding itself, at any depth) is "[...]" there. An array of up
// to kMaxShownElements elements is shown whole: a program printing its 168 primes prints them
// all (each array was cut after 100 elements).
inline constexpr uint64_t kMaxShownElements = 1000000;
// And the bytes: one value's form stops at about this size ("...", "[...]"), a flat array
// holding one long text a million times included.
inline constexpr size_t kMaxShownBytes = size_t{64} << 20;
inline constexpr int kMaxArrayDepth = 1000;

}  // namespace cairn::lang
