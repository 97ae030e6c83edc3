// Linking in the compiler's process (inprocess_link.h).
#include "driver/inprocess_link.h"

#include <filesystem>
#include <set>
#include <sstream>

#include "driver/link_probe.h"  // kLinkProbe, kLinkProbeObject, kLinkProbeOutput (generated)

#if CAIRN_HAVE_LLD_LIB
#include <lld/Common/Driver.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/raw_ostream.h>
LLD_HAS_DRIVER(elf)
#endif

namespace cairn::driver {
namespace {

// One line of a compiler driver's -### output split into its words: a word in double quotes
// may hold spaces, and `\"` and `\\` in it stand for `"` and `\`.
std::vector<std::string> SplitCommandLine(const std::string &line) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i >= line.size()) break;
    std::string word;
    if (line[i] == '"') {
      for (++i; i < line.size() && line[i] != '"'; ++i) {
        if (line[i] == '\\' && i + 1 < line.size()) ++i;
        word += line[i];
      }
      ++i;  // the closing quote
    } else {
      while (i < line.size() && line[i] != ' ' && line[i] != '\t') word += line[i++];
    }
    words.push_back(std::move(word));
  }
  return words;
}

}  // namespace

std::optional<std::vector<std::string>> LinkCommand(
    const std::string &probe, const std::string &probe_object, const std::string &probe_output,
    const std::vector<std::string> &inputs, const std::string &output,
    const std::map<std::string, std::string> &replace, size_t *replaced) {
  std::istringstream lines(probe);
  std::string line;
  std::optional<std::vector<std::string>> found;
  while (std::getline(lines, line)) {
    std::vector<std::string> words = SplitCommandLine(line);
    std::vector<std::string> args{"ld.lld"};
    int objects = 0, outputs = 0;
    for (size_t i = 1; i < words.size(); ++i) {
      const std::string &w = words[i];
      // collect2's own options (GCC's LTO plugin; the linker choice), not the linker's.
      if (w == "-plugin" && i + 1 < words.size()) {
        ++i;
      } else if (w.rfind("-plugin-opt=", 0) == 0 || w.rfind("-fuse-ld=", 0) == 0) {
      } else if (w == probe_object) {
        args.insert(args.end(), inputs.begin(), inputs.end());
        ++objects;
      } else if (w == "-o" && i + 1 < words.size() && words[i + 1] == probe_output) {
        args.push_back("-o");
        args.push_back(output);
        ++i;
        ++outputs;
      } else {
        args.push_back(w);
      }
    }
    if (objects != 1 || outputs != 1) continue;
    std::set<std::string> found_keys;
    for (std::string &a : args)
      if (auto it = replace.find(a); it != replace.end()) {
        found_keys.insert(a);
        a = it->second;
      }
    if (replaced) *replaced = found_keys.size();
    if (found) return std::nullopt;  // two commands that link: not a driver we know
    found = std::move(args);
  }
  return found;
}

bool CanLinkInProcess() {
#if CAIRN_HAVE_LLD_LIB
  std::optional<std::vector<std::string>> args =
      LinkCommand(kLinkProbe, kLinkProbeObject, kLinkProbeOutput, {}, "x");
  if (!args) return false;
  // The startup objects the probe named must still be there (a compiler upgraded since cairn
  // was built moves them): else the driver knows better.
  for (const std::string &a : *args) {
    std::error_code ec;
    if (a.size() > 2 && a[0] == '/' && a.compare(a.size() - 2, 2, ".o") == 0 &&
        !std::filesystem::exists(a, ec))
      return false;
  }
  return true;
#else
  return false;
#endif
}

bool LinkInProcess(const std::vector<std::string> &inputs, const std::string &output,
                   std::string *error, const std::map<std::string, std::string> &replace) {
#if CAIRN_HAVE_LLD_LIB
  size_t replaced = 0;
  std::optional<std::vector<std::string>> args = LinkCommand(
      kLinkProbe, kLinkProbeObject, kLinkProbeOutput, inputs, output, replace, &replaced);
  if (args && replaced != replace.size()) return false;  // a stub for nothing linked here
  if (!args) {
    *error = "the C++ compiler's link command is not known";
    return false;
  }
  std::vector<const char *> argv;
  for (const std::string &a : *args) argv.push_back(a.c_str());
  // One thread: lld's pool of a thread per core (each with its stack to fault in) cost a
  // program's link more than it saved (a 3-line program's build 84 -> 79 ms, median of 21
  // alternating builds; the 5,020-line compilebench program's the same either way).
  argv.push_back("--threads=1");
  std::string messages;
  llvm::raw_string_ostream out(messages);
  // A crash inside lld (a full disk under its output's mapping: SIGBUS) or its fatal error (an
  // output it cannot write) ends lldMain with a failure, not the process: our message follows
  // and the objects are removed.
  // After such a crash lld cannot run again in this process (its state is half torn down: a
  // second link saw every symbol twice): the first link's failure is the answer from then on.
  static std::string crashed;
  if (!crashed.empty()) {
    *error = crashed;
    return false;
  }
  llvm::CrashRecoveryContext::Enable();
  lld::Result r = lld::lldMain(argv, out, out, {{lld::Gnu, &lld::elf::link}});
  if (r.retCode != 0 && messages.empty())
    messages = "the linker stopped without saying why (a disk that filled up while it wrote " +
               output + "?)\n";
  if (r.retCode != 0 && !r.canRunAgain) crashed = messages;
  out.flush();
  if (r.retCode == 0) return true;
  *error = messages;
  return false;
#else
  (void)inputs;
  (void)output;
  (void)replace;
  *error = "this cairn was built without the linker inside (liblld-19-dev)";
  return false;
#endif
}

}  // namespace cairn::driver
