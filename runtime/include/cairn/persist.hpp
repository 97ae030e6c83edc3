/* Cairn: persistence by reachability, a thin C++ layer over cairn/persist.h.
 *
 *   cairn::Database db;
 *   if (auto s = cairn::Database::Open("oo7", &db); !s.ok()) ... s.ToString() ...
 *   cairn::Transaction txn;                  // begins; aborts on scope exit unless committed
 *   if (!txn.status().ok()) ...
 *   Module *m = nullptr;
 *   if (auto s = db.GetRoot(&m); ...)
 *   m->id++;                                 // persistent objects are ordinary objects
 *   if (auto s = txn.Commit(); !s.ok()) ...
 *
 * Every call returns a cairn::Status (the C API's code and message). */
#ifndef CAIRN_PERSIST_HPP
#define CAIRN_PERSIST_HPP

#include <string>
#include <string_view>
#include <vector>

#include "cairn/persist.h"
#include "cairn/status.h"

namespace cairn {

namespace detail {
inline Status FromC(cairn_status s) {
  return s == CAIRN_OK ? Status::Ok() : Status(s, cairn_last_error());
}
}  // namespace detail

/* An open database; copyable (it names the process's one handle for that database). */
class Database {
 public:
  Database() = default;

  static Status Create(std::string_view name, Database *out) {
    return detail::FromC(cairn_db_create(std::string(name).c_str(), &out->db_));
  }
  static Status Open(std::string_view name, Database *out) {
    return detail::FromC(cairn_db_open(std::string(name).c_str(), &out->db_));
  }
  static Status Exists(std::string_view name, bool *exists) {
    int e = 0;
    Status s = detail::FromC(cairn_db_exists(std::string(name).c_str(), &e));
    *exists = e != 0;
    return s;
  }
  static Status Drop(std::string_view name) {
    return detail::FromC(cairn_db_drop(std::string(name).c_str()));
  }
  static Status Names(std::vector<std::string> *names) {
    names->clear();
    return detail::FromC(
        cairn_db_list([](const char *n,
                         void *ctx) { static_cast<std::vector<std::string> *>(ctx)->push_back(n); },
                      names));
  }

  bool valid() const { return db_ != nullptr; }
  const char *name() const { return cairn_db_name(db_); }
  cairn_db *handle() const { return db_; }

  /* The root, inside a transaction only. */
  template <class T>
  Status GetRoot(T **root) const {
    void *r = nullptr;
    Status s = detail::FromC(cairn_db_get_root(db_, &r));
    *root = static_cast<T *>(r);
    return s;
  }
  Status SetRoot(void *root) const { return detail::FromC(cairn_db_set_root(db_, root)); }

 private:
  cairn_db *db_ = nullptr;
};

/* A transaction, begun by the constructor (check status()); if it is still open when it goes out
 * of scope, it is aborted. */
class Transaction {
 public:
  Transaction() : status_(detail::FromC(cairn_txn_begin())), mine_(status_.ok()) {}
  ~Transaction() {
    if (mine_ && cairn_txn_is_open()) cairn_txn_abort();
  }
  Transaction(const Transaction &) = delete;
  Transaction &operator=(const Transaction &) = delete;

  /* Whether the begin succeeded. */
  const Status &status() const { return status_; }
  bool IsOpen() const { return mine_ && cairn_txn_is_open(); }

  Status Commit() { return End(cairn_txn_commit()); }
  Status Abort() { return End(cairn_txn_abort()); }
  Status Chain() { return detail::FromC(cairn_txn_chain()); }
  Status Checkpoint() { return detail::FromC(cairn_txn_checkpoint()); }

 private:
  Status End(cairn_status s) {
    if (!cairn_txn_is_open()) mine_ = false;
    return detail::FromC(s);
  }
  Status status_;
  bool mine_;
};

}  // namespace cairn

#endif /* CAIRN_PERSIST_HPP */
