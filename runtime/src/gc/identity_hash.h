// Identity hashes (cairn_identity_hash): a hash per object that stays the same while the object
// lives, wherever the collector moves it, when it becomes persistent, and in later processes.
//
// The scheme:
//   - A transient object gets its hash when it is first asked for: a counter, mixed. The counter
//     starts at a random value in each process: an object hashed while transient keeps its
//     hash in its database, so a counter that started at the same value in every process would
//     give the first object hashed in a later process the hash of one already stored. It is kept
//     here, keyed by the object's address; a collection rekeys the entries of the objects it
//     moves and drops those of the objects that died. Objects never asked for cost nothing.
//   - A persistent object never moves within its database while programs run: persistent pages
//     are promoted, never copied, and a running program frees no page. So its hash is derived
//     from its location, (database id, page id, payload offset), and needs no storage, in this
//     process or a later one, whichever heap frame its page is faulted into. Two tools do free
//     pages, and later commits reuse them: `cairn db gc` frees pages holding only dead objects
//     (whose hashes no one holds any more), and an upgrade (persist/upgrade.h) moves objects
//     that grew, recording at the new place the hash the old place gave them, and frees the
//     old page when nothing is left on it. An object a later commit puts at the same place of
//     that page and never hashed while transient then has the same hash as the moved one: two
//     live objects may share an identity hash (hash tables stay right: they compare keys by
//     identity; two objects may print the same `Type#N`). A generation per page would end it.
//   - Unless it had a hash while it was transient: then the commit that made it persistent
//     records that hash in its database (an 'H' entry of the store, written in the same
//     transaction as its page), and a recorded hash wins over the derived one.
//
// Invariants of the table:
//   H1. Outside a collection and a commit, every key is the payload address of a live transient
//       object, and its value is the hash that object was given.
//   H2. A collection rekeys each entry to its object's address after the collection (the
//       object was copied, promoted or pinned) and drops the entries of objects that died; it
//       does so before dead objects on pinned pages become fillers (P8).
//   H3. Between a stabilization and the end of its commit, the entries of the objects it made
//       persistent are keyed by their persistent addresses. The commit writes them to the store
//       and, once it succeeds, moves them out of this table (persist/identity.cpp); a commit that
//       fails leaves them (their pages are transient again).
#pragma once

#include <sys/random.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <ctime>
#include <unordered_map>
#include <vector>

namespace cairn::gc {

// A 64-bit mix (splitmix64's finalizer): a bijection that spreads nearby inputs over all bits.
constexpr uint64_t MixHash(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

// The hash of a persistent object without a recorded one: distinct for distinct objects of
// one database (page < 2^44 and offset < 2^13 are packed, then mixed by a bijection).
constexpr uint64_t LocationHash(uint64_t database_id, uint64_t page, uint32_t offset) {
  return MixHash((page << 13 | offset) ^ MixHash(database_id ^ 0x6361697268617368ull));
}

// A random start for the counter of transient hashes (the OS's random source; the time and the
// process id if it has none).
inline uint64_t IdentityCounterStart() {
  uint64_t seed = 0;
  if (getrandom(&seed, sizeof seed, GRND_NONBLOCK) != ssize_t(sizeof seed))
    seed = MixHash(uint64_t(time(nullptr)) ^ (uint64_t(getpid()) << 32) ^ uint64_t(clock()));
  return seed;
}

class IdentityHashes {
 public:
  IdentityHashes() : given_(IdentityCounterStart()) {}

  // The hash of the transient object at `addr`, given now if it has none.
  uint64_t HashOf(uintptr_t addr) {
    auto [it, fresh] = map_.try_emplace(addr, 0);
    if (fresh) it->second = MixHash(++given_ * 0x9e3779b97f4a7c15ull);
    return it->second;
  }

  // H2: where(addr) is the object's address after the collection, or 0 if it died.
  template <class F>
  void Relocate(F &&where) {
    if (map_.empty()) return;
    std::unordered_map<uintptr_t, uint64_t> next;
    next.reserve(map_.size());
    for (const auto &[addr, hash] : map_)
      if (uintptr_t to = where(addr)) next.emplace(to, hash);
    map_.swap(next);
  }

  // Calls f(addr, hash) for every entry.
  template <class F>
  void ForEach(F &&f) const {
    for (const auto &[addr, hash] : map_) f(addr, hash);
  }
  void Erase(uintptr_t addr) { map_.erase(addr); }
  size_t size() const { return map_.size(); }

 private:
  std::unordered_map<uintptr_t, uint64_t> map_;  // H1
  uint64_t given_;  // the counter: distinct values give distinct hashes (a bijection)
};

}  // namespace cairn::gc
