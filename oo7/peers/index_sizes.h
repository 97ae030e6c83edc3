// Entries in each index of an OO7 database: what the check command prints and the tests compare
// before Insert and after Delete.
#ifndef CAIRN_OO7_PEERS_INDEX_SIZES_H
#define CAIRN_OO7_PEERS_INDEX_SIZES_H

#include <cstdint>

namespace oo7 {

struct IndexSizes {
  int64_t part_by_id = 0;
  int64_t part_by_date = 0;
  int64_t comp_by_id = 0;
  int64_t doc_by_title = 0;
  int64_t doc_by_id = 0;
  int64_t base_by_id = 0;
  int64_t modules = 0;
};

}  // namespace oo7

#endif  // CAIRN_OO7_PEERS_INDEX_SIZES_H
