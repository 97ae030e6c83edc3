// Type tests: `is`, and type names for messages (cairn/lang.h, Type tests).
#include "cairn/lang.h"

extern "C" {

int cairn_is_a(const void *obj, const cairn_type *type) {
  if (obj == nullptr || type == nullptr) return 0;
  // A descriptor from another module describes the same type when its fingerprint is the same
  // (T5 of cairn/type.h: then so is its layout).
  for (const cairn_type *t = cairn_type_of(obj); t != nullptr; t = t->super)
    if (t == type || t->fingerprint == type->fingerprint) return 1;
  return 0;
}

const char *cairn_type_name_of(const void *obj) {
  if (obj == nullptr) return "nil";
  const char *name = cairn_type_of(obj)->name;
  return name != nullptr ? name : "?";
}

}  // extern "C"
