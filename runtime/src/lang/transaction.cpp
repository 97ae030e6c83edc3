// The built-in class Transaction and atomic { } over cairn/persist.h (cairn/lang.h,
// Transaction).
//
// Handles: every begin (Transaction.begin() or atomic) takes the next number, 1, 2, ...; the
// number of the open transaction is `current`. A handle names an open transaction while it is
// `current` and the runtime has a transaction open; chain() keeps `current`, commit() and
// abort() end it (current = 0). So a handle whose transaction has ended never names another.
#include "lang/transaction.h"

#include <cstdio>
#include <string>

#include "cairn/lang.h"
#include "lang/errors.h"
#include "lang/text.h"
#include "util/stack_scrub.h"

namespace cairn::lang {
namespace {

int64_t last_handle = 0;      // the number the last begin took
int64_t current = 0;          // the open transaction's handle, 0 if none
std::string began_at;         // where the open transaction `current` began ("file:line:col")
bool began_atomic = false;    // whether an atomic block began it (else Transaction.begin())
std::string written_at;       // where `current` last wrote its changes (a checkpoint), or ""
bool began_by_chain = false;  // `current` is the one a chain() began (at began_at)
bool storeless = false;       // `current` began with no store, and the runtime has none open
                              // (NoStore in transaction.h)
int64_t ended = 0;            // the handle whose transaction a commit() or abort() ended last
std::string ended_how;        // "committed" or "aborted"
std::string ended_at;         // where ("file:line:col")

int (*outer_hook)(void *) = nullptr;  // cairn_lang_set_outer_transaction_hook
void *outer_ctx = nullptr;

// Whether a transaction is open: the runtime's, or a storeless one.
bool IsOpen() { return storeless || cairn_txn_is_open(); }

// "file:line:col", or "" when the position is not known.
std::string LocText(const cairn_loc *loc) {
  return loc != nullptr && loc->file != nullptr
             ? std::string(loc->file) + ":" + std::to_string(loc->line) + ":" +
                   std::to_string(loc->col)
             : std::string();
}

// `atomic`: whether an atomic block begins it (else Transaction.begin()).
void Begin(const cairn_loc *loc, bool atomic) {
  if (current == 0 && !storeless && cairn_txn_is_open() && outer_hook != nullptr) {
    // The embedder's transaction (no code began it): it may end it first.
    const int ended = outer_hook(outer_ctx);
    if (ended < 0) {
      std::string &message = ErrorMessage();
      message = std::string("the transaction open before this one could not commit: ") +
                cairn_last_error();
      RuntimeError(loc, message);
    }
  }
  if (IsOpen()) {
    std::string &message = ErrorMessage();  // nothing of it leaks when a hook jumps away
    message = "a transaction is already open";
    const bool known = current != 0 && !began_at.empty();
    if (known) message += " (it began at " + began_at + ")";
    if (known && began_atomic)
      message += atomic ? ": atomic blocks do not nest; do this work in the enclosing block's "
                          "transaction"
                        : ": transactions do not nest; inside an atomic block, do this work in "
                          "its transaction";
    else
      message += atomic ? ": transactions do not nest, nor do atomic blocks; do this work in the "
                          "open transaction, or end that one before this block"
                        : ": transactions do not nest; end it (commit or abort) before beginning "
                          "another";
    RuntimeError(loc, message);
  }
  storeless = NoStore();
  if (!storeless && cairn_txn_begin() != CAIRN_OK) DatabaseError(loc);
  current = ++last_handle;
  began_atomic = atomic;
  began_at = LocText(loc);
  began_by_chain = false;
  written_at.clear();
}

// A handle's transaction ended by commit() or abort() (the one a chain() ends goes on in the
// same handle), for the message of a later use of the handle.
void NoteEnded(const cairn_loc *loc, int64_t txn, const char *how) {
  ended = txn;
  ended_how = how;
  ended_at = LocText(loc);
}

void RequireOpen(const cairn_loc *loc, int64_t txn) {
  if (cairn_lang_txn_is_open(txn)) return;
  std::string message = "transaction is not open";
  if (txn == 0)
    message +=
        ": the handle holds none (a Transaction variable without a value is nil); begin "
        "one with Transaction.begin()";
  else if (txn == ended && !ended_at.empty())
    message += ": it was " + ended_how + " at " + ended_at +
               "; a handle's transaction, once ended, stays ended: begin another with "
               "Transaction.begin()";
  else if (txn > 0 && txn <= last_handle)
    message += ": it has ended; begin another with Transaction.begin()";
  RuntimeError(loc, message);
}

}  // namespace

void StoreMade(const cairn_loc *loc) {
  if (!storeless || current == 0) return;
  if (cairn_txn_begin() != CAIRN_OK) DatabaseError(loc);
  storeless = false;
}

void AbortOpenTransaction() {
  current = 0;
  storeless = false;
  if (!cairn_txn_is_open()) return;
  if (cairn_txn_abort() != CAIRN_OK)
    std::fprintf(stderr, "cairn: the open transaction could not be aborted: %s\n",
                 cairn_last_error());
}

void AbortTransactionLeftOpen() {
  if (IsOpen()) {
    const bool known = current != 0 && !began_at.empty();
    std::string where =
        known ? (began_by_chain ? " (begun by the chain() at " : " (begun at ") + began_at : "";
    if (known && !written_at.empty())
      where += "; written up to its last checkpoint(), at " + written_at;
    if (known) where += ")";
    std::fprintf(stderr,
                 "cairn: note: main returned with a transaction open%s: it is aborted, and "
                 "nothing of it %swas written; commit it (t.commit(), or use atomic { }) before "
                 "main returns\n",
                 where.c_str(), known && !written_at.empty() ? "since then " : "");
  } else if (cairn_txn_changes_pending()) {
    std::fprintf(stderr,
                 "cairn: note: main returned after changing persistent objects outside a "
                 "transaction (after the last commit or abort): the changes are not written; "
                 "make them inside atomic { } or a transaction\n");
  }
  AbortOpenTransaction();
}

}  // namespace cairn::lang

