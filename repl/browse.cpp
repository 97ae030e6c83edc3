// Databases browsed without their source: types from a database's type table (session.h).
#include "session.h"

namespace cairn::repl {

bool Session::typesOf(const std::string &db) {
  reportError(":types " + db + ": not done yet");
  ++failures_;
  return true;
}

}  // namespace cairn::repl
