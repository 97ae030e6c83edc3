// What the driver's subcommands share: the parsed global options and how to report.
#ifndef CAIRN_FRONTEND_DRIVER_CLI_H
#define CAIRN_FRONTEND_DRIVER_CLI_H

#include <string>
#include <vector>

#include "cairn/status.h"

namespace cairn::driver {

// Exit statuses of the `cairn` executable.
inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;  // an operation failed, or `check` found problems
inline constexpr int kExitUsage = 2;  // the command line is wrong

struct GlobalOptions {
  std::string store_flag;  // --store DIR, or "" (then $CAIRN_STORE, else ./cairn.store)
};

// Prints "cairn: <message>" on standard error and returns kExitError.
int ReportError(const Status &s);
// Prints "cairn: <what>" and a pointer to `help_command`'s usage; returns kExitUsage.
int ReportUsage(const std::string &what, const std::string &help_command);

// The allocator malloc reaches in this process, for --version: "mimalloc <version>" when
// `cairn` was linked with mimalloc and malloc's memory comes from it, else "the C library's".
std::string AllocatorName();

// `cairn db ...`: args are the words after "db" (global options removed).
int RunDbCommand(const GlobalOptions &options, const std::vector<std::string> &args);
// `cairn build|run|check ...` (build_command.cpp).
int RunBuildCommand(const GlobalOptions &options, const std::vector<std::string> &args);
int RunRunCommand(const GlobalOptions &options, const std::vector<std::string> &args);
int RunCheckCommand(const GlobalOptions &options, const std::vector<std::string> &args);
// `cairn repl ...` (repl/repl_command.cpp).
int RunReplCommand(const GlobalOptions &options, const std::vector<std::string> &args);

}  // namespace cairn::driver

#endif  // CAIRN_FRONTEND_DRIVER_CLI_H
