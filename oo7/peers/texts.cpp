// The texts of an OO7 instance (texts.h).
#include "texts.h"

#include <cstdio>

namespace oo7 {
namespace {

std::string Format(const char *format, int64_t n) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, static_cast<long long>(n));
  return buf;
}

std::string Repeat(const std::string &line, int64_t size) {
  std::string out;
  out.reserve(static_cast<size_t>(size));
  while (static_cast<int64_t>(out.size()) < size) out += line;
  out.resize(static_cast<size_t>(size));
  return out;
}

}  // namespace

std::string TypeName(int64_t n) { return Format("type%03lld", n); }
std::string DocTitle(int64_t id) { return Format("Composite Part %08lld", id); }
std::string ManualTitle(int64_t id) { return Format("Manual         %08lld", id); }
std::string ModuleName(int64_t id) { return Format("Module %08lld", id); }

std::string DocText(int64_t id, int64_t size) {
  return Repeat(Format("I am the documentation for composite part #%08lld.\n", id), size);
}

std::string ManualText(int64_t id, int64_t size) {
  return Repeat(Format("I am the manual for module #%08lld.\n", id), size);
}

}  // namespace oo7
