// The diagnostics registry, reporting, and rustc/clang-style rendering (diagnostics.h).
#include "source/diagnostics.h"

#include <algorithm>

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

// The display column (0-based) reached after `prefix`: tabs to the next tab stop, a UTF-8
// sequence as one column.
uint32_t displayWidth(std::string_view prefix) {
  uint32_t col = 0;
  for (char c : prefix) {
    if (c == '\t') {
      col = (col / kTabWidth + 1) * kTabWidth;
    } else if (!isUtf8Continuation(c)) {
      ++col;
    }
  }
  return col;
}

std::string expandTabs(std::string_view line) {
  std::string out;
  uint32_t col = 0;
  for (char c : line) {
    if (c == '\t') {
      const uint32_t next = (col / kTabWidth + 1) * kTabWidth;
      out.append(next - col, ' ');
      col = next;
    } else {
      out.push_back(c);
      if (!isUtf8Continuation(c)) ++col;
    }
  }
  return out;
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
        out += args[index];
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
    out += paint(kBlue, "   " + number + " |") + " " + expandTabs(line) + "\n";

    // The caret line: ^ under the first character, ~ under the rest of the span on this line.
    const uint32_t line_begin = d.span.begin - (lc.col - 1);
    const uint32_t line_end = line_begin + static_cast<uint32_t>(line.size());
    const uint32_t first = std::min(d.span.begin, line_end);
    const uint32_t last = std::min(std::max(d.span.end, d.span.begin), line_end);
    const uint32_t start_col = displayWidth(line.substr(0, first - line_begin));
    const uint32_t end_col = displayWidth(line.substr(0, last - line_begin));
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
  size_t shown_errors = 0;
  for (const Diagnostic &d : diags_) {
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
