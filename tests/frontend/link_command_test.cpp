// The linker's arguments for an in-process link (driver/inprocess_link.h), made from a C++
// compiler driver's `-###` answer: collect2's own options dropped, the program's inputs where
// the probe object was, its output after -o, everything else (startup objects, library
// folders, the C and C++ libraries, the dynamic linker) kept in order.
#include <gtest/gtest.h>

#include <algorithm>

#include "driver/inprocess_link.h"

namespace cairn::driver {
namespace {

using Args = std::vector<std::string>;

// GCC 12's answer on Debian 12 (abridged), for `c++ -fuse-ld=lld -### p.o -o p`.
const char kGcc[] =
    "Using built-in specs.\n"
    "COLLECT_GCC=/usr/bin/c++\n"
    " \"/usr/lib/gcc/x86_64-linux-gnu/12/cc1plus\" \"-quiet\" \"-o\" \"x.s\"\n"
    " /usr/lib/gcc/x86_64-linux-gnu/12/collect2 -plugin /usr/lib/gcc/12/liblto_plugin.so "
    "\"-plugin-opt=/usr/lib/gcc/12/lto-wrapper\" \"-plugin-opt=-fresolution=/tmp/cc.res\" "
    "--build-id --eh-frame-hdr -m elf_x86_64 \"--hash-style=gnu\" -dynamic-linker "
    "/lib64/ld-linux-x86-64.so.2 -pie \"-fuse-ld=lld\" -o p /usr/lib/Scrt1.o /usr/lib/crti.o "
    "-L/usr/lib/gcc/x86_64-linux-gnu/12 p.o \"-lstdc++\" -lm -lc /usr/lib/crtn.o\n"
    "COLLECT_GCC_OPTIONS='-fuse-ld=lld' '-o' 'p'\n";

TEST(LinkCommand, FromGccTheLinkersArgumentsWithTheProgramsInputs) {
  auto args = LinkCommand(kGcc, "p.o", "p", {"a.o", "b.o", "-lpthread"}, "/out/prog");
  ASSERT_TRUE(args.has_value());
  EXPECT_EQ(*args, (Args{"ld.lld",
                         "--build-id",
                         "--eh-frame-hdr",
                         "-m",
                         "elf_x86_64",
                         "--hash-style=gnu",
                         "-dynamic-linker",
                         "/lib64/ld-linux-x86-64.so.2",
                         "-pie",
                         "-o",
                         "/out/prog",
                         "/usr/lib/Scrt1.o",
                         "/usr/lib/crti.o",
                         "-L/usr/lib/gcc/x86_64-linux-gnu/12",
                         "a.o",
                         "b.o",
                         "-lpthread",
                         "-lstdc++",
                         "-lm",
                         "-lc",
                         "/usr/lib/crtn.o"}));
}

// Link stubs (driver/link_stubs.h): an argument of the probe (-lstdc++) or an input named in
// `replace` is replaced, and the count of keys found says whether every stub was used.
TEST(LinkCommand, ReplacesTheArgumentsOfStubs) {
  size_t replaced = 9;
  auto args = LinkCommand(
      kGcc, "p.o", "p", {"a.o", "/usr/lib/librocksdb.so"}, "out",
      {{"-lstdc++", "/stubs/libstdc++.so"}, {"/usr/lib/librocksdb.so", "/stubs/librocksdb.so"}},
      &replaced);
  ASSERT_TRUE(args.has_value());
  EXPECT_EQ(replaced, 2u);
  auto has = [&](const std::string &a) {
    return std::find(args->begin(), args->end(), a) != args->end();
  };
  EXPECT_TRUE(has("/stubs/libstdc++.so"));
  EXPECT_TRUE(has("/stubs/librocksdb.so"));
  EXPECT_FALSE(has("-lstdc++"));
  EXPECT_FALSE(has("/usr/lib/librocksdb.so"));
  EXPECT_TRUE(has("-lm"));
  // A key that is not among the arguments is not counted.
  args = LinkCommand(kGcc, "p.o", "p", {"a.o"}, "out",
                     {{"/usr/lib/librocksdb.so", "/stubs/librocksdb.so"}}, &replaced);
  ASSERT_TRUE(args.has_value());
  EXPECT_EQ(replaced, 0u);
}

TEST(LinkCommand, QuotedWordsKeepSpacesAndEscapes) {
  const char clang[] =
      " \"/usr/bin/ld.lld\" \"-pie\" \"-o\" \"p\" \"p.o\" "
      "\"-L/opt/my libs\" \"-rpath=a\\\"b\\\\c\"\n";
  auto args = LinkCommand(clang, "p.o", "p", {"x y.o"}, "out");
  ASSERT_TRUE(args.has_value());
  EXPECT_EQ(*args,
            (Args{"ld.lld", "-pie", "-o", "out", "x y.o", "-L/opt/my libs", "-rpath=a\"b\\c"}));
}

TEST(LinkCommand, NothingFromAnAnswerWithoutOneLinkCommand) {
  EXPECT_FALSE(LinkCommand("", "p.o", "p", {}, "out").has_value());
  EXPECT_FALSE(LinkCommand("gcc: error: no input files\n", "p.o", "p", {}, "out").has_value());
  // The object, but no `-o p`; or the output named twice.
  EXPECT_FALSE(LinkCommand(" ld p.o -o q\n", "p.o", "p", {}, "out").has_value());
  EXPECT_FALSE(LinkCommand(" ld p.o -o p -o p\n", "p.o", "p", {}, "out").has_value());
  // Two commands that each link it.
  EXPECT_FALSE(LinkCommand(" ld p.o -o p\n ld p.o -o p\n", "p.o", "p", {}, "out").has_value());
}

}  // namespace
}  // namespace cairn::driver
