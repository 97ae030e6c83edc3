// What a child scenario of the persistence tests is written with (see spawn.h for how the
// parent starts one). A child is a function registered by name with PERSIST_CHILD; it runs in
// its own process, opens the store named on its command line, and checks what it finds with
// CK, CK_EQ, CK_OK and CK_STATUS, which print the failure to stderr and end the process with
// status 1 at the first one (the parent shows the child's output). It reports figures to the
// parent as KEY=VALUE words on standard output (Say).
#pragma once

#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "cairn/persist.h"
#include "cairn/status.h"

namespace cairn_ptest {

struct ChildArgs {
  std::string store;              // the store directory
  std::vector<std::string> args;  // what follows it on the command line
  // args[i] as an integer, or `fallback` if there is no such argument.
  int64_t Int(size_t i, int64_t fallback = 0) const;
};

using ChildFn = int (*)(const ChildArgs &);
bool RegisterChild(const char *name, ChildFn fn);
// Runs child `name` (main's --child=NAME); returns its exit status.
int RunChildMain(const std::string &name, const ChildArgs &args);

#define PERSIST_CHILD(Name)                                      \
  static int Name##_Child(const ::cairn_ptest::ChildArgs &args); \
  [[maybe_unused]] static const bool Name##_registered =         \
      ::cairn_ptest::RegisterChild(#Name, Name##_Child);         \
  static int Name##_Child([[maybe_unused]] const ::cairn_ptest::ChildArgs &args)

// --- Checks -------------------------------------------------------------------------------------

// Prints "FILE:LINE: CHECK FAILED: what <streamed details>" and ends the process (status 1).
class Failure {
 public:
  Failure(const char *file, int line, const std::string &what);
  ~Failure();
  Failure(const Failure &) = delete;
  Failure &operator=(const Failure &) = delete;
  template <class T>
  Failure &operator<<(const T &v) {
    os_ << v;
    return *this;
  }

 private:
  std::ostringstream os_;
};

template <class A, class B>
std::string CompareEq(const A &a, const B &b) {
  if (a == b) return "";
  std::ostringstream os;
  os << a << " != " << b;
  return os.str();
}

std::string StatusText(cairn_status s);  // "misuse: <cairn_last_error()>"

// (switch: so that `if (x) CK(y); else ...` binds as it reads, as GoogleTest's macros do)
#define CK_BLOCKER_ \
  switch (0)        \
  case 0:           \
  default:

#define CK(cond) \
  CK_BLOCKER_    \
  if (cond) {    \
  } else         \
    ::cairn_ptest::Failure(__FILE__, __LINE__, "CK(" #cond ") ")

#define CK_EQ(a, b)                                                              \
  CK_BLOCKER_                                                                    \
  if (std::string ck_eq_ = ::cairn_ptest::CompareEq((a), (b)); ck_eq_.empty()) { \
  } else                                                                         \
    ::cairn_ptest::Failure(__FILE__, __LINE__, "CK_EQ(" #a ", " #b "): " + ck_eq_ + " ")

#define CK_OK(expr)                                     \
  CK_BLOCKER_                                           \
  if (cairn_status ck_s_ = (expr); ck_s_ == CAIRN_OK) { \
  } else                                                \
    ::cairn_ptest::Failure(__FILE__, __LINE__,          \
                           #expr " returned " + ::cairn_ptest::StatusText(ck_s_) + " ")

#define CK_STATUS(expr, want)                                                                      \
  CK_BLOCKER_                                                                                      \
  if (cairn_status ck_s_ = (expr); ck_s_ == (want)) {                                              \
  } else                                                                                           \
    ::cairn_ptest::Failure(__FILE__, __LINE__,                                                     \
                           #expr " returned " + ::cairn_ptest::StatusText(ck_s_) + ", expected " + \
                               cairn_status_name(want) + " ")

// --- Store, databases, transactions ------------------------------------------------------------

// Sets up the heap, registers the test types (unless register_types is false) and opens the
// store of `args` with `opts` (its store_dir is set here).
void OpenStore(const ChildArgs &args, cairn_persist_options opts = {}, bool register_types = true);
cairn_db *CreateDb(const char *name);
cairn_db *OpenDb(const char *name);
// The store's own check of database `name` (cairn::store, no runtime: call it before
// OpenStore, or in a child that does not open the store): every problem is said, and the check
// fails unless the database is clean.
void CheckStoreClean(const ChildArgs &args, const char *name);
// The root of `db`, inside a transaction.
void *Root(cairn_db *db);
template <class T>
T *RootAs(cairn_db *db) {
  return static_cast<T *>(Root(db));
}
cairn_persist_stats Stats();
cairn_persist_stats LastCommitStats();
// The objects of type `type` made persistent by the last commit (from
// cairn_persist_last_commit_types).
uint64_t LastCommitObjectsOf(const char *type);
// Of those, the ones made persistent in place on pages pinned by ambiguous roots.
uint64_t LastCommitAmbiguousObjectsOf(const char *type);

// --- Reporting ----------------------------------------------------------------------------------

// printf to standard output, flushed at once (a crash later does not lose it).
void Say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
// The stats as KEY=VALUE words (prefix + field name), one line.
void SayStats(const char *prefix, const cairn_persist_stats &s);
// Lines in /proc/self/maps: the kernel's memory mappings (VMAs) of this process.
size_t MapCount();
// Resident memory of this process, in KiB.
size_t RssKiB();

}  // namespace cairn_ptest
