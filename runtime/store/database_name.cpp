// What may name a database.
#include <cctype>

#include "cairn/store.h"

namespace cairn::store {

Status ValidateDatabaseName(std::string_view name) {
  auto letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
  auto other = [&](char c) {
    return letter(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '.';
  };
  bool ok = !name.empty() && name.size() <= 64 && letter(name[0]);
  for (char c : name) ok = ok && other(c);
  if (ok) return Status::Ok();
  return Status(
      CAIRN_INVALID_ARGUMENT,
      "'" + std::string(name) +
          "' is not a valid database name: use 1 to 64 ASCII letters, digits, '_', '-' or "
          "'.', starting with a letter or '_'");
}

}  // namespace cairn::store