using namespace cairn::lang;

void cairn_lang_set_outer_transaction_hook(int (*hook)(void *ctx), void *ctx) {
  cairn::lang::outer_hook = hook;
  cairn::lang::outer_ctx = ctx;
}

// The entry points that end a transaction by committing are reached through stubs that zero the
// dead stack below the caller before anything else runs (see below), so that every frame of the
// commit is built over zeros; these are the functions the stubs jump to.
extern "C" {
__attribute__((visibility("hidden"), used)) void cairn_lang_txn_commit_scrubbed(
    const cairn_loc *loc, int64_t txn) {
  RequireOpen(loc, txn);
  if (!storeless && cairn_txn_commit() != CAIRN_OK) DatabaseError(loc);
  NoteEnded(loc, txn, "committed");
  current = 0;
  storeless = false;
}

__attribute__((visibility("hidden"), used)) void cairn_lang_txn_chain_scrubbed(const cairn_loc *loc,
                                                                               int64_t txn) {
  RequireOpen(loc, txn);
  if (!storeless && cairn_txn_chain() != CAIRN_OK) DatabaseError(loc);
  // What came before is committed; the transaction open now began here.
  began_at = LocText(loc);
  began_by_chain = true;
  written_at.clear();
}

__attribute__((visibility("hidden"), used)) void cairn_lang_txn_checkpoint_scrubbed(
    const cairn_loc *loc, int64_t txn) {
  RequireOpen(loc, txn);
  if (!storeless && cairn_txn_checkpoint() != CAIRN_OK) DatabaseError(loc);
  written_at = LocText(loc);
}

__attribute__((visibility("hidden"), used)) void cairn_lang_atomic_commit_scrubbed(
    const cairn_loc *loc) {
  if (!IsOpen()) RuntimeError(loc, "transaction is not open");
  if (!storeless && cairn_txn_commit() != CAIRN_OK) DatabaseError(loc);
  current = 0;
  storeless = false;
}
}  // extern "C"

