// Link stubs: small stand-ins for the large shared libraries every program links.
//
// A program's link names librocksdb.so and libstdc++.so for the runtime's sake; lld reads every
// dynamic symbol of each (about 16,000 and 6,000), a third of a small program's in-process
// link. The build writes a stub of each (make_link_stubs.py, in lib/link/stubs/ beside the
// runtime's link libraries): a shared library with the real one's soname that defines only the
// symbols the runtime's libraries name, each with the real symbol's type, binding, size and
// version. The executable linked against the stubs records exactly what it would against the
// real libraries (DT_NEEDED, version needs, exported symbols: tests/cli/compiler_test.sh
// compares them), and runs against the real ones.
//
// Invariants:
//   S1. A stub is used only while the real file it was made from has the size and mtime its
//       manifest (stubs.txt) recorded: a library upgraded since the build is linked itself.
//   S2. A link that fails with stubs is done again without them (a program whose `extern fn`
//       names a C++ or RocksDB symbol the runtime does not use links as it always did), and so
//       is one whose arguments lack a library a stub stands for (LinkInProcess): `--time`
//       says "link (in process, stubs)" only when every stub was used.
//   S3. CAIRN_NO_LINK_STUBS=1 in the environment links the real libraries.
#ifndef CAIRN_FRONTEND_DRIVER_LINK_STUBS_H
#define CAIRN_FRONTEND_DRIVER_LINK_STUBS_H

#include <map>
#include <string>

namespace cairn::driver {

// The stubs of the runtime link folder `link_dir` (its stubs/ folder) that may stand in for
// their libraries (S1, S3): link argument (a library's path, or -lstdc++) -> the stub's path.
// Empty if there are none, or any is stale.
std::map<std::string, std::string> FindLinkStubs(const std::string &link_dir);

}  // namespace cairn::driver

#endif  // CAIRN_FRONTEND_DRIVER_LINK_STUBS_H
