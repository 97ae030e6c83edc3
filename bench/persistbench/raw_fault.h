// The raw cost of a page fault from the store: a protection trap plus one ReadPage.
#pragma once

#include <cstdint>
#include <string>

namespace persistbench {

struct RawFigures {
  uint64_t pages = 0;      // pages trapped and read
  double us_per_page = 0;  // wall time per page, microseconds
  uint64_t checksum = 0;   // (keeps the reads from being optimized away)
};

// Maps one no-access frame per page of database `db_name` in the store at `store_dir` (which
// this process must not have open otherwise) and touches them all in a random order.
RawFigures MeasureRawFaults(const std::string &store_dir, const std::string &db_name);

}  // namespace persistbench
