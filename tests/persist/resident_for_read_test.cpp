// Handing a persistent buffer to write(2) (cairn/persist.h, "System calls"): the kernel does not
// fault a page in, it fails with EFAULT; cairn_make_resident_for_read loads the pages first,
// read-only, so the write succeeds and nothing is written to the database at the next commit
// (cairn_make_resident, the writable form, makes them modified: the control).
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "child.h"
#include "persist_test.h"
#include "persist_types.h"

using namespace cairn_ptest;

namespace {

constexpr int64_t kBigBytes = 20000;  // a large object of three pages
constexpr int64_t kSmallBytes = 100;

char Pattern(int64_t i) { return char('a' + i % 23); }

void *NewText(int64_t n) {
  void *t = cairn_malloc_array(&cairn_text_type, size_t(n));
  for (int64_t i = 0; i < n; i++) ArrayData<char>(t)[i] = Pattern(i);
  return t;
}

}  // namespace

// Database "blobs": root Node{left: a text of 20,000 bytes, right: one of 100 bytes}.
PERSIST_CHILD(ReadIo_Write) {
  OpenStore(args);
  cairn_db *db = CreateDb("blobs");
  CK_OK(cairn_txn_begin());
  Node *root = NewNode(1);
  root->left = static_cast<Node *>(NewText(kBigBytes));
  root->right = static_cast<Node *>(NewText(kSmallBytes));
  CK_OK(cairn_db_set_root(db, root));
  CK_OK(cairn_txn_commit());
  return 0;
}

// args: how (none | for_read | writable). Writes both texts to a file with write(2), reads the
// file back, commits (the writable form changing the first and last byte of each text first),
// and reports the last commit's pages written.
PERSIST_CHILD(ReadIo_Send) {
  const std::string how = args.args.at(0);
  OpenStore(args);
  cairn_db *db = OpenDb("blobs");
  CK_OK(cairn_txn_begin());
  Node *root = RootAs<Node>(db);
  const std::string path = args.store + ".out";
  int fd = open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
  CK(fd >= 0) << strerror(errno);
  int64_t total = 0;
  const std::pair<void *, int64_t> texts[] = {{root->left, kBigBytes}, {root->right, kSmallBytes}};
  for (const auto &[text, n] : texts) {
    // Only the reference has been read: the big text's pages are not loaded yet (not even
    // its length is read, which would load them).
    const char *bytes = ArrayData<char>(text);
    if (how == "for_read") cairn_make_resident_for_read(bytes, size_t(n));
    if (how == "writable") cairn_make_resident(const_cast<char *>(bytes), size_t(n));
    ssize_t w = write(fd, bytes, size_t(n));
    if (how == "none") {
      CK_EQ(w, -1);
      CK_EQ(errno, EFAULT);
      Say("EFAULT=1\n");
      close(fd);
      CK_OK(cairn_txn_abort());
      return 0;
    }
    CK_EQ(w, n) << strerror(errno);
    total += n;
  }
  CK_EQ(cairn_array_length(root->left), size_t(kBigBytes));
  std::string back(size_t(total), '\0');
  CK_EQ(pread(fd, back.data(), back.size(), 0), total);
  close(fd);
  for (int64_t i = 0; i < kBigBytes; i++) CK_EQ(back[size_t(i)], Pattern(i)) << " at byte " << i;
  for (int64_t i = 0; i < kSmallBytes; i++) CK_EQ(back[size_t(kBigBytes + i)], Pattern(i));
  Say("WRITE_FAULTS=%lu\n", Stats().write_faults);
  if (how == "writable") {
    // Writable, the pages are modified: what a program (or a read(2)) writes into them is
    // written by the commit (a page written with what it held is not: D12, D16).
    for (const auto &[text, n] : texts) {
      char *bytes = ArrayData<char>(text);
      bytes[0] ^= 0x20;
      bytes[n - 1] ^= 0x20;
    }
  }
  CK_OK(cairn_txn_commit());
  Say("PAGES_WRITTEN=%lu\n", LastCommitStats().pages_written);
  return 0;
}

class PersistResidentForRead : public PersistTest {};

TEST_F(PersistResidentForRead, WriteFromAPageNotLoadedFailsWithEFAULT) {
  ASSERT_CHILD_OK(Run("ReadIo_Write"));
  ChildResult r = Run("ReadIo_Send", {"none"});
  ASSERT_CHILD_OK(r);
  EXPECT_EQ(r.Value("EFAULT"), "1") << r.Describe();
}

TEST_F(PersistResidentForRead, LoadsThePagesWithoutMarkingThemModified) {
  ASSERT_CHILD_OK(Run("ReadIo_Write"));
  ChildResult r = Run("ReadIo_Send", {"for_read"});
  ASSERT_CHILD_OK(r);
  EXPECT_EQ(ValueOf(r, "WRITE_FAULTS"), 0u) << r.Describe();
  EXPECT_EQ(r.Value("PAGES_WRITTEN"), "0") << "the commit wrote pages\n" << r.Describe();
  // The control: the writable form makes them modified, and the commit writes what changed
  // in them (the first and last page of the big text, the small one).
  ChildResult w = Run("ReadIo_Send", {"writable"});
  ASSERT_CHILD_OK(w);
  EXPECT_GE(ValueOf(w, "PAGES_WRITTEN"), 3u) << w.Describe();
}
