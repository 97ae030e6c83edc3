// print(e) and println(e): str(e)'s bytes on standard output, through stdio's buffer (cairn/lang.h,
// Printing). cairn_lang_start chooses the buffering; exit, finish and runtime errors flush it.
#include <cstdio>
#include <string>

#include "cairn/lang.h"
#include "lang/format.h"
#include "lang/text.h"

namespace cairn::lang {
namespace {

void Write(const std::string &s) { std::fwrite(s.data(), 1, s.size(), stdout); }

// Writes a text's bytes. stdio may hand a long run straight to write(2), which fails with
// EFAULT on a persistent page that is not loaded (the kernel does not take the runtime's page
// fault); but the caller has read the text's header (IsText), and that loads the whole object:
// its page, or a large object's whole run.
void WriteText(const void *text) {
  std::fwrite(TextBytes(text), 1, static_cast<size_t>(TextLength(text)), stdout);
}

}  // namespace
}  // namespace cairn::lang

using namespace cairn::lang;

extern "C" {

void cairn_print_int(int64_t v) {
  std::string s;
  AppendInt(&s, v);
  Write(s);
}

void cairn_print_float(double v) {
  std::string s;
  AppendFloat(&s, v);
  Write(s);
}

void cairn_print_bool(int v) { std::fputs(v ? "true" : "false", stdout); }

void cairn_print_ref(void *v) {
  if (IsText(v)) {
    WriteText(v);
    return;
  }
  std::string s;
  AppendRef(&s, v);
  Write(s);
}

void cairn_print_newline(void) { std::fputc('\n', stdout); }

void cairn_print_space(void) { std::fputc(' ', stdout); }

}  // extern "C"
