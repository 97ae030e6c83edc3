// The heap verifier (like Lua's lua_checkmemory): walks the page table and every object and
// checks the invariants P1-P6 of heap/page_info.h and T1 of cairn/type.h: every page's state is
// consistent, every object has a registered descriptor and fits its page, and every reference
// (in objects and exact roots) is nil or points at the payload of a live object, never at a
// filler (the place of a dead object, P8).
#pragma once

#include <cstddef>

#include "gc/persist_hooks.h"
#include "gc/roots.h"
#include "heap/page_heap.h"

namespace cairn::gc {

// Returns the number of problems found; prints the first max_report (0: all) to stderr. hooks
// (may be null): the persistence layer, asked which database an object of a shared page is of.
size_t VerifyHeap(const heap::PageHeap &pages, const Roots &roots, PersistHooks *hooks,
                  size_t max_report);

}  // namespace cairn::gc
