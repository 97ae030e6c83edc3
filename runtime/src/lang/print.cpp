// print(e) and println(e): str(e)'s bytes on standard output, through stdio's buffer (cairn/lang.h,
// Printing). cairn_lang_start chooses the buffering; exit, finish and runtime errors flush it.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "cairn/lang.h"
#include "lang/format.h"
#include "lang/text.h"

namespace cairn::lang {
namespace {

void Write(const std::string &s) { std::fwrite(s.data(), 1, s.size(), stdout); }

// Writes a text's bytes. They are copied through a local buffer rather than handed to stdio:
// stdio passes a long run straight to write(2), and the kernel cannot fault in a persistent
// page that is not loaded yet (it would fail with EFAULT); a copy in user space faults it in.
void WriteText(const void *text) {
  char buf[4096];
  const int64_t n = TextLength(text);
  for (int64_t done = 0; done < n;) {
    const size_t k = static_cast<size_t>(std::min<int64_t>(n - done, sizeof buf));
    std::memcpy(buf, TextBytes(text) + done, k);
    std::fwrite(buf, 1, k, stdout);
    done += static_cast<int64_t>(k);
  }
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
