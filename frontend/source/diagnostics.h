// Diagnostics: every message the compiler can give is declared once, in diagnostic_kinds.def
// (style.md, 10 and 15), and reported here with a position. Printing follows the style of rustc
// and clang:
//
//   prog.cairn:12:9: error: expected int, found text
//      12 |     let n: int = "seven"
//         |                  ^~~~~~~
//   hint: use parse_int(...) from std.text to read a number from text
//
// Message style: lowercase, no final period, says what was expected and what was found, never
// blames the user. A hint says what to do.
#ifndef CAIRN_FRONTEND_SOURCE_DIAGNOSTICS_H
#define CAIRN_FRONTEND_SOURCE_DIAGNOSTICS_H

#include <cstdio>
#include <string>
#include <vector>

#include "source/source.h"

namespace cairn::front {

enum class Severity { Error, Warning };

enum class DiagId {
#define DIAG(name, severity, format) name,
#include "source/diagnostic_kinds.def"
#undef DIAG
};

struct DiagKindInfo {
  const char *name;  // "ExpectedToken"
  Severity severity;
  const char *format;  // with {0}, {1}, ... for the arguments
};
// The registry entry of a kind.
const DiagKindInfo &diagKindInfo(DiagId id);
// Every kind, in registry order (for `cairn check --list-diagnostics` and the tests).
const std::vector<DiagKindInfo> &allDiagKinds();

struct DiagNote {
  Span span;  // may be invalid: a note with no position
  std::string text;
};

struct Diagnostic {
  DiagId id;
  Severity severity;
  Span span;
  std::string message;  // the formatted message
  std::string hint;     // "" when none
  std::vector<DiagNote> notes;

  Diagnostic &withHint(std::string text) {
    hint = std::move(text);
    return *this;
  }
  Diagnostic &withNote(Span where, std::string text) {
    notes.push_back(DiagNote{where, std::move(text)});
    return *this;
  }
};

// Collects the diagnostics of one compilation. Reporting never stops the compiler; phases
// recover and go on, and the driver stops after the phase that reported an error.
class Diagnostics {
 public:
  explicit Diagnostics(const SourceManager &sources) : sources_(sources) {}
  const SourceManager &sources() const { return sources_; }

  // Reports a diagnostic of a registered kind with its arguments substituted for {0}, {1}...
  // The returned reference is valid until the next report.
  Diagnostic &report(DiagId id, Span span, std::vector<std::string> args = {});

  size_t errorCount() const { return errors_; }
  bool hasErrors() const { return errors_ != 0; }
  const std::vector<Diagnostic> &all() const { return diags_; }

  // Forgets every diagnostic reported so far (the REPL reports per input).
  void clear() {
    diags_.clear();
    errors_ = 0;
  }

  // Stop reporting after this many errors (0: no limit); later reports are counted, not kept.
  void setErrorLimit(size_t limit) { limit_ = limit; }

  // Prints every diagnostic, in the order reported, with the source line and a caret line;
  // colour when `color` is true.
  void print(std::FILE *out, bool color) const;
  // One diagnostic as text (what print writes for it).
  std::string render(const Diagnostic &d, bool color) const;

 private:
  const SourceManager &sources_;
  std::vector<Diagnostic> diags_;
  Diagnostic overflow_{};
  size_t errors_ = 0;
  size_t limit_ = 0;
};

// Formats a registry format string: "{0}" -> args[0], ...; "{{" -> "{".
std::string formatMessage(const char *format, const std::vector<std::string> &args);

// The nearest of `candidates` to `name` by edit distance, if close enough to suggest ("" if
// none): for "did you mean 'x'?" hints.
std::string nearestName(const std::string &name, const std::vector<std::string> &candidates);

}  // namespace cairn::front

#endif  // CAIRN_FRONTEND_SOURCE_DIAGNOSTICS_H
