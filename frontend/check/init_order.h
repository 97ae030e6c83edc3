// The order of module-level initialization, checked through calls.
//
// Module-level `let`/`var` are initialized in order (imported modules first), so an initializer
// may use only values initialized before it. The checker refuses a direct use of a later one
// (its type is not known yet); this check finds the indirect ones: an initializer that calls a
// function (or calls it through a module-level variable that holds it: every function ever
// stored there counts, directly or through another such variable, `var g = f`; or passes it as
// a value, or reads a variable holding it other than to keep it in another: it may be called at
// once; or calls a method: every override counts) which, directly or through further calls,
// reads a module-level value initialized at or after it. Such a read saw zero, nil or a null
// function (a crash when called); now it is a compile error that names the value, the value it
// reads and the chain of calls between them. A function only stored in a module-level variable
// is not called by the store (`var handler = report` is fine when report reads a later value).
// "Every function ever stored" includes main's stores, which happen after initialization: a
// conservative answer (language.md says so).
//
// The analysis is by reachability, not by path: a function that reads a later value only on a
// branch the initializer never takes is still refused (declare the value above, or set it in
// main). A value without an initializer (`var x: int`) starts as zero and is never refused.
// Not followed (a read there goes unseen): calls through a local, a parameter or a field
// holding a function that reached it other than from a module-level variable, and through a
// variable given a function other than by its name or another variable's (`var h = pick()`).
#ifndef CAIRN_FRONTEND_CHECK_INIT_ORDER_H
#define CAIRN_FRONTEND_CHECK_INIT_ORDER_H

#include <set>

#include "check/sem.h"
#include "source/diagnostics.h"

namespace cairn::front {

// Reports each initializer that reads a value initialized at or after it (one error for each,
// the first such value found). For a program the checker found no error in.
void checkInitOrder(const sem::Program &program, Diagnostics &diags);

// The same for one REPL input (`unit`: what it declared; `run`: its top-level statements and
// its variables' first assignments, in order; `fresh`: the variables it declares): a statement
// or an initializer that reads, through calls, a variable of this input not yet set.
void checkInputOrder(const sem::Program &unit, const sem::Block &run,
                     const std::set<const GlobalInfo *> &fresh, Diagnostics &diags);

}  // namespace cairn::front

#endif  // CAIRN_FRONTEND_CHECK_INIT_ORDER_H
