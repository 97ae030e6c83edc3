// FrameSet: a set of frames (page indexes of run heads) with O(1) insertion, removal and
// membership, and an order to walk (insertion order, disturbed by removals: the last member
// takes the place of a removed one). Persistence keeps its clean pages (the CLOCK ring) and its
// modified pages in one each (persistence.h, D7).
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace cairn::persist {

class FrameSet {
 public:
  // False if it was a member already.
  bool Add(size_t frame) {
    auto [it, added] = pos_.emplace(uint32_t(frame), uint32_t(members_.size()));
    if (added) members_.push_back(uint32_t(frame));
    return added;
  }
  // False if it was not a member.
  bool Remove(size_t frame) {
    auto it = pos_.find(uint32_t(frame));
    if (it == pos_.end()) return false;
    uint32_t pos = it->second;
    pos_.erase(it);
    uint32_t last = members_.back();
    members_.pop_back();
    if (pos < members_.size()) {
      members_[pos] = last;
      pos_[last] = pos;
    }
    return true;
  }
  bool Contains(size_t frame) const { return pos_.count(uint32_t(frame)) != 0; }
  size_t size() const { return members_.size(); }
  bool empty() const { return members_.empty(); }
  size_t operator[](size_t i) const { return members_[i]; }
  const std::vector<uint32_t> &members() const { return members_; }

 private:
  std::vector<uint32_t> members_;
  std::unordered_map<uint32_t, uint32_t> pos_;
};

}  // namespace cairn::persist
