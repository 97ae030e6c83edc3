// Link stubs (link_stubs.h).
#include "driver/link_stubs.h"

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace cairn::driver {

namespace fs = std::filesystem;

std::map<std::string, std::string> FindLinkStubs(const std::string &link_dir) {
  if (const char *off = std::getenv("CAIRN_NO_LINK_STUBS"); off && *off == '1') return {};  // S3
  const fs::path dir = fs::path(link_dir) / "stubs";
  std::ifstream manifest(dir / "stubs.txt");
  if (!manifest) return {};
  std::map<std::string, std::string> stubs;
  std::string line;
  while (std::getline(manifest, line)) {
    if (line.empty()) continue;
    std::vector<std::string> fields;
    std::istringstream in(line);
    for (std::string field; std::getline(in, field, '\t');) fields.push_back(field);
    if (fields.size() != 5) return {};
    // S1: the real library as it was when the stub was made.
    struct stat st{};
    if (::stat(fields[2].c_str(), &st) != 0) return {};
    const long long mtime_ns = static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL +
                               static_cast<long long>(st.st_mtim.tv_nsec);
    if (std::to_string(st.st_size) != fields[3] || std::to_string(mtime_ns) != fields[4]) return {};
    const fs::path stub = dir / fields[1];
    std::error_code ec;
    if (!fs::is_regular_file(stub, ec)) return {};
    stubs[fields[0]] = stub.string();
  }
  return stubs;
}

}  // namespace cairn::driver
