// CRC32C and the page and catalogue codecs.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "catalogue.h"
#include "crc32c.h"
#include "keys.h"
#include "page_codec.h"

namespace cairn::store {
namespace {

TEST(Crc32c, KnownValues) {
  EXPECT_EQ(Crc32c("123456789", 9), 0xE3069283u);
  EXPECT_EQ(Crc32cPortable("123456789", 9), 0xE3069283u);
  EXPECT_EQ(Crc32c("", 0), 0u);
  std::string zeros(32, '\0');
  EXPECT_EQ(Crc32c(zeros.data(), zeros.size()), 0x8A9136AAu);  // RFC 3720, B.4
  std::string ones(32, '\xff');
  EXPECT_EQ(Crc32c(ones.data(), ones.size()), 0x62A8AB43u);
}

TEST(Crc32c, HardwareAndPortableAgreeAndContinue) {
  std::mt19937_64 rng(7);
  std::string data(10007, '\0');
  for (auto &c : data) c = static_cast<char>(rng());
  for (size_t n : {0u, 1u, 7u, 8u, 9u, 63u, 4096u, 10007u}) {
    EXPECT_EQ(Crc32c(data.data(), n), Crc32cPortable(data.data(), n)) << n;
    uint32_t split = Crc32c(data.data() + n / 3, n - n / 3, Crc32c(data.data(), n / 3));
    EXPECT_EQ(split, Crc32c(data.data(), n)) << n;
  }
}

// The hardware path takes inputs of 768 bytes and more as three interleaved streams and joins
// their CRCs: every length around a block's edge, at every alignment, from any starting CRC,
// must give the portable loop's value.
TEST(Crc32c, ThreeStreamBlocksAgreeWithThePortableLoop) {
  std::mt19937_64 rng(11);
  std::string data(8300, '\0');
  for (auto &c : data) c = static_cast<char>(rng());
  for (size_t n : {767u, 768u, 769u, 775u, 1535u, 1536u, 1537u, 2304u, 8192u, 8224u, 8299u})
    for (size_t at : {0u, 1u, 3u})
      for (uint32_t from : {0u, 0xE3069283u}) {
        if (at + n > data.size()) continue;
        EXPECT_EQ(Crc32c(data.data() + at, n, from), Crc32cPortable(data.data() + at, n, from))
            << n << " at " << at;
      }
  std::string zeros(8192, '\0');
  EXPECT_EQ(Crc32c(zeros.data(), zeros.size()), Crc32cPortable(zeros.data(), zeros.size()));
}

TEST(PageCodec, RoundTripAndEveryBitFlipDetected) {
  std::string contents(kPageSize, '\0');
  for (size_t i = 0; i < contents.size(); ++i) contents[i] = static_cast<char>(i * 31);
  std::string stored(kStoredPageSize, '\0');
  EncodePage(7, 42, contents.data(), stored.data());
  std::string back(kPageSize, 'x'), problem;
  ASSERT_TRUE(DecodePage(stored, 7, 42, back.data(), &problem)) << problem;
  EXPECT_EQ(back, contents);
  // Under another key: the header does not match.
  EXPECT_FALSE(DecodePage(stored, 7, 43, nullptr, &problem));
  EXPECT_NE(problem.find("page 42"), std::string::npos) << problem;
  EXPECT_FALSE(DecodePage(stored, 8, 42, nullptr, &problem));
  // Any single flipped bit, header or contents, fails the checksum.
  for (size_t byte : {0u, 3u, 4u, 9u, 20u, 33u, 5000u, 8223u}) {
    std::string bad = stored;
    bad[byte] ^= 0x10;
    EXPECT_FALSE(DecodePage(bad, 7, 42, nullptr, &problem)) << byte;
  }
  EXPECT_FALSE(DecodePage(stored.substr(1), 7, 42, nullptr, &problem));
  EXPECT_NE(problem.find("size"), std::string::npos);
}

TEST(CatalogueCodec, RoundTripsAndDetectsDamage) {
  DatabaseRecord r;
  r.id = 3;
  r.root = 0x1234;
  r.page_count = 99;
  r.free_pages = 4;
  r.type_count = 2;
  r.created_unix = 1700000000;
  r.name = "oo7";
  std::string v = EncodeDatabaseRecord(r);
  DatabaseRecord d;
  std::string problem;
  ASSERT_TRUE(DecodeDatabaseRecord(v, &d, &problem)) << problem;
  EXPECT_EQ(d.id, 3u);
  EXPECT_EQ(d.root, 0x1234u);
  EXPECT_EQ(d.page_count, 99u);
  EXPECT_EQ(d.free_pages, 4u);
  EXPECT_EQ(d.type_count, 2u);
  EXPECT_EQ(d.name, "oo7");
  v[10] ^= 1;
  EXPECT_FALSE(DecodeDatabaseRecord(v, &d, &problem));
  EXPECT_NE(problem.find("checksum"), std::string::npos);

  StoreHeader h;
  h.page_size = kPageSize;
  h.next_database_id = 5;
  StoreHeader h2;
  ASSERT_TRUE(DecodeStoreHeader(EncodeStoreHeader(h), &h2, &problem));
  EXPECT_EQ(h2.next_database_id, 5u);
  EXPECT_EQ(h2.format_version, kStoreFormatVersion);

  uint32_t index = 0;
  std::string layout;
  ASSERT_TRUE(DecodeTypeEntry(EncodeTypeEntry(9, "abc"), &index, &layout, &problem));
  EXPECT_EQ(index, 9u);
  EXPECT_EQ(layout, "abc");
  uint64_t fp = 0, id = 0;
  ASSERT_TRUE(DecodeTypeIndexEntry(EncodeTypeIndexEntry(77), &fp, &problem));
  EXPECT_EQ(fp, 77u);
  ASSERT_TRUE(DecodeNameEntry(EncodeNameEntry(12), &id, &problem));
  EXPECT_EQ(id, 12u);
}

TEST(Keys, SortNumericallyAndParse) {
  PageKey a(KeyKind::kPage, 1, 255), b(KeyKind::kPage, 1, 256), c(KeyKind::kPage, 2, 1);
  EXPECT_LT(a.view(), b.view());
  EXPECT_LT(b.view(), c.view());
  uint64_t n = 0;
  ASSERT_TRUE(ParseKeyNumber(b.view(), &n));
  EXPECT_EQ(n, 256u);
  ASSERT_TRUE(ParseKeyNumber(TypeIndexKey(1, 70000), &n));
  EXPECT_EQ(n, 70000u);
  EXPECT_TRUE(std::string_view(a.view()).starts_with(DatabasePrefix(KeyKind::kPage, 1)));
}

}  // namespace
}  // namespace cairn::store
