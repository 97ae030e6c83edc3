// Look-alike letters (lookalikes.h).
#include "lexer/lookalikes.h"

#include <cstdint>
#include <cstdio>

#include "source/diagnostics.h"
#include "source/utf8.h"

namespace cairn::front {
namespace {

struct Lookalike {
  uint32_t cp;
  char ascii;
};

// L1: sorted by code point.
constexpr Lookalike kLookalikes[] = {
    {0x391, 'A'}, {0x392, 'B'}, {0x395, 'E'}, {0x396, 'Z'}, {0x397, 'H'}, {0x399, 'I'},
    {0x39A, 'K'}, {0x39C, 'M'}, {0x39D, 'N'}, {0x39F, 'O'}, {0x3A1, 'P'}, {0x3A4, 'T'},
    {0x3A5, 'Y'}, {0x3A7, 'X'}, {0x3BD, 'v'}, {0x3BF, 'o'}, {0x405, 'S'}, {0x406, 'I'},
    {0x408, 'J'}, {0x410, 'A'}, {0x412, 'B'}, {0x415, 'E'}, {0x41A, 'K'}, {0x41C, 'M'},
    {0x41D, 'H'}, {0x41E, 'O'}, {0x420, 'P'}, {0x421, 'C'}, {0x422, 'T'}, {0x425, 'X'},
    {0x430, 'a'}, {0x435, 'e'}, {0x43E, 'o'}, {0x440, 'p'}, {0x441, 'c'}, {0x443, 'y'},
    {0x445, 'x'}, {0x455, 's'}, {0x456, 'i'}, {0x458, 'j'}, {0x4AE, 'Y'}, {0x4BB, 'h'},
    {0x4C0, 'I'}, {0x4CF, 'l'}, {0x501, 'd'}, {0x51B, 'q'}, {0x51D, 'w'},
};

char asciiFor(uint32_t cp) {
  if (cp >= 0xFF21 && cp <= 0xFF3A) return static_cast<char>('A' + (cp - 0xFF21));
  if (cp >= 0xFF41 && cp <= 0xFF5A) return static_cast<char>('a' + (cp - 0xFF41));
  for (const Lookalike &l : kLookalikes)
    if (l.cp == cp) return l.ascii;
  return 0;
}

const char *scriptOf(uint32_t cp) {
  if (cp >= 0x370 && cp < 0x400) return "Greek";
  if (cp >= 0x400 && cp < 0x530) return "Cyrillic";
  return "full-width";
}

}  // namespace

std::string latinLookalike(std::string_view name) {
  std::string out;
  for (size_t i = 0; i < name.size();) {
    uint32_t cp = 0;
    const int n = utf8Sequence(name, i, &cp);
    if (n == 0) return std::string(name);
    if (const char a = asciiFor(cp))
      out.push_back(a);
    else
      out.append(name.substr(i, static_cast<size_t>(n)));
    i += static_cast<size_t>(n);
  }
  return out;
}

std::string lookalikeNote(std::string_view name) {
  for (size_t i = 0; i < name.size();) {
    uint32_t cp = 0;
    const int n = utf8Sequence(name, i, &cp);
    if (n == 0) return "";
    if (const char a = asciiFor(cp)) {
      char code[16];
      std::snprintf(code, sizeof code, "U+%04X", cp);
      return "'" + std::string(name.substr(i, static_cast<size_t>(n))) + "' is " + code + ", a " +
             scriptOf(cp) + " letter that looks like the Latin '" + std::string(1, a) + "'";
    }
    i += static_cast<size_t>(n);
  }
  return "";
}

std::string lookalikeAmong(const std::string &name, const std::vector<std::string> &candidates) {
  const std::string skeleton = latinLookalike(name);
  for (const std::string &c : candidates)
    if (c != name && latinLookalike(c) == skeleton) return c;
  return "";
}

std::string lookalikeHint(const std::string &name, const std::string &other) {
  std::string note = lookalikeNote(other);
  std::string whose = "'" + other + "' is declared with another letter";
  if (note.empty()) {  // the look-alike is in the name used here
    note = lookalikeNote(name);
    whose = "the name here has another letter than the declared '" + other + "'";
  }
  return whose + ", which looks the same: " + note + "; type the two alike";
}

std::string didYouMean(const std::string &name, const std::vector<std::string> &candidates) {
  if (const std::string same = lookalikeAmong(name, candidates); !same.empty())
    return lookalikeHint(name, same);
  const std::string near = nearestName(name, candidates);
  return near.empty() ? "" : "did you mean '" + near + "'?";
}

}  // namespace cairn::front
