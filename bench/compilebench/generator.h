// The program cairn-compilebench compiles: a deterministic, realistic Cairn program of about a
// given number of lines, and the output it must print.
#ifndef CAIRN_BENCH_COMPILEBENCH_GENERATOR_H
#define CAIRN_BENCH_COMPILEBENCH_GENERATOR_H

#include <cstdint>
#include <string>

namespace cairn::bench {

struct GeneratedProgram {
  std::string source;    // the whole main module
  int lines = 0;         // its number of lines
  int units = 0;         // units of code (each a few classes and functions, one line of output)
  std::string expected;  // what the program prints
};

// Units of five kinds in turn: a class hierarchy with overrides and a module variable; a generic
// stack with a generic function (for over a class); array algorithms and arrays of arrays; text
// built, counted and compared; generic functions, a generic pair and function values. Each
// unit's constants come from `seed`; the generator computes the unit's result itself. Units are
// added until the program has at least target_lines lines.
GeneratedProgram GenerateProgram(int target_lines, uint64_t seed);

}  // namespace cairn::bench

#endif  // CAIRN_BENCH_COMPILEBENCH_GENERATOR_H
