// The session's standard output, with its last byte known, so that a line an input left open
// (`print("x")` without a newline) is ended before the REPL prints anything else: a value, a
// message on standard error, the next prompt.
//
// trackStdout() replaces `stdout` (the FILE the runtime's print, the REPL's printf and compiled
// code all write through) by a stream over file descriptor 1 that notes whether the last byte
// it wrote was a line break; buffering stays as it was (by line on a terminal, else by block).
// The line editor keeps the stream it was made with, so the prompt does not count as output.
#ifndef CAIRN_REPL_OUTPUT_H
#define CAIRN_REPL_OUTPUT_H

namespace cairn::repl {

// Call once, after the line editor is made and before anything runs.
void trackStdout();

// The terminal echoed a control character (`^C`) at the cursor while an input ran: the line is
// open, so that the error or value printed next starts on a line of its own (it was joined:
// `^C<input 2>:1:1: runtime error: interrupted`). Async-signal-safe.
void noteTerminalEcho();

// Flushes standard output, then writes a line break if what was written last did not end
// with one.
void endLine();

}  // namespace cairn::repl

#endif  // CAIRN_REPL_OUTPUT_H
