// The diagnostics registry, reporting, and rustc/clang-style rendering (diagnostics.h).
#include "source/diagnostics.h"

#include <algorithm>

#include "source/utf8.h"

namespace cairn::front {
namespace {

const std::vector<DiagKindInfo> &registry() {
  static const std::vector<DiagKindInfo> kinds = {
#define DIAG(name, severity, format) DiagKindInfo{#name, Severity::severity, format},
#include "source/diagnostic_kinds.def"
#undef DIAG
  };
  return kinds;
}

// Tabs in a source line are expanded to the next multiple of this, in the source line and the
// caret line alike, so the caret stands under the same character whatever the terminal does.
constexpr uint32_t kTabWidth = 4;

bool isUtf8Continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The display column (0-based) reached after `prefix` (made printable): tabs to the next tab
// stop, each character in the columns a terminal gives it (a mark none, a CJK ideograph two:
// source/utf8.h, U2), so that the caret stands under the character it means.
uint32_t displayWidth(std::string_view prefix) {
  uint32_t col = 0;
  for (size_t i = 0; i < prefix.size();) {
    uint32_t cp = 0;
    const int n = utf8Sequence(prefix, i, &cp);
    if (prefix[i] == '\t') {
      col = (col / kTabWidth + 1) * kTabWidth;
    } else {
      col += n == 0 ? 1 : displayColumns(cp);
    }
    i += n == 0 ? 1 : static_cast<size_t>(n);
  }
  return col;
}

std::string expandTabs(std::string_view line) {
  std::string out;
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\t') {
      const uint32_t col = displayWidth(std::string_view(out));
      out.append((col / kTabWidth + 1) * kTabWidth - col, ' ');
    } else {
      out.push_back(line[i]);
    }
  }
  return out;
}

// A source line longer than this many bytes is shown as an excerpt around the diagnostic's
// position: this many bytes before it, and up to kExcerptBytes in all.
constexpr size_t kExcerptBytes = 160;
constexpr size_t kExcerptBefore = 60;
// An argument of a message (a token's text, a name) longer than this is cut, with "...".
constexpr size_t kMaxArgBytes = 200;

// The length of the UTF-8 sequence at s[i], or 0 when it is not a valid one (an overlong form
// or a surrogate is not: source/utf8.h, U1).
size_t utf8Length(std::string_view s, size_t i) {
  uint32_t cp = 0;
  return static_cast<size_t>(utf8Sequence(s, i, &cp));
}

// Whether the UTF-8 sequence of n bytes at s[i] is a C1 control (U+0080 to U+009F) or a
// bidirectional control or mark (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069):
// invisible characters that a terminal acts on, or that reorder the line around them.
bool isInvisibleControl(std::string_view s, size_t i, size_t n) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  if (n == 2) return (b(0) == 0xC2 && b(1) <= 0x9F) || (b(0) == 0xD8 && b(1) == 0x9C);
  if (n == 3 && b(0) == 0xE2 && b(1) == 0x80)
    return (b(2) >= 0xAA && b(2) <= 0xAE) || b(2) == 0x8E || b(2) == 0x8F;
  if (n == 3 && b(0) == 0xE2 && b(1) == 0x81) return b(2) >= 0xA6 && b(2) <= 0xA9;
  return false;
}

