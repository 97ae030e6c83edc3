// The OO7 configurations (config.h).
#include "config.h"

namespace oo7 {

std::optional<Config> ConfigNamed(const std::string &name, int64_t conns) {
  if (conns != 3 && conns != 6 && conns != 9) return std::nullopt;
  Config c;
  c.name = name;
  c.conn_per_atomic = conns;
  c.assm_per_assm = 3;
  c.comp_per_assm = 3;
  c.comp_per_module = 500;
  c.assm_levels = 7;
  c.modules = 1;
  if (name == "tiny") {
    c.atomic_per_comp = 10;
    c.doc_size = 300;
    c.manual_size = 2000;
    c.comp_per_module = 50;
    c.assm_levels = 4;
  } else if (name == "small") {
    c.atomic_per_comp = 20;
    c.doc_size = 2000;
    c.manual_size = 100000;
  } else if (name == "medium" || name == "large") {
    c.atomic_per_comp = 200;
    c.doc_size = 20000;
    c.manual_size = 1000000;
    if (name == "large") c.modules = 10;
  } else {
    return std::nullopt;
  }
  return c;
}

}  // namespace oo7