// The stubs. The collector scans the stack conservatively, and a commit makes a page that a
// stack word points into persistent in place (ambiguously) if the commit reaches it. The words
// that matter are those of live frames; but the frames of the commit itself are built over the
// dead frames of the program's earlier calls, and a slot they never write (alignment padding, a
// register save area) still holds an old word. cairn_txn_commit zeroes the dead stack below
// itself (runtime/src/util/stack_scrub.h), which leaves its own frame and this file's; these
// stubs zero 64 KiB below the Cairn caller's frame first and then jump (not call) to the
// function, so no frame of the commit holds anything the program left. x86-64 only (the
// arguments stay in rdi and rsi; rdi is kept in r10, the target in r11, both scratch); other
// targets call the function after util::ScrubDeadStack.
#if defined(__x86_64__)
asm(R"(
    .text
    .p2align 4
    .type cairn_lang_scrub_and_jump, @function
cairn_lang_scrub_and_jump:
    movq %rdi, %r10
    subq $65536, %rsp
    movq %rsp, %rdi
    movl $8192, %ecx
    xorl %eax, %eax
    rep stosq
    addq $65536, %rsp
    movq %r10, %rdi
    jmp *%r11
    .size cairn_lang_scrub_and_jump, .-cairn_lang_scrub_and_jump

    .globl cairn_lang_txn_commit
    .type cairn_lang_txn_commit, @function
cairn_lang_txn_commit:
    leaq cairn_lang_txn_commit_scrubbed(%rip), %r11
    jmp cairn_lang_scrub_and_jump
    .size cairn_lang_txn_commit, .-cairn_lang_txn_commit

    .globl cairn_lang_txn_chain
    .type cairn_lang_txn_chain, @function
cairn_lang_txn_chain:
    leaq cairn_lang_txn_chain_scrubbed(%rip), %r11
    jmp cairn_lang_scrub_and_jump
    .size cairn_lang_txn_chain, .-cairn_lang_txn_chain

    .globl cairn_lang_txn_checkpoint
    .type cairn_lang_txn_checkpoint, @function
cairn_lang_txn_checkpoint:
    leaq cairn_lang_txn_checkpoint_scrubbed(%rip), %r11
    jmp cairn_lang_scrub_and_jump
    .size cairn_lang_txn_checkpoint, .-cairn_lang_txn_checkpoint

    .globl cairn_lang_atomic_commit
    .type cairn_lang_atomic_commit, @function
cairn_lang_atomic_commit:
    leaq cairn_lang_atomic_commit_scrubbed(%rip), %r11
    jmp cairn_lang_scrub_and_jump
    .size cairn_lang_atomic_commit, .-cairn_lang_atomic_commit
)");
#else
extern "C" {
void cairn_lang_txn_commit(const cairn_loc *loc, int64_t txn) {
  cairn::util::ScrubDeadStack();
  cairn_lang_txn_commit_scrubbed(loc, txn);
}
void cairn_lang_txn_chain(const cairn_loc *loc, int64_t txn) {
  cairn::util::ScrubDeadStack();
  cairn_lang_txn_chain_scrubbed(loc, txn);
}
void cairn_lang_txn_checkpoint(const cairn_loc *loc, int64_t txn) {
  cairn::util::ScrubDeadStack();
  cairn_lang_txn_checkpoint_scrubbed(loc, txn);
}
void cairn_lang_atomic_commit(const cairn_loc *loc) {
  cairn::util::ScrubDeadStack();
  cairn_lang_atomic_commit_scrubbed(loc);
}
}  // extern "C"
#endif

extern "C" {

int64_t cairn_lang_txn_begin(const cairn_loc *loc) {
  Begin(loc, false);
  return current;
}

void cairn_lang_txn_abort(const cairn_loc *loc, int64_t txn) {
  RequireOpen(loc, txn);
  if (!storeless && cairn_txn_abort() != CAIRN_OK) DatabaseError(loc);
  NoteEnded(loc, txn, "aborted");
  current = 0;
  storeless = false;
}

int cairn_lang_txn_is_open(int64_t txn) { return txn != 0 && txn == current && IsOpen(); }

void *cairn_lang_txn_str(int64_t txn) {
  if (txn == 0) return NewText("nil");  // a handle of nothing (`var t: Transaction`)
  return NewText("Transaction#" + std::to_string(txn) +
                 (cairn_lang_txn_is_open(txn) ? " (open)" : ""));
}

void cairn_lang_atomic_begin(const cairn_loc *loc) { Begin(loc, true); }

}  // extern "C"
