// The checker: resolves names, checks types, instantiates generic declarations and builds the
// semantic tree (sem.h) of a whole program from the syntax trees of its modules.
#ifndef CAIRN_FRONTEND_CHECK_CHECKER_H
#define CAIRN_FRONTEND_CHECK_CHECKER_H

#include <memory>
#include <string>
#include <vector>

#include "check/sem.h"
#include "check/types.h"
#include "source/diagnostics.h"

namespace cairn::front {

// Checks a program. `modules` are in initialization order (every module after the modules it
// imports), the main module last. Returns the program; it is complete only if no error was
// reported (diags.hasErrors() is false). `require_main`: a program must have `fn main()`
// (false for `cairn check` of a library module).
// `stdlib_dir`: the standard library's folder, for hints about a name it declares that the
// program did not import ("" gives none).
std::unique_ptr<sem::Program> checkProgram(std::vector<ModuleInfo *> modules, ModuleInfo *main,
                                           Diagnostics &diags, TypeContext &types,
                                           bool require_main, const std::string &stdlib_dir = {});

// A name the language gives every program: a built-in function (print, str, len, ...), a
// built-in type (int, text, any, ...) or class (Database, Transaction).
bool isBuiltinName(const std::string &name);

}  // namespace cairn::front

#endif  // CAIRN_FRONTEND_CHECK_CHECKER_H
