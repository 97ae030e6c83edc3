// Fixed-width integers in stored bytes: little-endian in values, big-endian in keys (so that
// RocksDB's bytewise order is numeric order). docs/store-format.md lists where each is used.
#ifndef CAIRN_STORE_ENCODING_H
#define CAIRN_STORE_ENCODING_H

#include <cstdint>
#include <cstring>
#include <string>

namespace cairn::store {

inline void PutLe32(char *p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<char>(v >> (8 * i));
}
inline void PutLe64(char *p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<char>(v >> (8 * i));
}
inline void PutLe16(char *p, uint16_t v) {
  p[0] = static_cast<char>(v);
  p[1] = static_cast<char>(v >> 8);
}
inline uint16_t GetLe16(const char *p) {
  return static_cast<uint16_t>(static_cast<uint8_t>(p[0]) | (static_cast<uint8_t>(p[1]) << 8));
}
inline uint32_t GetLe32(const char *p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}
inline uint64_t GetLe64(const char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}
inline void PutBe64(char *p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<char>(v >> (56 - 8 * i));
}
inline void PutBe32(char *p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<char>(v >> (24 - 8 * i));
}
inline uint64_t GetBe64(const char *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}
inline uint32_t GetBe32(const char *p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

inline void AppendLe32(std::string *s, uint32_t v) {
  char b[4];
  PutLe32(b, v);
  s->append(b, 4);
}
inline void AppendLe64(std::string *s, uint64_t v) {
  char b[8];
  PutLe64(b, v);
  s->append(b, 8);
}
inline void AppendBe64(std::string *s, uint64_t v) {
  char b[8];
  PutBe64(b, v);
  s->append(b, 8);
}

}  // namespace cairn::store

#endif  // CAIRN_STORE_ENCODING_H
