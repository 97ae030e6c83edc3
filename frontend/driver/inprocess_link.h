// Linking a program inside the compiler's process, with LLD's ELF linker as a library.
//
// `cairn build` links through the C++ compiler's driver (`c++ -fuse-ld=lld ...`), which runs
// collect2, which runs ld.lld: three programs started, the last of them 30 to 40 ms of CPU
// before it reads anything (it carries its own copy of LLVM). In the compiler's process,
// where libLLVM is already loaded, the link is the linker's work alone. What the driver would
// pass the linker (startup files, library folders, the C++ and C libraries, the dynamic
// linker) is asked of it once, when cairn itself is configured (`c++ -### probe.o -o probe`):
// kLinkProbe. LinkCommand turns that answer into the linker's arguments for a program.
#ifndef CAIRN_FRONTEND_DRIVER_INPROCESS_LINK_H
#define CAIRN_FRONTEND_DRIVER_INPROCESS_LINK_H

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cairn::driver {

// The arguments of the linker (argv[0] first) that the C++ compiler's driver would run to link
// `inputs` (objects, libraries, -l options, in order) into `output`, from `probe`: the
// driver's `-###` output for `probe_object` linked into `probe_output`. Nothing if the probe
// does not hold one command that names both (an unexpected driver: link through it instead).
// Each argument found in `replace` (the probe's or an input) is replaced by its value
// (link stubs, link_stubs.h); *replaced (if given) gets how many of replace's keys were found.
std::optional<std::vector<std::string>> LinkCommand(
    const std::string &probe, const std::string &probe_object, const std::string &probe_output,
    const std::vector<std::string> &inputs, const std::string &output,
    const std::map<std::string, std::string> &replace = {}, size_t *replaced = nullptr);

// Whether this cairn was built with the linker inside (liblld-19-dev at configure time) and
// has a probe to link with.
bool CanLinkInProcess();

// Links `inputs` into `output` in this process, as the C++ compiler's driver would with
// `-fuse-ld=lld`. False (with the linker's messages, or why it could not run, in *error) if it
// failed or cannot run here; then the caller links through the driver.
// With `replace` (link stubs), it links only if every key of it is among the arguments (else
// false, with nothing in *error: the caller links without them).
bool LinkInProcess(const std::vector<std::string> &inputs, const std::string &output,
                   std::string *error, const std::map<std::string, std::string> &replace = {});

}  // namespace cairn::driver

#endif  // CAIRN_FRONTEND_DRIVER_INPROCESS_LINK_H
