// The list of the standard library's intrinsics (intrinsics.h).
#include "check/intrinsics.h"

namespace cairn::front {
namespace {

// name, sig (I1: result, then parameters), takes_loc (I2), noreturn. Letters: v none, i int,
// f float, b bool, t text, y any (a reference), a an array of any element type.
constexpr Intrinsic kIntrinsics[] = {
    // Runtime errors raised by std code (a message of the language's own form, at the call).
    {"cairn_rt_index", "vii", true, true},
    {"cairn_std_error", "vt", true, true},
    // Arrays: move n elements between two arrays of one type (memmove; bounds checked).
    {"cairn_array_move", "vaiaii", true, false},
    // Arrays: whether n elements of two arrays of one type are identical (bounds checked).
    {"cairn_array_same", "baiaii", true, false},
    // Text (std.text).
    {"cairn_text_find", "itti", true, false},
    {"cairn_text_slice", "ttii", true, false},
    {"cairn_text_upper", "tt", true, false},
    {"cairn_text_lower", "tt", true, false},
    {"cairn_text_trim", "tt", true, false},
    {"cairn_text_replace", "tttt", true, false},
    {"cairn_text_of_byte", "ti", true, false},
    {"cairn_text_parse_int_ok", "bt", true, false},
    {"cairn_text_parse_int", "it", true, false},
    {"cairn_text_parse_float_ok", "bt", true, false},
    {"cairn_text_parse_float", "ft", true, false},
    {"cairn_text_format_float", "tfi", true, false},
    {"cairn_text_buffer_append", "yyit", true, false},  // std.text's Builder: [byte] buffers
    {"cairn_text_buffer_text", "tyi", true, false},
    {"cairn_text_repeat", "tti", true, false},
    // Files and standard input (std.io).
    {"cairn_io_read_line", "t", true, false},
    {"cairn_io_read_file", "tt", true, false},
    {"cairn_io_write_file", "vtt", true, false},
    // Clocks (std.time).
    {"cairn_time_now_nanos", "i", false, false},
    {"cairn_time_wall_seconds", "f", false, false},
    // libm (std.math).
    {"cairn_math_sqrt", "ff", false, false},
    {"cairn_math_floor", "ff", false, false},
    {"cairn_math_ceil", "ff", false, false},
    {"cairn_math_pow", "fff", false, false},
    // The runtime's figures, processes, environment, page cache (std.sys).
    {"cairn_sys_persist_stat", "ii", false, false},
    {"cairn_sys_last_commit_stat", "ii", false, false},
    {"cairn_sys_gc_stat", "ii", false, false},
    {"cairn_sys_commit_types", "i", false, false},
    {"cairn_sys_commit_type_name", "ti", true, false},
    {"cairn_sys_commit_type_stat", "iii", true, false},
    {"cairn_sys_collect", "v", false, false},
    {"cairn_sys_run", "iab", true, false},
    {"cairn_sys_run_output", "t", false, false},
    {"cairn_sys_getenv", "tt", true, false},
    {"cairn_sys_setenv", "vtt", true, false},
    {"cairn_sys_self_path", "t", false, false},
    {"cairn_sys_store_dir", "t", false, false},
    {"cairn_sys_drop_caches", "tt", true, false},
    {"cairn_sys_load_average", "f", false, false},
    {"cairn_sys_make_dirs", "bt", true, false},
    {"cairn_sys_file_exists", "bt", true, false},
    {"cairn_sys_pid", "i", false, false},
    {"cairn_sys_cpu_nanos", "i", false, false},
};

}  // namespace

const Intrinsic *findIntrinsic(std::string_view name) {
  for (const Intrinsic &i : kIntrinsics)
    if (name == i.name) return &i;
  return nullptr;
}

}  // namespace cairn::front
