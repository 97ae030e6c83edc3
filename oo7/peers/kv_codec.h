// How the key-value peer lays out its records: one RocksDB key per object (a tag byte and the
// object id, big-endian so that ids sort), the object's fields encoded in order (int64
// little-endian, texts and bags as a 32-bit count then their contents, references as object
// ids). Index entries are keys too (kv_db.h lists them).
#ifndef CAIRN_OO7_PEERS_KV_CODEC_H
#define CAIRN_OO7_PEERS_KV_CODEC_H

#include <cstdint>
#include <string>
#include <string_view>

#include "schema.h"

namespace oo7 {

// The key tag of each record type.
template <class T>
constexpr char kTag = 0;
template <>
inline constexpr char kTag<AtomicPart<IdRefs>> = 'A';
template <>
inline constexpr char kTag<Connection<IdRefs>> = 'C';
template <>
inline constexpr char kTag<CompositePart<IdRefs>> = 'P';
template <>
inline constexpr char kTag<Document<IdRefs>> = 'D';
template <>
inline constexpr char kTag<Manual<IdRefs>> = 'N';
template <>
inline constexpr char kTag<Assembly<IdRefs>> = 'S';
template <>
inline constexpr char kTag<Module<IdRefs>> = 'M';

// tag, then n big-endian with the sign bit flipped (so signed order is byte order).
std::string KeyOf(char tag, int64_t n);
// KeyOf(tag, a) followed by b the same way (the date index: date, then part id).
std::string KeyOf2(char tag, int64_t a, int64_t b);
// The number at byte offset `at` of a key made by KeyOf/KeyOf2.
int64_t KeyNumber(std::string_view key, size_t at);
template <class T>
std::string KeyOf(Oid<T> ref) {
  return KeyOf(kTag<T>, ref.v);
}

void Encode(const AtomicPart<IdRefs> &o, std::string *out);
void Encode(const Connection<IdRefs> &o, std::string *out);
void Encode(const CompositePart<IdRefs> &o, std::string *out);
void Encode(const Document<IdRefs> &o, std::string *out);
void Encode(const Manual<IdRefs> &o, std::string *out);
void Encode(const Assembly<IdRefs> &o, std::string *out);
void Encode(const Module<IdRefs> &o, std::string *out);

// Each returns false if the bytes are not a whole record of that type.
bool Decode(std::string_view in, AtomicPart<IdRefs> *o);
bool Decode(std::string_view in, Connection<IdRefs> *o);
bool Decode(std::string_view in, CompositePart<IdRefs> *o);
bool Decode(std::string_view in, Document<IdRefs> *o);
bool Decode(std::string_view in, Manual<IdRefs> *o);
bool Decode(std::string_view in, Assembly<IdRefs> *o);
bool Decode(std::string_view in, Module<IdRefs> *o);

}  // namespace oo7

#endif  // CAIRN_OO7_PEERS_KV_CODEC_H
