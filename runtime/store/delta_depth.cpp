// DeltaDepth (delta_depth.h).
#include "delta_depth.h"

namespace cairn::store {

bool DeltaDepth::AdmitDelta(DatabaseId db, PageNo page) {
  std::lock_guard<std::mutex> g(mu_);
  uint32_t &n = count_[Key{db, page}];
  if (n >= max_) return false;
  n++;
  return true;
}

void DeltaDepth::Whole(DatabaseId db, PageNo page) {
  std::lock_guard<std::mutex> g(mu_);
  count_.erase(Key{db, page});
}

void DeltaDepth::Reset() {
  std::lock_guard<std::mutex> g(mu_);
  count_.clear();
}

size_t DeltaDepth::tracked() const {
  std::lock_guard<std::mutex> g(mu_);
  return count_.size();
}

namespace {

class SealListenerImpl : public rocksdb::EventListener {
 public:
  explicit SealListenerImpl(std::shared_ptr<DeltaDepth> depth) : depth_(std::move(depth)) {}
  void OnMemTableSealed(const rocksdb::MemTableInfo &) override { depth_->Reset(); }

 private:
  std::shared_ptr<DeltaDepth> depth_;
};

}  // namespace

std::shared_ptr<rocksdb::EventListener> DeltaDepth::SealListener(
    std::shared_ptr<DeltaDepth> depth) {
  return std::make_shared<SealListenerImpl>(std::move(depth));
}

}  // namespace cairn::store
