// Printing values at the prompt, from the runtime's type descriptors (the same ones the
// collector uses), so that an object prints the same whether its class was typed at the
// prompt, loaded from a file or made from a database's type table:
//
//   42   3.5   true   "text \"quoted\""   nil   [1, 2, 3]
//   AtomicPart#12 {id: 7, x: 1, y: 2, to: List[Connection]#13 (3), partOf: CompositePart#9}
//
// `#N` is the object's identity number (what str() shows). An object's fields are shown down to
// `depth` levels of objects (1 by default: the object's own fields; the objects they refer to
// by name and number, with their length in parentheses when they are arrays or have a len()
// method). An array is not a level: its elements are shown at its own depth, and an array of
// values (numbers, booleans, texts) is shown whole at any depth. An object already being printed
// on the way down is shown as `Type#N (cycle)`. Arrays show at most `max_elements` elements,
// texts at most `max_text` bytes, and one value at most `max_objects` objects in all; what is
// left out is shown as `...`.
#ifndef CAIRN_REPL_PRINTER_H
#define CAIRN_REPL_PRINTER_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cairn/type.h"
#include "check/types.h"

namespace cairn::repl {

struct PrintOptions {
  int depth = 1;             // levels of objects whose fields are shown
  size_t max_elements = 20;  // per array
  size_t max_text = 200;     // bytes per text
  size_t max_objects = 500;  // objects shown with their fields, in one value
};

class Printer {
 public:
  // `length`: the value of obj.len() if the object's class has one the session can call
  // (false if not); may run compiled code. nullptr: only arrays show a length.
  using LengthFn = std::function<bool(const void *obj, int64_t *len)>;
  Printer(PrintOptions options, LengthFn length) : options_(options), length_(std::move(length)) {}

  // A value of static type `type` stored at `slot` (as the generated code stores it: int64,
  // double, one byte for bool, a reference, a Database handle, a transaction number, a code
  // address).
  std::string value(const front::Type *type, const void *slot);
  // A reference (nil, text, array or object).
  std::string ref(const void *obj) { return ref(obj, options_.depth); }

  // Text as a literal: quoted, with escapes.
  static std::string quote(const char *bytes, size_t n, size_t max);

 private:
  std::string ref(const void *obj, int depth);
  std::string object(const void *obj, const cairn_type *t, int depth);
  std::string array(const void *arr, const cairn_type *t, int depth);
  void fields(const char *base, const cairn_type *t, int depth, std::string *out, bool *first);
  std::string scalar(uint32_t kind, const char *p, int depth);
  std::string name(const void *obj, const cairn_type *t);  // Type#N
  std::string lengthNote(const void *obj, const cairn_type *t);
  bool holdsValues(const void *arr, const cairn_type *t);

  PrintOptions options_;
  LengthFn length_;
  std::vector<const void *> path_;  // objects being printed, outermost first
  size_t objects_ = 0;
  bool capped_ = false;  // max_objects was reached in this value (said once)
};

}  // namespace cairn::repl

#endif  // CAIRN_REPL_PRINTER_H
