// Interrupting running code: the flag compiled polls read (cairn/lang.h).
#include <signal.h>

#include "cairn/lang.h"
#include "lang/errors.h"

// A plain aligned int, written whole: a signal handler's store and a poll's load never tear.
static_assert(sizeof(sig_atomic_t) == sizeof(int32_t));

extern "C" {

volatile int32_t cairn_interrupt_pending = 0;

void cairn_interrupt(void) { cairn_interrupt_pending = 1; }

void cairn_interrupt_clear(void) { cairn_interrupt_pending = 0; }

void cairn_rt_interrupted(const cairn_loc *loc) {
  cairn_interrupt_pending = 0;
  cairn::lang::RuntimeError(loc, "interrupted");
}

}  // extern "C"
