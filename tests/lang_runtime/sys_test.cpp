// std.sys support (cairn/lang.h): child processes, the environment, the page cache, the store's
// folder, and the runtime's figures as a program that commits sees them.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "program.h"

namespace cairn_langtest {
namespace {

using SysTest = LangTest;

// A [text] of the given words (as an [any], which is what run reads).
void *Argv(std::initializer_list<const char *> words) {
  void *a = RefArray(words.size());
  size_t i = 0;
  for (const char *w : words) SetRef(a, i++, Text(w));
  return a;
}

TEST_F(SysTest, RunReturnsTheExitStatusAndCapturesOutput) {
  EXPECT_EQ(cairn_sys_run(&kLoc, Argv({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}), 1), 3);
  EXPECT_EQ(Bytes(cairn_sys_run_output()), "out\n");
  EXPECT_EQ(cairn_sys_run(&kLoc, Argv({"true"}), 0), 0);  // found through PATH
  EXPECT_EQ(Bytes(cairn_sys_run_output()), "");
  EXPECT_EQ(cairn_sys_run(&kLoc, Argv({"/bin/sh", "-c", "kill -9 $$"}), 1), 128 + 9);
}

TEST_F(SysTest, RunErrors) {
  EXPECT_EXIT(cairn_sys_run(&kLoc, Argv({"no-such-program-cairn"}), 1),
              ::testing::ExitedWithCode(CAIRN_EXIT_RUNTIME_ERROR),
              ::testing::Eq(ErrorAt(kLoc,
                                    "run: cannot start 'no-such-program-cairn': No such "
                                    "file or directory")));
  EXPECT_EXIT(cairn_sys_run(&kLoc, RefArray(0), 0),
              ::testing::ExitedWithCode(CAIRN_EXIT_RUNTIME_ERROR),
              ::testing::Eq(ErrorAt(kLoc, "run: no program given (the argument list is empty)")));
}

TEST_F(SysTest, Environment) {
  cairn_sys_setenv(&kLoc, Text("CAIRN_SYS_TEST_VAR"), Text("v 1"));
  EXPECT_EQ(Bytes(cairn_sys_getenv(&kLoc, Text("CAIRN_SYS_TEST_VAR"))), "v 1");
  EXPECT_EQ(cairn_sys_run(&kLoc, Argv({"/bin/sh", "-c", "echo \"$CAIRN_SYS_TEST_VAR\""}), 1), 0);
  EXPECT_EQ(Bytes(cairn_sys_run_output()), "v 1\n");  // children see it
  cairn_sys_setenv(&kLoc, Text("CAIRN_SYS_TEST_VAR"), nullptr);
  EXPECT_EQ(cairn_sys_getenv(&kLoc, Text("CAIRN_SYS_TEST_VAR")), nullptr);
}

TEST_F(SysTest, SelfPathPidLoad) {
  std::string self = Bytes(cairn_sys_self_path());
  EXPECT_EQ(std::filesystem::path(self).filename(), "cairn_lang_runtime_tests");
  EXPECT_EQ(cairn_sys_pid(), static_cast<int64_t>(getpid()));
  EXPECT_GE(cairn_sys_load_average(), 0.0);
  const int64_t c0 = cairn_sys_cpu_nanos();
  volatile uint64_t spin = 0;
  for (int i = 0; i < 10000000; i++) spin = spin + static_cast<uint64_t>(i);
  EXPECT_GT(cairn_sys_cpu_nanos(), c0);
}

TEST_F(SysTest, FilesAndFolders) {
  cairn_ptest::TempDir dir;
  std::string deep = dir.Sub("a/b/c");
  EXPECT_FALSE(cairn_sys_file_exists(&kLoc, Text(deep)));
  EXPECT_TRUE(cairn_sys_make_dirs(&kLoc, Text(deep)));
  EXPECT_TRUE(cairn_sys_file_exists(&kLoc, Text(deep)));
  EXPECT_TRUE(cairn_sys_make_dirs(&kLoc, Text(deep)));  // already there
  std::ofstream(deep + "/f") << "x";
  EXPECT_FALSE(cairn_sys_make_dirs(&kLoc, Text(deep + "/f")));  // a file is in the way
}

TEST_F(SysTest, DropCachesEvictsTheFilesOfAFolder) {
  cairn_ptest::TempDir dir;
  std::filesystem::create_directories(dir.Sub("sub"));
  std::ofstream(dir.Sub("one")) << "1";
  std::ofstream(dir.Sub("sub/two")) << "2";
  EXPECT_EQ(
      Bytes(cairn_sys_drop_caches(&kLoc, Text(dir.path()))),
      "evicted: the 2 files of " + dir.path() + " from the OS page cache (posix_fadvise DONTNEED)");
}

// The store's folder before and after the store is opened, then the figures of one commit of a
// text root ("hello") and a collection.
LANG_PROGRAM(SysStoreAndFigures) {
  SayLine("before " + Bytes(cairn_sys_store_dir()));
  cairn_db *db = cairn_lang_db_create(&kLoc, Text("figures"));
  SayLine("after " + Bytes(cairn_sys_store_dir()));
  cairn_lang_atomic_begin(&kLoc);
  cairn_lang_db_set_root(&kLoc, db, Text("hello"));
  cairn_lang_atomic_commit(&kLoc);
  SayLine("commits " + std::to_string(cairn_sys_persist_stat(0)) + " last " +
          std::to_string(cairn_sys_last_commit_stat(0)));
  SayLine("objects " + std::to_string(cairn_sys_last_commit_stat(9)) + " written " +
          std::to_string(cairn_sys_last_commit_stat(4)));
  const int64_t types = cairn_sys_commit_types();
  for (int64_t i = 0; i < types; i++) {
    SayLine("type " + Bytes(cairn_sys_commit_type_name(&kLoc, i)) + " " +
            std::to_string(cairn_sys_commit_type_stat(&kLoc, i, 0)) + " " +
            std::to_string(cairn_sys_commit_type_stat(&kLoc, i, 1)));
  }
  int64_t before = cairn_sys_gc_stat(0);
  cairn_sys_collect();
  SayLine("collections +" + std::to_string(cairn_sys_gc_stat(0) - before));
  SayLine("no such field " + std::to_string(cairn_sys_persist_stat(99)) +
          std::to_string(cairn_sys_gc_stat(-1)));
  cairn_sys_commit_type_name(&kLoc, types);  // out of range: a runtime error
}

TEST(SysProgramTest, StoreFolderAndFigures) {
  cairn_ptest::TempDir dir;
  const std::string store = dir.Sub("store");
  ChildResult r = RunProgram("SysStoreAndFigures", {}, store);
  const std::string abs = std::filesystem::absolute(store).string();
  EXPECT_EQ(r.exit_code, CAIRN_EXIT_RUNTIME_ERROR) << r.err;
  // The commit made the root text persistent, and with it, if the stack pinned its page, the
  // other texts on that page (in place): the figures agree with each other, whatever their number.
  unsigned long objects = 0, written = 0, type_objects = 0, type_bytes = 0;
  char type[16] = {0};
  const size_t at = r.out.find("objects ");
  ASSERT_NE(at, std::string::npos) << r.out;
  ASSERT_EQ(std::sscanf(r.out.c_str() + at, "objects %lu written %lu\ntype %15s %lu %lu", &objects,
                        &written, type, &type_objects, &type_bytes),
            5)
      << r.out;
  EXPECT_GE(objects, 1u);
  EXPECT_EQ(written, 1u);
  EXPECT_EQ(std::string(type), "text");
  EXPECT_EQ(type_objects, objects);
  EXPECT_GE(type_bytes, 24u * objects);  // header, length, bytes rounded up to 8
  EXPECT_EQ(r.out.substr(0, at), "before " + abs + "\nafter " + abs + "\ncommits 1 last 1\n");
  EXPECT_NE(r.out.find("\ncollections +1\nno such field 00\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, ErrorAt(kLoc, "index out of range: index 1, length 1"));
}

}  // namespace
}  // namespace cairn_langtest
