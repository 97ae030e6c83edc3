// Words for what the same-layout rule (cairn_type_layout_compare in cairn/type.h) found, for the
// messages of registration (T5) and of the database type check.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cairn/type.h"

namespace cairn::types {

// A field or element kind as messages name it: "i64", "ref", "struct", ...
const char *KindName(uint32_t kind);

// What differs between a (as `a_where` has it, e.g. "in the database") and b (`b_where`, e.g.
// "in this program"), given the difference d found at index `index`: for example
// "field 'next' is at offset 8 in the database, at 16 in this program".
std::string DescribeLayoutDiff(const cairn_type *a, std::string_view a_where, const cairn_type *b,
                               std::string_view b_where, cairn_layout_diff d, uint32_t index);

}  // namespace cairn::types
