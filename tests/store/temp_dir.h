// A temporary directory under $TMPDIR (or /tmp) for one test, removed with everything in it.
#ifndef CAIRN_TESTS_STORE_TEMP_DIR_H
#define CAIRN_TESTS_STORE_TEMP_DIR_H

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace cairn::test {

class TempDir {
 public:
  TempDir() {
    const char *base = std::getenv("TMPDIR");
    std::string templ =
        std::string(base != nullptr && base[0] ? base : "/tmp") + "/cairn-store-test-XXXXXX";
    if (mkdtemp(templ.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = templ;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;

  const std::string &path() const { return path_; }
  // A path inside the directory (not created).
  std::string Sub(const std::string &name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace cairn::test

#endif  // CAIRN_TESTS_STORE_TEMP_DIR_H
