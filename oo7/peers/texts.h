// The texts of an OO7 instance, as oo7/schema.cairn makes them: type names, titles, document and
// manual contents.
#ifndef CAIRN_OO7_PEERS_TEXTS_H
#define CAIRN_OO7_PEERS_TEXTS_H

#include <cstdint>
#include <string>

namespace oo7 {

// "type000".."type009"
std::string TypeName(int64_t n);
// "Composite Part %08d"
std::string DocTitle(int64_t id);
// "Manual         %08d"
std::string ManualTitle(int64_t id);
// "Module %08d": the key of the module-by-name index
std::string ModuleName(int64_t id);
// "I am the documentation for composite part #%08d.\n" repeated and cut to size bytes.
std::string DocText(int64_t id, int64_t size);
// "I am the manual for module #%08d.\n" repeated and cut to size bytes.
std::string ManualText(int64_t id, int64_t size);

}  // namespace oo7

#endif  // CAIRN_OO7_PEERS_TEXTS_H
