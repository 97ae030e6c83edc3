// `cairn db list|create|info|check|gc|drop`: the databases of a store.
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cairn/graph_check.h"
#include "cairn/store.h"
#include "cairn/store_gc.h"
#include "driver/cli.h"

namespace cairn::driver {
namespace {

using store::Store;
using store::StoreOptions;

constexpr char kDbUsage[] =
    "usage: cairn db [--store DIR] <command>\n"
    "\n"
    "  list           the names of the store's databases, one a line\n"
    "  create NAME    create an empty database (and the store, if it does not exist)\n"
    "  info NAME      a database's page count, free pages, root and type table size\n"
    "  check [NAME]   read every page of NAME (or of every database): checksums, the\n"
    "                 catalogue, and the objects (every type known, every reference and the\n"
    "                 root pointing at an object); report all the damage found, and the\n"
    "                 pages nothing reaches; then every table file of the store whole;\n"
    "                 exit status 0 only when all is clean\n"
    "  gc NAME        free the pages of NAME that its root no longer reaches (one atomic\n"
    "                 write: a crash leaves all of it or nothing)\n"
    "  drop NAME      delete a database and everything in it\n"
    "  recover        open a store whose write-ahead log is damaged, as of the last commit\n"
    "                 before the damage: the commits after it are lost (a copy of the log\n"
    "                 is kept, and what was lost is reported)\n"
    "\n"
    "list, info and check only read the store (a user who may only read it can run them);\n"
    "create, gc, drop and recover write it, and refuse when CAIRN_STORE_READ_ONLY is set.\n"
    "The store is DIR from --store, else $CAIRN_STORE, else ./cairn.store.\n"
    "A NAME is 1 to 64 ASCII letters, digits, '_', '-' or '.', starting with a letter or '_'.\n";

// create, gc and drop write; list, info and check only read (so they work on a store the user may
// only read, and never write into a directory that turns out not to be a store).
Status OpenStore(const GlobalOptions &options, bool create, bool read_only,
                 std::unique_ptr<Store> *s) {
  StoreOptions o;
  o.create_if_missing = create;
  o.read_only = read_only;
  return Store::Open(store::ResolveStoreDir(options.store_flag), o, s);
}

int List(Store &s) {
  std::vector<std::string> names;
  Status st = s.ListDatabases(&names);
  if (!st.ok()) return ReportError(st);
  for (const auto &n : names) std::printf("%s\n", n.c_str());
  return kExitOk;
}

int Create(Store &s, const std::string &name) {
  Status st = s.CreateDatabase(name);
  if (!st.ok()) return ReportError(st);
  std::printf("created database '%s' in store %s\n", name.c_str(), s.dir().c_str());
  return kExitOk;
}

int Info(Store &s, const std::string &name) {
  store::DatabaseInfo info;
  Status st = s.GetDatabaseInfo(name, &info);
  if (!st.ok()) return ReportError(st);
  std::printf("database  %s\n", info.name.c_str());
  std::printf("store     %s\n", s.dir().c_str());
  std::printf("id        %" PRIu64 "\n", info.id);
  std::printf("pages     %" PRIu64 " (%" PRIu64 " in use, %" PRIu64 " free; %u bytes each)\n",
              info.page_count, info.page_count - info.free_pages, info.free_pages,
              store::kPageSize);
  // The root as stored (docs/persistence.md, persistent references: run, page, offset).
  if (info.root == 0) {
    std::printf("root      nil\n");
  } else {
    const uint64_t offset = info.root & 0x1fff, page = (info.root >> 13) & 0x7fffffff,
                   run = info.root >> 44;
    if (run != 0)
      std::printf("root      page %" PRIu64 ", a large object of %" PRIu64 " pages (0x%016" PRIx64
                  ")\n",
                  page, run, info.root);
    else
      std::printf("root      page %" PRIu64 ", offset %" PRIu64 " (0x%016" PRIx64 ")\n", page,
                  offset, info.root);
  }
  std::printf("types     %u\n", info.type_count);
  std::printf("format    %u\n", info.format_version);
  return kExitOk;
}

// A store whose damage stops the open (its catalogue cannot be read, its CURRENT is gone): the
// error, without advice to run this very command (campaign L: it gave that, and ran no audit),
// then the audit of its table files, which needs no open and names the damaged ones.
int CheckUnopenable(const std::string &dir, const Status &why) {
  std::string message = why.message();
  const std::string circular = "run `cairn db check` and restore the store from a copy";
  if (size_t at = message.find(circular); at != std::string::npos)
    message.replace(at, circular.size(), "restore the store from a copy");
  std::vector<std::string> problems;
  uint64_t files = 0;
  Status st = Store::CheckFilesAt(dir, &problems, &files);
  if (st.ok() && problems.empty()) {
    // Not "ok": the store is damaged, elsewhere (campaign P).
    std::printf("store files: the %" PRIu64
                " table file%s there read whole; the damage that stops the open is elsewhere "
                "(below)\n",
                files, files == 1 ? "" : "s");
  } else if (st.ok()) {
    std::printf("store files: %zu of %" PRIu64 " table files damaged\n", problems.size(), files);
    for (const auto &p : problems) std::printf("  %s\n", p.c_str());
  }
  std::fflush(stdout);  // the list first, also when both go to one file
  std::fprintf(stderr, "cairn: %s\n", message.c_str());
  if (!st.ok()) std::fprintf(stderr, "cairn: %s\n", st.message().c_str());
  return kExitError;
}

int Check(Store &s, std::vector<std::string> names) {
  if (names.empty()) {
    Status st = s.ListDatabases(&names);
    if (!st.ok()) return ReportError(st);
  }
  int exit = kExitOk;
  for (const auto &name : names) {
    store::CheckReport r;
    Status st = s.Check(name, &r);
    if (st.ok()) st = persist::CheckObjectGraph(s, name, &r);
    if (!st.ok()) {
      exit = ReportError(st);
      continue;
    }
    std::string graph;
    if (r.graph_checked) {
      char line[512];
      if (r.pages_in_use == 0)
        std::snprintf(line, sizeof line,
                      "; %" PRIu64 " objects stored, %" PRIu64 " references; no pages in use",
                      r.objects, r.references);
      else if (r.pages_unreached == 0)
        std::snprintf(line, sizeof line,
                      "; %" PRIu64 " objects stored, %" PRIu64
                      " references; the root reaches all %" PRIu64 " pages in use",
                      r.objects, r.references, r.pages_in_use);
      else
        std::snprintf(
            line, sizeof line,
            "; %" PRIu64 " objects stored, %" PRIu64 " references; %" PRIu64 " of %" PRIu64
            " pages in use (%.1f%%) hold nothing the root reaches%s%s%s",
            r.objects, r.references, r.pages_unreached, r.pages_in_use,
            100.0 * double(r.pages_unreached) / double(r.pages_in_use),
            // Without damage they are garbage; with it, they may be what the damage cut off.
            r.clean() ? ": garbage, which 'cairn db gc " : "", r.clean() ? name.c_str() : "",
            r.clean() ? "' frees" : "");
      graph = line;
      if (r.dead_objects > 0 && r.clean()) {
        // Kept with their pages: a program reading such a page must define their types.
        std::string types;
        for (const std::string &t : r.dead_types) types += (types.empty() ? "'" : ", '") + t + "'";
        if (r.dead_types_more) types += ", ...";
        const bool one = r.dead_objects == 1;
        graph += "; " + std::to_string(r.dead_objects) +
                 (one ? " dead object shares a page with live ones (of type "
                      : " dead objects share pages with live ones (of types ") +
                 types + "), which 'cairn db gc " + name + "' makes " +
                 (one ? "a filler" : "fillers");
      }
    }
    if (r.clean()) {
      std::printf("%s: ok (%" PRIu64 " pages: %" PRIu64 " read and verified, %" PRIu64
                  " free; %" PRIu64 " types%s)\n",
                  name.c_str(), r.page_count, r.pages_read, r.free_pages, r.types, graph.c_str());
      continue;
    }
    exit = kExitError;
    std::printf("%s: %" PRIu64 " problem%s found\n", name.c_str(), r.problem_count,
                r.problem_count == 1 ? "" : "s");
    for (const auto &p : r.problems) std::printf("  %s\n", p.c_str());
    if (r.problem_count > r.problems.size()) {
      std::printf("  ... and %" PRIu64 " more\n", r.problem_count - r.problems.size());
    }
    if (!graph.empty()) std::printf("  (%s)\n", graph.substr(2).c_str());
    if (r.unverifiable_refs) {
      std::printf("  %" PRIu64 " reference%s into or on damaged pages could not be checked\n",
                  r.unverifiable_refs, r.unverifiable_refs == 1 ? "" : "s");
    }
    std::fflush(stdout);  // the list first, also when both go to one file
    std::fprintf(stderr,
                 "cairn: database '%s' in store %s is damaged (the problems are listed above); "
                 "restore it from a copy\n",
                 name.c_str(), s.dir().c_str());
  }
  // Every key: data that no name leads to is read by no check above.
  std::vector<std::string> problems;
  uint64_t keys = 0;
  Status st = s.CheckKeys(&problems, &keys);
  if (!st.ok()) return ReportError(st);
  if (problems.empty()) {
    std::printf("store keys: ok (%" PRIu64 " key%s, each of the store or of a named database)\n",
                keys, keys == 1 ? "" : "s");
  } else {
    exit = kExitError;
    std::printf("store keys: damaged\n");
    bool unreadable = false;
    for (const auto &p : problems) {
      std::printf("  %s\n", p.c_str());
      unreadable = unreadable || p.starts_with("the keys cannot all be read");
    }
    std::fflush(stdout);
    // Keys that could not be read are not data that no name leads to (campaign L).
    std::fprintf(stderr,
                 unreadable ? "cairn: store %s: its keys cannot all be read (its files are "
                              "damaged: listed above); restore the store from a copy\n"
                            : "cairn: store %s holds data that no database name leads to (listed "
                              "above); restore the store from a copy\n",
                 s.dir().c_str());
  }
  // The table files whole: damage where no page read goes (older versions, which compactions
  // read) stops every write of the store.
  uint64_t files = 0;
  st = s.CheckFiles(&problems, &files);
  if (!st.ok()) return ReportError(st);
  if (problems.empty()) {
    std::printf("store files: ok (%" PRIu64 " table file%s read whole)\n", files,
                files == 1 ? "" : "s");
    return exit;
  }
  std::printf("store files: %zu of %" PRIu64 " table files damaged\n", problems.size(), files);
  for (const auto &p : problems) std::printf("  %s\n", p.c_str());
  std::fflush(stdout);
  std::fprintf(stderr,
               "cairn: store %s has damaged table files (listed above); restore the store from a "
               "copy\n",
               s.dir().c_str());
  return kExitError;
}

int Recover(const GlobalOptions &options) {
  std::string dir = store::ResolveStoreDir(options.store_flag);
  store::RecoveryReport r;
  Status st = Store::Recover(dir, StoreOptions(), &r);
  if (!st.ok()) return ReportError(st);
  if (r.obsolete_logs_removed > 0) {
    std::printf("store %s: removed %" PRIu64
                " obsolete write-ahead log%s (their writes were already in the table files)\n",
                dir.c_str(), r.obsolete_logs_removed, r.obsolete_logs_removed == 1 ? "" : "s");
  }
  if (!r.damaged) {
    std::printf("store %s: its write-ahead log is intact; nothing to recover\n", dir.c_str());
    return kExitOk;
  }
  std::printf("store %s: the write-ahead log %s was damaged at byte %" PRIu64 " (%s)\n",
              dir.c_str(), r.log_file.c_str(), r.damage_offset, r.damage.c_str());
  std::printf("a copy of the logs as they were is in %s\n", r.kept_copy.c_str());
  std::printf("recovered as of the last commit before the damage; lost: the commits in the %" PRIu64
              " damaged bytes (one or more) and %" PRIu64 " intact commit%s after them (%" PRIu64
              " bytes of log from the damage on)\n",
              r.damaged_bytes, r.commits_lost, r.commits_lost == 1 ? "" : "s", r.bytes_lost);
  for (const auto &d : r.databases) {
    std::string what;
    auto add = [&](const std::string &w) { what += (what.empty() ? "" : ", ") + w; };
    if (d.created) add("its creation (it does not exist now)");
    if (d.page_writes)
      add(std::to_string(d.page_writes) + " page write" + (d.page_writes == 1 ? "" : "s"));
    if (d.pages_freed)
      add(std::to_string(d.pages_freed) + " page" + (d.pages_freed == 1 ? "" : "s") + " freed");
    if (d.catalogue && !d.created) add("changes to its root or type table");
    std::printf("  database '%s': %s\n", d.name.c_str(), what.c_str());
  }
  std::printf("run `cairn db check --store %s` to audit the recovered databases\n", dir.c_str());
  return kExitOk;
}

int Gc(Store &s, const std::string &name) {
  store::GcReport r;
  Status st = store::CollectGarbage(s, name, &r);
  if (!st.ok()) return ReportError(st);
  std::printf("%s: %" PRIu64 " pages reached from the root (%" PRIu64 " objects live), %" PRIu64
              " freed; %" PRIu64 " of %" PRIu64 " pages free\n",
              name.c_str(), r.pages_reached, r.objects_reached, r.pages_freed, r.free_pages,
              r.page_count);
  if (r.pages_rewritten > 0)
    std::printf("%s: %" PRIu64 " dead object(s) on %" PRIu64
                " kept page(s) replaced by fillers (nothing refers to them: their references and "
                "types are gone)\n",
                name.c_str(), r.objects_filled, r.pages_rewritten);
  return kExitOk;
}

int Drop(Store &s, const std::string &name) {
  Status st = s.DropDatabase(name);
  if (!st.ok()) return ReportError(st);
  std::printf("dropped database '%s' from store %s\n", name.c_str(), s.dir().c_str());
  return kExitOk;
}

}  // namespace

int RunDbCommand(const GlobalOptions &options, const std::vector<std::string> &args) {
  if (args.empty()) {
    std::fputs(kDbUsage, stderr);
    return kExitUsage;
  }
  const std::string &cmd = args[0];
  std::vector<std::string> operands(args.begin() + 1, args.end());
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    std::fputs(kDbUsage, stdout);
    return kExitOk;
  }
  for (const auto &o : operands) {
    if (o == "--help" || o == "-h") {
      std::fputs(kDbUsage, stdout);
      return kExitOk;
    }
    if (o.rfind("-", 0) == 0) return ReportUsage("unknown option '" + o + "'", "cairn db");
  }
  size_t want_min = 1, want_max = 1;
  if (cmd == "list" || cmd == "recover") {
    want_min = want_max = 0;
  } else if (cmd == "check") {
    want_min = 0;
    want_max = SIZE_MAX;
  } else if (cmd != "create" && cmd != "info" && cmd != "gc" && cmd != "drop") {
    return ReportUsage("unknown db command '" + cmd + "'", "cairn db");
  }
  if (operands.size() < want_min) return ReportUsage("db " + cmd + " needs a NAME", "cairn db");
  if (operands.size() > want_max) {
    return ReportUsage(
        "db " + cmd + " takes " + std::string(want_max == 0 ? "no arguments" : "one NAME"),
        "cairn db");
  }
  // Names are checked before the store is opened (or created).
  for (const auto &n : operands) {
    Status st = store::ValidateDatabaseName(n);
    if (!st.ok()) return ReportError(st);
  }
  const bool reads_only = cmd == "list" || cmd == "info" || cmd == "check";
  if (!reads_only && store::ReadOnlyRequested()) {
    // What is wrong whatever the store's mode is said first, as the store does (a database
    // that is not there to drop or collect, or is there already to create), from the store
    // opened read-only; a store that cannot be opened so is said too, except to create.
    if (cmd != "recover") {
      std::unique_ptr<Store> s;
      Status st = OpenStore(options, false, true, &s);
      if (!st.ok() && cmd != "create") return ReportError(st);
      if (st.ok()) {
        store::DatabaseInfo info;
        Status found = s->GetDatabaseInfo(operands[0], &info);
        if (cmd == "create" && found.ok()) return ReportError(s->CreateDatabase(operands[0]));
        if (cmd != "create" && !found.ok()) return ReportError(found);
      }
    }
    return ReportError(Status(CAIRN_MISUSE, "db " + cmd +
                                                " would write the store, and "
                                                "CAIRN_STORE_READ_ONLY is set, so nothing was "
                                                "written; unset it (or set it to 0) to " +
                                                cmd));
  }
  if (cmd == "recover") return Recover(options);
  std::unique_ptr<Store> s;
  Status st = OpenStore(options, cmd == "create", reads_only, &s);
  if (!st.ok() && cmd == "check" && st.code() == CAIRN_CORRUPTION)
    return CheckUnopenable(store::ResolveStoreDir(options.store_flag), st);
  if (!st.ok()) return ReportError(st);
  if (cmd == "list") return List(*s);
  if (cmd == "create") return Create(*s, operands[0]);
  if (cmd == "info") return Info(*s, operands[0]);
  if (cmd == "check") return Check(*s, operands);
  if (cmd == "gc") return Gc(*s, operands[0]);
  return Drop(*s, operands[0]);
}

}  // namespace cairn::driver
