// CRC32C (Castagnoli): the checksum of every stored page and catalogue value.
//
// Polynomial 0x1EDC6F41 (reflected 0x82F63B78), initial value and final xor 0xFFFFFFFF, so
// Crc32c("123456789") == 0xE3069283. Uses the SSE4.2 crc32 instruction when the CPU has it, else
// a table-driven software loop; both give the same value (tests/store/checksum_test.cpp).
#ifndef CAIRN_STORE_CRC32C_H
#define CAIRN_STORE_CRC32C_H

#include <cstddef>
#include <cstdint>

namespace cairn::store {

// The CRC32C of data[0..n), continuing from `crc` (the result of a previous call, or 0 to start).
uint32_t Crc32c(const void *data, size_t n, uint32_t crc = 0);

// The same, always with the portable software loop (for tests and machines without SSE4.2).
uint32_t Crc32cPortable(const void *data, size_t n, uint32_t crc = 0);

// True when Crc32c uses the hardware instruction.
bool Crc32cIsHardware();

}  // namespace cairn::store

#endif  // CAIRN_STORE_CRC32C_H