// `text` with each control character (but a tab), each bidirectional control and each byte that
// is not part of a valid UTF-8 sequence replaced by '?', so that a binary file's line cannot
// garble the terminal, nor a bidirectional control reorder what is shown.
std::string printable(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    const size_t n = utf8Length(text, i);
    const auto c = static_cast<unsigned char>(text[i]);
    if (n > 1 && isInvisibleControl(text, i, n)) {
      out.push_back('?');
      i += n;
    } else if (n == 0 || (n == 1 && ((c < 0x20 && c != '\t') || c == 0x7F))) {
      out.push_back('?');
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

// The first byte at or after `i` that starts a UTF-8 sequence (or is not a continuation byte).
size_t sequenceStart(std::string_view s, size_t i) {
  while (i < s.size() && isUtf8Continuation(s[i])) ++i;
  return i;
}

// Colours, as clang prints them.
constexpr const char *kBold = "\033[1m";
constexpr const char *kRed = "\033[1;31m";
constexpr const char *kMagenta = "\033[1;35m";
constexpr const char *kGreen = "\033[1;32m";
constexpr const char *kCyan = "\033[1;36m";
constexpr const char *kBlue = "\033[1;34m";
constexpr const char *kReset = "\033[0m";

}  // namespace

const DiagKindInfo &diagKindInfo(DiagId id) { return registry()[static_cast<size_t>(id)]; }

const std::vector<DiagKindInfo> &allDiagKinds() { return registry(); }

std::string formatMessage(const char *format, const std::vector<std::string> &args) {
  std::string out;
  for (const char *p = format; *p != '\0'; ++p) {
    if (p[0] == '{' && p[1] == '{') {
      out.push_back('{');
      ++p;
    } else if (p[0] == '{' && p[1] >= '0' && p[1] <= '9' && p[2] == '}') {
      const size_t index = static_cast<size_t>(p[1] - '0');
      if (index < args.size()) {
        const std::string &arg = args[index];
        if (arg.size() <= kMaxArgBytes) {
          out += arg;
        } else {
          out.append(arg, 0, sequenceStart(arg, kMaxArgBytes));
          out += "...";
        }
      } else {
        out.append(p, 3);  // a missing argument stays visible, not silently empty
      }
      p += 2;
    } else {
      out.push_back(*p);
    }
  }
  return out;
}

namespace {

// Damerau-Levenshtein distance (optimal string alignment: insertions, deletions,
// substitutions and transpositions of neighbours, each costing 1).
size_t editDistance(const std::string &a, const std::string &b) {
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1));
  for (size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (size_t i = 1; i <= n; ++i) {
    for (size_t j = 1; j <= m; ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[n][m];
}

}  // namespace

std::string nearestName(const std::string &name, const std::vector<std::string> &candidates) {
  const size_t limit = std::max<size_t>(1, name.size() / 3);
  const std::string *best = nullptr;
  size_t best_distance = limit + 1;
  for (const std::string &c : candidates) {
    // A candidate whose length differs by more than the limit cannot be close enough.
    const size_t length_gap =
        c.size() > name.size() ? c.size() - name.size() : name.size() - c.size();
    if (length_gap > limit) continue;
    const size_t d = editDistance(name, c);
    if (d < best_distance) {  // strictly less: the first of equally near candidates wins
      best = &c;
      best_distance = d;
    }
  }
  return best != nullptr ? *best : std::string();
}

Diagnostic &Diagnostics::report(DiagId id, Span span, std::vector<std::string> args) {
  const DiagKindInfo &info = diagKindInfo(id);
  Diagnostic d{id, info.severity, span, formatMessage(info.format, args), {}, {}};
  const bool is_error = info.severity == Severity::Error;
  const bool over_limit = limit_ != 0 && errors_ >= limit_;
  if (is_error) ++errors_;
  if (over_limit) {
    overflow_ = std::move(d);
    return overflow_;
  }
  diags_.push_back(std::move(d));
  return diags_.back();
}

std::string Diagnostics::render(const Diagnostic &d, bool color) const {
  auto paint = [color](const char *code, const std::string &text) {
    return color ? std::string(code) + text + kReset : text;
  };
  const bool is_error = d.severity == Severity::Error;
  std::string out;
  // A diagnostic with no position (a file that cannot be read) is the compiler's own.
  const bool placed = d.span.valid() && d.span.file < sources_.size();
  const std::string where = placed ? sources_.describe(d.span) : std::string("cairn");
  out += paint(kBold, where + ":") + " ";
  out += paint(is_error ? kRed : kMagenta, is_error ? "error:" : "warning:") + " ";
  out += paint(kBold, d.message) + "\n";

  if (d.span.valid() && d.span.file < sources_.size()) {
    const SourceFile &file = sources_.file(d.span.file);
    const LineCol lc = file.lineCol(d.span.begin);
    const std::string_view line = file.lineText(lc.line);
    const std::string number = std::to_string(lc.line);
    const std::string gutter(3 + number.size(), ' ');
    const uint32_t line_begin = file.lineStart(lc.line);
    const uint32_t line_end = line_begin + static_cast<uint32_t>(line.size());
    const uint32_t first = std::min(d.span.begin, line_end);
    const uint32_t last = std::min(std::max(d.span.end, d.span.begin), line_end);

    // A long line is shown as an excerpt around the position, "..." where it was cut.
    size_t from = 0, to = line.size();
    if (line.size() > kExcerptBytes) {
      const size_t at = first - line_begin;
      from = sequenceStart(line, at > kExcerptBefore ? at - kExcerptBefore : 0);
      to = sequenceStart(line, std::min(line.size(), from + kExcerptBytes));
    }
    const std::string lead = from > 0 ? "..." : "";
    const std::string shown = printable(line.substr(from, to - from));
    out += paint(kBlue, "   " + number + " |") + " " + lead + expandTabs(shown) +
           (to < line.size() ? "..." : "") + "\n";

    // The caret line: ^ under the first character, ~ under the rest of the span on this line.
    auto column = [&](uint32_t offset) -> uint32_t {
      const size_t in_line = std::clamp<size_t>(offset - line_begin, from, to);
      return static_cast<uint32_t>(lead.size()) +
             displayWidth(printable(line.substr(from, in_line - from)));
    };
    const uint32_t start_col = column(first);
    const uint32_t end_col = column(last);
    std::string marks = "^";
    if (end_col > start_col + 1) marks.append(end_col - start_col - 1, '~');
    out += paint(kBlue, gutter + " |") + " " + std::string(start_col, ' ') + paint(kGreen, marks) +
           "\n";
  }
  if (!d.hint.empty()) out += paint(kCyan, "hint:") + " " + d.hint + "\n";
  for (const DiagNote &note : d.notes) {
    out += paint(kBold, "note:") + " ";
    if (note.span.valid()) out += sources_.describe(note.span) + ": ";
    out += note.text + "\n";
  }
  return out;
}

void Diagnostics::print(std::FILE *out, bool color) const {
  // In source order within each file (files in the order their first diagnostic came): the
  // checker reports some things after the code they concern is checked (main's signature after
  // its body), and a reader goes down the file.
  std::vector<size_t> order(diags_.size());
  std::vector<uint32_t> files;
  for (size_t i = 0; i < diags_.size(); ++i) {
    order[i] = i;
    if (std::find(files.begin(), files.end(), diags_[i].span.file) == files.end())
      files.push_back(diags_[i].span.file);
  }
  auto rank = [&](const Diagnostic &d) {
    return size_t(std::find(files.begin(), files.end(), d.span.file) - files.begin());
  };
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const Diagnostic &x = diags_[a], &y = diags_[b];
    const size_t rx = rank(x), ry = rank(y);
    if (rx != ry) return rx < ry;
    const uint32_t bx = x.span.valid() ? x.span.begin : 0, by = y.span.valid() ? y.span.begin : 0;
    if (bx != by) return bx < by;
    return a < b;  // reported first, first
  });
  size_t shown_errors = 0;
  for (size_t i : order) {
    const Diagnostic &d = diags_[i];
    if (d.severity == Severity::Error) ++shown_errors;
    const std::string text = render(d, color);
    std::fwrite(text.data(), 1, text.size(), out);
  }
  if (errors_ > shown_errors) {
    const size_t hidden = errors_ - shown_errors;
    std::fprintf(out, "%zu more error%s not shown\n", hidden, hidden == 1 ? "" : "s");
  }
}

}  // namespace cairn::front
