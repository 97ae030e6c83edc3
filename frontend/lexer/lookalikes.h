// Letters of other scripts that look like ASCII letters (Cyrillic `е`, Greek `ο`, full-width
// `ａ`), for the messages about names that look like keywords or like other names: `lеt x = 1`
// with a Cyrillic `е` is a name, and `count` beside a declared `сount` is an unknown name.
//
//   L1. latinLookalike(name) is name with each such letter replaced by the ASCII letter it
//       looks like in common fonts; name itself when it has none. Only close look-alikes are
//       listed (Cyrillic `а е о р с у х і ј ѕ` and capitals, Greek capitals and `ο ν`,
//       full-width Latin), so a word of another script rarely becomes an ASCII word.
//   L2. lookalikeNote(name) names the first such letter: "'е' is U+0435, a Cyrillic letter";
//       "" when there is none.
#ifndef CAIRN_FRONTEND_LEXER_LOOKALIKES_H
#define CAIRN_FRONTEND_LEXER_LOOKALIKES_H

#include <string>
#include <string_view>
#include <vector>

namespace cairn::front {

std::string latinLookalike(std::string_view name);
std::string lookalikeNote(std::string_view name);

// A candidate that differs from name but looks the same (the same latinLookalike), "" if none.
std::string lookalikeAmong(const std::string &name, const std::vector<std::string> &candidates);

// The hint for a name that looks like `other`: which letters differ, as L2 says.
std::string lookalikeHint(const std::string &name, const std::string &other);

// The hint for an unknown name among candidates: a look-alike's (lookalikeHint), else "did you
// mean 'X'?" for the nearest (nearestName), else "".
std::string didYouMean(const std::string &name, const std::vector<std::string> &candidates);

}  // namespace cairn::front

#endif
