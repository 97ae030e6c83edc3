// The store's RocksDB info log (see store_logger.h).
#include "store_logger.h"

#include <sys/time.h>

#include <cstdio>
#include <ctime>
#include <mutex>

namespace cairn::store {
namespace {

class StoreLogger final : public rocksdb::Logger {
 public:
  explicit StoreLogger(std::string rocks_dir) : dir_(std::move(rocks_dir)) {}
  ~StoreLogger() override { Close().PermitUncheckedError(); }

  using rocksdb::Logger::Logv;
  void Logv(const char *format, va_list ap) override {
    std::lock_guard<std::mutex> hold(mu_);
    if (dir_.empty()) return;
    if (file_ == nullptr && !OpenFile()) return;  // L2: again at the next line
    struct timeval now;
    gettimeofday(&now, nullptr);
    struct tm t;
    localtime_r(&now.tv_sec, &t);
    std::fprintf(file_, "%04d/%02d/%02d-%02d:%02d:%02d.%06ld ", t.tm_year + 1900, t.tm_mon + 1,
                 t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec, static_cast<long>(now.tv_usec));
    std::vfprintf(file_, format, ap);
    std::fputc('\n', file_);
    std::clearerr(file_);                    // L1: what could not be written is dropped
    if (std::ftell(file_) > kMaxLogBytes) {  // L2: a long-lived process's log too
      std::fclose(file_);
      file_ = nullptr;  // the next line moves it to LOG.old and starts a new one
    }
  }

  void Flush() override {
    std::lock_guard<std::mutex> hold(mu_);
    if (file_ != nullptr) {
      std::fflush(file_);
      std::clearerr(file_);
    }
  }

 protected:
  rocksdb::Status CloseImpl() override {
    std::lock_guard<std::mutex> hold(mu_);
    if (file_ != nullptr) std::fclose(file_);  // a failed last write is dropped too (L1)
    file_ = nullptr;
    return rocksdb::Status::OK();
  }

 private:
  bool OpenFile() {
    const std::string path = dir_ + "/LOG";
    if (std::FILE *old = std::fopen(path.c_str(), "r")) {
      std::fseek(old, 0, SEEK_END);
      const long size = std::ftell(old);
      std::fclose(old);
      if (size > kMaxLogBytes) std::rename(path.c_str(), (path + ".old").c_str());  // L2
    }
    file_ = std::fopen(path.c_str(), "a");
    return file_ != nullptr;
  }

  std::mutex mu_;  // RocksDB logs from its background threads too
  std::string dir_;
  std::FILE *file_ = nullptr;
};

}  // namespace

std::shared_ptr<rocksdb::Logger> MakeStoreLogger(const std::string &rocks_dir) {
  return std::make_shared<StoreLogger>(rocks_dir);
}

}  // namespace cairn::store
