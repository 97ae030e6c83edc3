/* Cairn: status codes and errors as values.
 *
 * Every operation at a boundary of the runtime (type registration, the page store, databases,
 * transactions) reports what happened as a status, never by crashing and never by leaking a
 * status type of a library underneath (RocksDB's stays inside runtime/store/).
 *
 * C callers get a cairn_status code and, for the calling thread, the message of the last error
 * from cairn_last_error(). C++ callers get cairn::Status, which carries both and is [[nodiscard]].
 */
#ifndef CAIRN_STATUS_H
#define CAIRN_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

/* The kinds of failure. The message says what happened, to what, and what to do. */
typedef enum cairn_status {
  CAIRN_OK = 0,
  CAIRN_INVALID_ARGUMENT = 1, /* the caller passed something malformed (a bad name, a bad type) */
  CAIRN_NOT_FOUND = 2,        /* a store, database, page or type that does not exist */
  CAIRN_ALREADY_EXISTS = 3,   /* creating something that is already there */
  CAIRN_CORRUPTION = 4,       /* stored data failed a check (checksum, format, catalogue) */
  CAIRN_IO_ERROR = 5,         /* the operating system or the disk refused */
  CAIRN_BUSY = 6,             /* in use by another process, or a lock could not be had in time */
  CAIRN_DEADLOCK = 7,         /* a lock wait would deadlock; the transaction must abort */
  CAIRN_MISUSE = 8,           /* an operation in the wrong state (commit with no transaction) */
  CAIRN_TYPE_MISMATCH = 9,    /* stored data names a type this program lacks or defines otherwise */
  CAIRN_UNSUPPORTED = 10,     /* a format version or feature this build does not handle */
  CAIRN_OUT_OF_MEMORY = 11,   /* the heap's reservation or a system limit is exhausted */
  CAIRN_INTERNAL = 12         /* a bug in Cairn: please report it with the message */
} cairn_status;

/* A short name for a status code ("ok", "not found", ...). Never NULL. */
const char *cairn_status_name(cairn_status s);

/* The message of the last failing call made by this thread, or "" if none. The pointer is valid
 * until the thread's next call into the runtime. */
const char *cairn_last_error(void);

#ifdef __cplusplus
} /* extern "C" */

#include <string>
#include <utility>

namespace cairn {

/* An error as a value: a code and a message. A default Status is OK. */
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(cairn_status code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }

  bool ok() const { return code_ == CAIRN_OK; }
  cairn_status code() const { return code_; }
  const std::string &message() const { return message_; }
  /* "not found: database 'oo7' does not exist in store ./cairn.store ..." */
  std::string ToString() const;

  /* Marks a status as deliberately ignored. */
  void IgnoreError() const {}

 private:
  cairn_status code_ = CAIRN_OK;
  std::string message_;
};

/* Records s as this thread's last error (for the C API) and returns its code. */
cairn_status SetLastError(const Status &s);

} /* namespace cairn */
#endif

#endif /* CAIRN_STATUS_H */
