// Source files and positions. A position is a (file, byte offset) pair; it becomes
// file:line:col only when a diagnostic or a runtime error message is made, so every syntax
// node and every semantic node can carry one cheaply (style.md, 14).
#ifndef CAIRN_FRONTEND_SOURCE_SOURCE_H
#define CAIRN_FRONTEND_SOURCE_SOURCE_H

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cairn::front {

// A half-open byte range [begin, end) of one source file. file == kNoFile: no position.
struct Span {
  static constexpr uint32_t kNoFile = UINT32_MAX;
  uint32_t file = kNoFile;
  uint32_t begin = 0;
  uint32_t end = 0;

  bool valid() const { return file != kNoFile; }
  // The span from the start of a to the end of b (same file).
  static Span cover(Span a, Span b) {
    if (!a.valid()) return b;
    if (!b.valid()) return a;
    return Span{a.file, a.begin < b.begin ? a.begin : b.begin, a.end > b.end ? a.end : b.end};
  }
};

// 1-based line and column; the column counts characters (code points: a byte that is not
// UTF-8 counts one), as an editor's does, not bytes.
struct LineCol {
  uint32_t line = 0;
  uint32_t col = 0;
};

// One loaded source file: its path as the user named it (for messages), its text, and the
// offsets of its line starts. Lines end in LF or CRLF, or in a lone CR in a file without LFs
// (classic Mac OS; the text holds those CRs as LFs).
class SourceFile {
 public:
  SourceFile(uint32_t id, std::string path, std::string text);
  uint32_t id() const { return id_; }
  const std::string &path() const { return path_; }
  std::string_view text() const { return text_; }
  LineCol lineCol(uint32_t offset) const;
  // The offset of 1-based line `line`'s first byte.
  uint32_t lineStart(uint32_t line) const;
  // The text of 1-based line `line`, without its newline.
  std::string_view lineText(uint32_t line) const;

 private:
  uint32_t id_;
  std::string path_;
  std::string text_;
  std::vector<uint32_t> line_starts_;
  std::vector<bool> line_ascii_;  // per line: only ASCII bytes (its columns are its bytes)
  // The characters before an offset, for columns on lines that are not all ASCII.
  uint32_t charsBefore(uint32_t offset) const;
  struct Checkpoint {
    uint32_t offset;  // a character's first byte
    uint32_t chars;   // characters before it
  };
  static constexpr size_t kCheckpointBytes = 256;
  std::vector<Checkpoint> checkpoints_;  // empty when every line is ASCII
};

// Every source file of one compilation, by id.
class SourceManager {
 public:
  // Adds a file with the given text; returns it. The path is kept as given, for messages.
  SourceFile &add(std::string path, std::string text);
  // Reads a file from disk; nullptr (and *error set) if it cannot be read.
  SourceFile *load(const std::string &path, std::string *error);
  const SourceFile &file(uint32_t id) const { return *files_[id]; }
  size_t size() const { return files_.size(); }
  // "path:line:col" of a span's start, or "<unknown>".
  std::string describe(Span span) const;

 private:
  std::vector<std::unique_ptr<SourceFile>> files_;
};

}  // namespace cairn::front

#endif  // CAIRN_FRONTEND_SOURCE_SOURCE_H
