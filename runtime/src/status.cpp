// Status names, messages, and each thread's last error for the C API.
#include "cairn/status.h"

namespace {
thread_local std::string last_error;
}  // namespace

extern "C" const char *cairn_status_name(cairn_status s) {
  switch (s) {
    case CAIRN_OK:
      return "ok";
    case CAIRN_INVALID_ARGUMENT:
      return "invalid argument";
    case CAIRN_NOT_FOUND:
      return "not found";
    case CAIRN_ALREADY_EXISTS:
      return "already exists";
    case CAIRN_CORRUPTION:
      return "corruption";
    case CAIRN_IO_ERROR:
      return "I/O error";
    case CAIRN_BUSY:
      return "busy";
    case CAIRN_DEADLOCK:
      return "deadlock";
    case CAIRN_MISUSE:
      return "misuse";
    case CAIRN_TYPE_MISMATCH:
      return "type mismatch";
    case CAIRN_UNSUPPORTED:
      return "unsupported";
    case CAIRN_OUT_OF_MEMORY:
      return "out of memory";
    case CAIRN_INTERNAL:
      return "internal error";
  }
  return "unknown status";
}

extern "C" const char *cairn_last_error(void) { return last_error.c_str(); }

namespace cairn {

std::string Status::ToString() const {
  if (ok()) return "ok";
  return std::string(cairn_status_name(code_)) + ": " + message_;
}

cairn_status SetLastError(const Status &s) {
  last_error = s.ok() ? std::string() : s.message();
  return s.code();
}

}  // namespace cairn
