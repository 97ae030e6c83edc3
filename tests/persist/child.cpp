// The child side of the persistence tests (see child.h) and main(): with --child=NAME the
// binary runs that child scenario, otherwise the GoogleTest tests.
#include "child.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>

#include "cairn/store.h"
#include "persist_types.h"

namespace cairn_ptest {
namespace {

std::map<std::string, ChildFn> &Registry() {
  static std::map<std::string, ChildFn> children;
  return children;
}

std::vector<cairn_type_count> LastCommitTypes() {
  std::vector<cairn_type_count> v(64);
  size_t n = cairn_persist_last_commit_types(v.data(), v.size());
  if (n > v.size()) {
    v.resize(n);
    n = cairn_persist_last_commit_types(v.data(), v.size());
  }
  v.resize(std::min(n, v.size()));
  return v;
}

}  // namespace

int64_t ChildArgs::Int(size_t i, int64_t fallback) const {
  return i < args.size() ? std::strtoll(args[i].c_str(), nullptr, 10) : fallback;
}

bool RegisterChild(const char *name, ChildFn fn) {
  Registry()[name] = fn;
  return true;
}

int RunChildMain(const std::string &name, const ChildArgs &args) {
  auto it = Registry().find(name);
  if (it == Registry().end()) {
    std::fprintf(stderr, "no child scenario named %s\n", name.c_str());
    return 2;
  }
  int rc = it->second(args);
  std::fflush(nullptr);
  return rc;
}

Failure::Failure(const char *file, int line, const std::string &what) {
  os_ << file << ":" << line << ": CHECK FAILED: " << what;
}

Failure::~Failure() {
  std::fflush(stdout);
  std::fprintf(stderr, "%s\n", os_.str().c_str());
  std::fflush(nullptr);
  _exit(1);
}

std::string StatusText(cairn_status s) {
  return std::string(cairn_status_name(s)) + ": \"" + cairn_last_error() + "\"";
}

void OpenStore(const ChildArgs &args, cairn_persist_options opts, bool register_types) {
  CK_OK(cairn_init(nullptr));
  if (register_types) {
    CK(RegisterTestTypes());
  }
  opts.store_dir = args.store.c_str();
  CK_OK(cairn_store_open(&opts));
}

void CheckStoreClean(const ChildArgs &args, const char *name) {
  namespace st = cairn::store;
  std::unique_ptr<st::Store> store;
  cairn::Status s = st::Store::Open(args.store, st::StoreOptions{}, &store);
  CK(s.ok()) << s.ToString();
  st::CheckReport report;
  s = store->Check(name, &report);
  CK(s.ok()) << s.ToString();
  Say("page_count=%lu pages_read=%lu problems=%lu\n", report.page_count, report.pages_read,
      report.problem_count);
  for (const std::string &p : report.problems) Say("problem: %s\n", p.c_str());
  CK(report.clean()) << "the store's check of '" << name << "' found problems";
}

cairn_db *CreateDb(const char *name) {
  cairn_db *db = nullptr;
  CK_OK(cairn_db_create(name, &db));
  CK(db != nullptr);
  return db;
}

cairn_db *OpenDb(const char *name) {
  cairn_db *db = nullptr;
  CK_OK(cairn_db_open(name, &db));
  CK(db != nullptr);
  return db;
}

void *Root(cairn_db *db) {
  void *root = nullptr;
  CK_OK(cairn_db_get_root(db, &root));
  return root;
}

cairn_persist_stats Stats() {
  cairn_persist_stats s{};
  cairn_persist_get_stats(&s);
  return s;
}

cairn_persist_stats LastCommitStats() {
  cairn_persist_stats s{};
  cairn_persist_last_commit_stats(&s);
  return s;
}

uint64_t LastCommitObjectsOf(const char *type) {
  for (const cairn_type_count &c : LastCommitTypes()) {
    if (c.type && std::strcmp(c.type, type) == 0) return c.objects;
  }
  return 0;
}

uint64_t LastCommitAmbiguousObjectsOf(const char *type) {
  for (const cairn_type_count &c : LastCommitTypes()) {
    if (c.type && std::strcmp(c.type, type) == 0) return c.objects_ambiguous;
  }
  return 0;
}

void Say(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::vfprintf(stdout, fmt, ap);
  va_end(ap);
  std::fflush(stdout);
}

void SayStats(const char *p, const cairn_persist_stats &s) {
  Say("%scommits=%lu %saborts=%lu %spages_faulted=%lu %swrite_faults=%lu %spages_written=%lu "
      "%spages_accurate=%lu %spages_ambiguous=%lu %spages_large=%lu %sobjects=%lu "
      "%spages_evicted=%lu %sframes_released=%lu %sresident_pages=%lu %sreserved_frames=%lu "
      "%sstabilizations=%lu %spages_checked=%lu %spages_rereferenced=%lu\n",
      p, s.commits, p, s.aborts, p, s.pages_faulted, p, s.write_faults, p, s.pages_written, p,
      s.pages_accurate, p, s.pages_ambiguous, p, s.pages_large, p, s.objects_made_persistent, p,
      s.pages_evicted, p, s.frames_released, p, s.resident_pages, p, s.reserved_frames, p,
      s.stabilizations, p, s.pages_checked, p, s.pages_rereferenced);
}

size_t MapCount() {
  std::ifstream maps("/proc/self/maps");
  size_t n = 0;
  std::string line;
  while (std::getline(maps, line)) n++;
  return n;
}

size_t RssKiB() {
  std::ifstream statm("/proc/self/statm");
  size_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<size_t>(sysconf(_SC_PAGESIZE)) / 1024;
}

}  // namespace cairn_ptest

int main(int argc, char **argv) {
  if (argc >= 2 && std::strncmp(argv[1], "--child=", 8) == 0) {
    cairn_ptest::ChildArgs args;
    if (argc >= 3) args.store = argv[2];
    for (int i = 3; i < argc; i++) args.args.emplace_back(argv[i]);
    return cairn_ptest::RunChildMain(argv[1] + 8, args);
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
