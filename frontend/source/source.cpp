// Source files, line tables and position descriptions (source.h).
#include "source/source.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "source/utf8.h"

namespace cairn::front {

SourceFile::SourceFile(uint32_t id, std::string path, std::string text)
    : id_(id), path_(std::move(path)), text_(std::move(text)) {
  // A file whose lines end in a lone carriage return (classic Mac OS: no LF in it) has its CRs
  // made LFs, byte for byte, so offsets stay the file's. In a file with LFs, a CR is a byte as
  // any other (in a text literal, a comment; whitespace between tokens).
  if (text_.find('\n') == std::string::npos)
    for (char &c : text_)
      if (c == '\r') c = '\n';
  line_starts_.push_back(0);
  line_ascii_.push_back(true);
  for (size_t i = 0; i < text_.size(); ++i) {
    if (static_cast<unsigned char>(text_[i]) >= 0x80) line_ascii_.back() = false;
    if (text_[i] == '\n') {
      line_starts_.push_back(static_cast<uint32_t>(i + 1));
      line_ascii_.push_back(true);
    }
  }
  // Checkpoints of the character count, for lines that are not all ASCII (charsBefore).
  if (std::find(line_ascii_.begin(), line_ascii_.end(), false) == line_ascii_.end()) return;
  uint32_t count = 0;
  for (size_t i = 0; i < text_.size();) {
    if (i >= (checkpoints_.size() + 1) * kCheckpointBytes)
      checkpoints_.push_back(Checkpoint{static_cast<uint32_t>(i), count});
    uint32_t cp = 0;
    const int n = utf8Sequence(text_, i, &cp);
    i += n == 0 ? 1 : static_cast<size_t>(n);
    ++count;
  }
}

LineCol SourceFile::lineCol(uint32_t offset) const {
  if (offset > text_.size()) offset = static_cast<uint32_t>(text_.size());
  // The last line start at or before offset.
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  const size_t line_index = static_cast<size_t>(it - line_starts_.begin()) - 1;
  const auto line = static_cast<uint32_t>(line_index + 1);
  const uint32_t start = line_starts_[line_index];
  if (line_ascii_[line_index]) return LineCol{line, offset - start + 1};
  return LineCol{line, charsBefore(offset) - charsBefore(start) + 1};
}

// Characters are counted by one scan from the file's start (a character: a UTF-8 sequence, or a
// byte that is not part of one), so a count is the same whatever position is asked; the
// checkpoints, one per kCheckpointBytes, keep a lookup to that many bytes of scanning.
uint32_t SourceFile::charsBefore(uint32_t offset) const {
  auto it = std::upper_bound(checkpoints_.begin(), checkpoints_.end(), offset,
                             [](uint32_t o, const Checkpoint &c) { return o < c.offset; });
  uint32_t i = 0, count = 0;
  if (it != checkpoints_.begin()) {
    i = (it - 1)->offset;
    count = (it - 1)->chars;
  }
  while (i < offset) {
    uint32_t cp = 0;
    const int n = utf8Sequence(text_, i, &cp);
    i += n == 0 ? 1 : static_cast<uint32_t>(n);
    ++count;
  }
  return count;
}

uint32_t SourceFile::lineStart(uint32_t line) const {
  if (line == 0 || line > line_starts_.size()) return 0;
  return line_starts_[line - 1];
}

std::string_view SourceFile::lineText(uint32_t line) const {
  if (line == 0 || line > line_starts_.size()) return {};
  const uint32_t begin = line_starts_[line - 1];
  uint32_t end =
      line < line_starts_.size() ? line_starts_[line] : static_cast<uint32_t>(text_.size());
  std::string_view text(text_);
  if (end > begin && text[end - 1] == '\n') --end;
  if (end > begin && text[end - 1] == '\r') --end;
  return text.substr(begin, end - begin);
}

SourceFile &SourceManager::add(std::string path, std::string text) {
  const auto id = static_cast<uint32_t>(files_.size());
  files_.push_back(std::make_unique<SourceFile>(id, std::move(path), std::move(text)));
  return *files_.back();
}

namespace {

// A larger source file is refused, read no further: an endless one (/dev/zero, a pipe that never
// ends) must not fill the memory, and every offset fits a Span's 32 bits.
constexpr size_t kMaxSourceBytes = size_t{64} << 20;

}  // namespace

SourceFile *SourceManager::load(const std::string &path, std::string *error) {
  std::FILE *f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    if (error != nullptr) *error = std::strerror(errno);
    return nullptr;
  }
  std::string text;
  char buffer[64 * 1024];
  size_t n;
  while (text.size() <= kMaxSourceBytes && (n = std::fread(buffer, 1, sizeof buffer, f)) > 0)
    text.append(buffer, n);
  const bool failed = std::ferror(f) != 0;
  const int saved_errno = errno;
  std::fclose(f);
  if (failed) {
    if (error != nullptr) *error = std::strerror(saved_errno);
    return nullptr;
  }
  if (text.size() > kMaxSourceBytes) {
    if (error != nullptr) *error = "file too large: a source file is at most 64 MiB";
    return nullptr;
  }
  return &add(path, std::move(text));
}

std::string SourceManager::describe(Span span) const {
  if (!span.valid() || span.file >= files_.size()) return "<unknown>";
  const SourceFile &f = *files_[span.file];
  const LineCol lc = f.lineCol(span.begin);
  return f.path() + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.col);
}

}  // namespace cairn::front
