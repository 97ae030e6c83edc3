// The OO7 configurations (../shared/design/oo7.md, "Configurations"), the same table as
// oo7/config.cairn: the peers and Cairn must build the same instance from the same name.
#ifndef CAIRN_OO7_PEERS_CONFIG_H
#define CAIRN_OO7_PEERS_CONFIG_H

#include <cstdint>
#include <optional>
#include <string>

namespace oo7 {

// Sizes of one OO7 database. Invariant: every count is >= 1 and assm_levels >= 2 (a design
// root is a complex assembly; base assemblies are the last level).
struct Config {
  std::string name;             // "tiny", "small", "medium", "large"
  int64_t atomic_per_comp = 0;  // atomic parts per composite part
  int64_t conn_per_atomic = 0;  // connections out of each atomic part (3, 6 or 9)
  int64_t doc_size = 0;         // bytes of each composite part's document
  int64_t manual_size = 0;      // bytes of each module's manual
  int64_t comp_per_module = 0;  // composite parts per module
  int64_t assm_per_assm = 0;    // sub-assemblies per complex assembly
  int64_t assm_levels = 0;      // levels of the assembly hierarchy (the last are base assemblies)
  int64_t comp_per_assm = 0;    // composite parts per base assembly, private and shared each
  int64_t modules = 0;

  int64_t Composites() const { return comp_per_module * modules; }
  int64_t AtomicParts() const { return Composites() * atomic_per_comp; }
};

// The configuration of that name ("tiny" is ours: a few hundred parts for the tests) with
// conns connections per part; nullopt for an unknown name or a conns other than 3, 6, 9.
std::optional<Config> ConfigNamed(const std::string &name, int64_t conns);

}  // namespace oo7

#endif  // CAIRN_OO7_PEERS_CONFIG_H
