// A set of int ids for the traversals' "visited" marks, cleared in O(1): open addressing with
// linear probing, each slot stamped with the generation that filled it. oo7/idset.cairn is the
// same structure, so both sides pay the same for it.
#ifndef CAIRN_OO7_PEERS_ID_SET_H
#define CAIRN_OO7_PEERS_ID_SET_H

#include <algorithm>
#include <cstdint>
#include <vector>

namespace oo7 {

class IdSet {
 public:
  IdSet() { Resize(64); }

  // Forgets every id.
  void Clear() {
    count_ = 0;
    if (++gen_ == 0) {  // wrapped: stamps of old generations could look current
      std::fill(stamp_.begin(), stamp_.end(), 0);
      gen_ = 1;
    }
  }

  // Adds id; false if it was there already.
  bool Insert(int64_t id) {
    if ((count_ + 1) * 2 > static_cast<int64_t>(keys_.size())) Grow();
    uint64_t i = Slot(id);
    while (stamp_[i] == gen_) {
      if (keys_[i] == id) return false;
      i = (i + 1) & mask_;
    }
    stamp_[i] = gen_;
    keys_[i] = id;
    count_++;
    return true;
  }

  int64_t Size() const { return count_; }

 private:
  // The multiplicative hash of oo7/idset.cairn: id * 0x9E3779B97F4A7C15, top bits.
  uint64_t Slot(int64_t id) const {
    return (static_cast<uint64_t>(id) * 0x9E3779B97F4A7C15ull) >> shift_;
  }

  void Resize(size_t slots) {
    keys_.assign(slots, 0);
    stamp_.assign(slots, 0);
    mask_ = slots - 1;
    shift_ = 64;
    for (size_t s = slots; s > 1; s >>= 1) shift_--;
    gen_ = 1;
    count_ = 0;
  }

  void Grow() {
    std::vector<int64_t> old_keys = keys_;
    std::vector<uint32_t> old_stamp = stamp_;
    uint32_t old_gen = gen_;
    Resize(keys_.size() * 2);
    for (size_t i = 0; i < old_keys.size(); i++)
      if (old_stamp[i] == old_gen) Insert(old_keys[i]);
  }

  std::vector<int64_t> keys_;
  std::vector<uint32_t> stamp_;
  uint64_t mask_ = 0;
  int shift_ = 64;
  uint32_t gen_ = 1;
  int64_t count_ = 0;
};

}  // namespace oo7

#endif  // CAIRN_OO7_PEERS_ID_SET_H
