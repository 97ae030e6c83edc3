#include "gc/gc_heap.h"

#include <algorithm>
#include <csetjmp>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "gc/verifier.h"
#include "util/clock.h"
#include "util/env.h"
#include "util/fatal.h"

namespace cairn::gc {

GcHeap *GcHeap::instance_ = nullptr;

static constexpr size_t kClearStackBytes = 2048;

Status GcHeap::Init(const cairn_options *opts) {
  HeapOptions o;
  std::string problem;
  if (!EnvMegabytes("CAIRN_HEAP_RESERVE_MB", o.reserve_bytes, &o.reserve_bytes, &problem))
    return Status(CAIRN_INVALID_ARGUMENT, problem);
#ifndef NDEBUG
  o.verify = true;
#endif
  // CAIRN_GC_VERIFY=1 turns verification on; =0 turns it off even in a debug build (the
  // language suite's stress runs collect at every allocation and would otherwise verify the
  // whole heap each time: quadratic in a program's allocations).
  o.verify = EnvFlag("CAIRN_GC_VERIFY", o.verify) == 1;
  o.trace = EnvFlag("CAIRN_GC_TRACE", 0) == 1;
  if (opts) {
    if (opts->reserve_bytes) o.reserve_bytes = opts->reserve_bytes;
    if (opts->min_trigger_bytes) o.min_trigger_bytes = opts->min_trigger_bytes;
    if (opts->growth_factor > 0) o.growth_factor = opts->growth_factor;
    if (opts->verify) o.verify = true;
  }
  auto *h = new GcHeap(o);
  // A size chosen (the variable, or the embedder's option) is the heap's; the default one is cut
  // to the machine (PageHeap::Reserve).
  const char *chosen = std::getenv("CAIRN_HEAP_RESERVE_MB");
  const bool fit_machine = (chosen == nullptr || *chosen == '\0') && !(opts && opts->reserve_bytes);
  Status s = h->pages_.Reserve(o.reserve_bytes, fit_machine);
  if (!s.ok()) {
    delete h;
    return s;
  }
  h->roots_.AdoptCurrentThread();
  h->trigger_ = o.min_trigger_bytes;
  instance_ = h;
  return Status::Ok();
}

// Zeroes dead stack below the caller's frame. Frames made there later start clean, so their
// unwritten slots cannot hold stale references that would act as ambiguous roots and keep
// garbage alive (the same remedy as the Boehm collector's GC_clear_stack). Not instrumented: with
// AddressSanitizer's fake frames its array would not be on the stack.
__attribute__((noinline)) CAIRN_NO_SANITIZE_ADDRESS static void ClearDeadStack() {
  volatile char dead[kClearStackBytes];
  std::memset(const_cast<char *>(dead), 0, sizeof dead);
  asm volatile("" : : "r"(dead) : "memory");
}

char *GcHeap::AllocateSlow(size_t bytes) {
  ClearDeadStack();
  if (bytes > heap::kLargeObjectBytes) return AllocateLarge(bytes);
  if (tail_ != heap::kNoPage)
    if (char *p = AllocateInTail(bytes)) return p;
  mutator_.Retire(pages_);
  size_t i = CopyRoomFor(1) ? pages_.TakePage(heap::Space::kCurrent) : heap::kNoPage;  // C1
  if (i == heap::kNoPage) {
    CollectNow();  // the mutator continues in the collector's last copy page
    if (char *p = mutator_.TryAlloc(bytes)) return p;
    mutator_.Retire(pages_);
    i = CopyRoomFor(1) ? pages_.TakePage(heap::Space::kCurrent) : heap::kNoPage;
    if (i == heap::kNoPage) HeapFullOfSmall();
  }
  mutator_.Start(pages_, i);
  // Keep about a collection's worth of copying prefaulted beyond the high water mark, so that
  // the next collection does not take page faults in its pause. Approached a step at a time
  // (twice the pages allocated since the last check): prefaulting the whole 8 MiB at once cost
  // the allocation that crossed the first check several milliseconds (OO7's Insert).
  if (++pages_since_prefault_ >= kPrefaultChunk) {
    pages_since_prefault_ = 0;
    uint64_t want = stats_.live_bytes_last > options_.min_trigger_bytes
                        ? stats_.live_bytes_last
                        : options_.min_trigger_bytes;
    // Free pages below the high water mark are touched already (but those whose memory a
    // collection gave back, which it does only beyond this target); prefault only what they lack.
    size_t want_pages = size_t(want / heap::kPageSize);
    size_t have = pages_.free_transient_pages();
    if (want_pages > have) pages_.Prefault(want_pages - have, 2 * kPrefaultChunk);
  }
  char *p = mutator_.TryAlloc(bytes);
  if (pages_.pages_in_use() > stats_.peak_heap_pages)
    stats_.peak_heap_pages = pages_.pages_in_use();
  return p;
}

char *GcHeap::AllocateInTail(size_t bytes) {
  heap::PageInfo &pi = pages_.Info(tail_);
  if (persist_hooks_ == nullptr || !pi.persistent() || pi.db != tail_db_ ||
      pi.kind != heap::PageKind::kSmall || pi.space != heap::Space::kCurrent ||
      pages_.PageId(tail_) != tail_id_ || pi.used + bytes > heap::kPageSize ||
      !persist_hooks_->OpenTail(tail_)) {
    tail_ = heap::kNoPage;
    return nullptr;
  }
  char *p = pages_.PageAddress(tail_) + pi.used;
#ifndef NDEBUG
  for (size_t w = 0; w < bytes / heap::kWordSize; w++)
    if (reinterpret_cast<const uint64_t *>(p)[w] != 0)
      Fatal("internal error: the free tail of persistent page %zu is not zero at byte %zu", tail_,
            size_t(pi.used + w * heap::kWordSize));
#endif
  pi.used += uint32_t(bytes);
  persist_hooks_->LodgeTenant(tail_, p + heap::kWordSize);  // A1: known as a tenant at once
  return p;
}

void GcHeap::ChooseAllocationPage(CollectionResult &r, size_t was,
                                  const StabilizeOutcome *outcome) {
  size_t tail = tail_;
  if (outcome != nullptr) {
    // A1: a stabilization keeps the tail open only if it adopted something from it, and opens
    // one on the mutator's page if it made that page persistent in place.
    const auto has = [](const std::vector<size_t> &v, size_t x) {
      return std::find(v.begin(), v.end(), x) != v.end();
    };
    if (!outcome->status.ok())
      tail = heap::kNoPage;
    else if (tail != heap::kNoPage)
      tail = has(outcome->adopted, tail) ? tail : heap::kNoPage;
    else if (was != heap::kNoPage && has(outcome->made_persistent, was))
      tail = was;
  }
  if (tail != heap::kNoPage) {
    const heap::PageInfo &pi = pages_.Info(tail);
    if (!pi.persistent() || pi.kind != heap::PageKind::kSmall ||
        pi.space != heap::Space::kCurrent || pi.used + 2 * heap::kWordSize > heap::kPageSize ||
        (tail == tail_ && (pi.db != tail_db_ || pages_.PageId(tail) != tail_id_)))
      tail = heap::kNoPage;
  }
  if (tail == heap::kNoPage) {
    tail_ = heap::kNoPage;
    mutator_ = r.copy_region;  // continue allocating where the copying stopped
    return;
  }
  r.copy_region.Retire(pages_);
  mutator_ = BumpRegion{};
  tail_ = tail;
  tail_db_ = pages_.Info(tail).db;
  tail_id_ = pages_.PageId(tail);
}

bool GcHeap::CopyRoomFor(size_t pages) const {
  const size_t small = pages_.transient_small_pages();
  return pages_.transient_free_pages() >= pages + small + small / 8 + 1;
}

void GcHeap::HeapFull(const char *fmt, ...) {
  char message[1024];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(message, sizeof message, fmt, ap);
  va_end(ap);
  CallOutOfMemoryHook(message);  // may jump away
  OutOfMemory("%s", message);
}

void GcHeap::HeapFullOfSmall() {
  HeapFull(
      "out of memory: the heap is full (%llu MiB live after a collection; a collection needs "
      "as much free to copy into, and %s has no more). %s.",
      static_cast<unsigned long long>(stats_.live_bytes_last >> 20),
      pages_.DescribeReservation().c_str(), pages_.ReserveAdvice(true).c_str());
}

void GcHeap::HeapFullForLarge(size_t bytes, size_t pages) {
  HeapFull(
      "out of memory: no room for an object of %zu bytes (%zu pages) beside the %llu MiB live "
      "after a collection (which needs as much free as is live, to copy into) in %s. %s.",
      bytes, pages, static_cast<unsigned long long>(stats_.live_bytes_last >> 20),
      pages_.DescribeReservation().c_str(), pages_.ReserveAdvice(false).c_str());
}

bool GcHeap::HasRoomFor(size_t bytes) {
  if (bytes <= heap::kLargeObjectBytes) return true;
  const size_t n = (bytes + heap::kPageSize - 1) / heap::kPageSize;
  if (pages_.HasRun(n) && CopyRoomFor(n)) return true;
  CollectNow();
  return pages_.HasRun(n) && CopyRoomFor(n);
}

char *GcHeap::AllocateLarge(size_t bytes) {
  size_t n = (bytes + heap::kPageSize - 1) / heap::kPageSize;
  size_t i = CopyRoomFor(n) ? pages_.TakeRun(n, heap::Space::kCurrent) : heap::kNoPage;  // C1
  if (i == heap::kNoPage) {
    CollectNow();
    i = CopyRoomFor(n) ? pages_.TakeRun(n, heap::Space::kCurrent) : heap::kNoPage;
    if (i == heap::kNoPage) HeapFullForLarge(bytes, n);
  }
  pages_.Info(i).used = uint32_t(bytes);
  if (pages_.pages_in_use() > stats_.peak_heap_pages)
    stats_.peak_heap_pages = pages_.pages_in_use();
  return pages_.PageAddress(i);
}

struct GcHeap::Pending {
  std::span<const StabilizeRoot> roots;
  StabilizeOutcome *outcome = nullptr;  // null: an ordinary collection
  uint64_t pause = 0;
};

// The stack is scanned from this function's frame up: everything above it, including the
// registers the entry points spilled, is seen; the collector's own frames below it are not. These
// three are not instrumented by AddressSanitizer, so that their frames (and the registers spilled
// in them) are on the stack, not in ASan's fake frames.
__attribute__((noinline)) CAIRN_NO_SANITIZE_ADDRESS void CollectWithStackTop(GcHeap *heap,
                                                                             GcHeap::Pending *p) {
  heap->CollectFrom(__builtin_frame_address(0), p);
}

__attribute__((noinline)) CAIRN_NO_SANITIZE_ADDRESS void GcHeap::CollectNow() {
  std::jmp_buf regs;  // spills the callee-saved registers into this frame
  setjmp(regs);
  __builtin_unwind_init();  // ... all of them, whatever setjmp mangles
  Pending p;
  CollectWithStackTop(this, &p);
  asm volatile("" : : "r"(&regs) : "memory");
}

__attribute__((noinline)) CAIRN_NO_SANITIZE_ADDRESS uint64_t
GcHeap::StabilizeNow(std::span<const StabilizeRoot> roots, StabilizeOutcome *outcome) {
  std::jmp_buf regs;
  setjmp(regs);
  __builtin_unwind_init();
  Pending p{roots, outcome, 0};
  CollectWithStackTop(this, &p);
  asm volatile("" : : "r"(&regs) : "memory");
  return p.pause;
}

void GcHeap::CollectFrom(const void *stack_top, Pending *p) {
  if (collecting_) Fatal("a collection was started inside a collection");
  collecting_ = true;
  uint64_t t0 = NowNs();
  const size_t was = mutator_.page;
  mutator_.Retire(pages_);
  const bool release = !p->outcome && persist_hooks_ && persist_hooks_->ReleaseFramesNow();
  if (release) persist_hooks_->PrepareRelease();
  CollectionResult r = p->outcome ? collector_.Stabilize(stack_top, p->roots, p->outcome)
                                  : collector_.Collect(stack_top, release);
  ChooseAllocationPage(r, was, p->outcome);
  p->pause = NowNs() - t0;
  collecting_ = false;
  AfterCollection(r, p->pause);
}

void GcHeap::AfterCollection(const CollectionResult &r, uint64_t pause) {
  stats_.collections++;
  stats_.total_pause_ns += pause;
  if (pause > stats_.max_pause_ns) stats_.max_pause_ns = pause;
  stats_.bytes_copied += r.bytes_copied;
  stats_.pages_promoted += r.pages_promoted;
  stats_.persistent_pages_scanned += r.persistent_pages_scanned;
  stats_.frame_releases += r.released_frames;
  stats_.pages_pinned_last = r.pages_pinned;
  stats_.live_bytes_last = r.live_bytes;
  if (r.peak_pages > stats_.peak_heap_pages) stats_.peak_heap_pages = r.peak_pages;
  since_last_ = 0;
  uint64_t grow = uint64_t(options_.growth_factor * double(r.live_bytes));
  trigger_ = grow > options_.min_trigger_bytes ? grow : options_.min_trigger_bytes;
  // The memory of free pages beyond what the next collection cycle can use (the allocation
  // until it, trigger_, and the room its copying needs, C1) goes back to the system, when they
  // are more than that again (and 8 MiB): a program whose live data shrank does not keep its
  // peak's memory, and one in a steady state makes no system call (docs/gc.md).
  size_t next = size_t(trigger_ / heap::kPageSize) + pages_.transient_small_pages() * 9 / 8 + 1;
  size_t returned = pages_.ReturnFreeMemory(next, next > 1024 ? next : 1024);
  // ... and so does the memory touched ahead of the high water mark for a peak's collections
  // (campaign T: 200 of a dead 480 MB list's 750 MB stayed so), by the same rule.
  returned += pages_.TrimPrefault(next, next > 1024 ? next : 1024);
  stats_.pages_returned += returned;
  if (options_.trace)
    std::fprintf(stderr,
                 "cairn gc #%llu: %.2f ms, copied %.1f KiB, promoted %llu pages (%llu pinned), "
                 "live %.1f KiB, %zu pages in use, %zu free pages returned, %llu frames released, "
                 "next after %.1f KiB\n",
                 static_cast<unsigned long long>(stats_.collections), double(pause) / 1e6,
                 double(r.bytes_copied) / 1024, static_cast<unsigned long long>(r.pages_promoted),
                 static_cast<unsigned long long>(r.pages_pinned), double(r.live_bytes) / 1024,
                 pages_.pages_in_use(), returned,
                 static_cast<unsigned long long>(r.frames_released), double(trigger_) / 1024);
  if (options_.verify) {
    size_t problems = Verify(20);
    if (problems)
      Fatal("the heap verifier found %zu problem(s) after collection %llu (listed above)", problems,
            static_cast<unsigned long long>(stats_.collections));
  }
}

uint64_t GcHeap::IdentityHash(const void *ref) {
  const heap::PageInfo *pi = pages_.Covers(ref) ? &pages_.Info(pages_.IndexOf(ref)) : nullptr;
  if (!pi || pi->space == heap::Space::kFree || uintptr_t(ref) % heap::kWordSize)
    Fatal("cairn_identity_hash was given %p, which is not a reference to a heap object", ref);
  if (pi->persistent() && persist_hooks_) {
    size_t i = pages_.IndexOf(ref);
    size_t head = pi->kind == heap::PageKind::kLargeTail ? i - pi->run : i;
    return persist_hooks_->IdentityHash(
        head, uint32_t(static_cast<const char *>(ref) - pages_.PageAddress(head)));
  }
  return hashes_.HashOf(reinterpret_cast<uintptr_t>(ref));
}

size_t GcHeap::Verify(size_t max_report) {
  SyncAllocation();
  size_t problems = VerifyHeap(pages_, roots_, persist_hooks_, max_report);
  if (persist_hooks_) problems += persist_hooks_->VerifyFrames(max_report);
  return problems;
}

void GcHeap::GetStats(cairn_stats *out) {
  *out = stats_;
  out->heap_pages = pages_.pages_in_use();
  out->free_pages = pages_.free_pages_below_high_water();
  out->transient_pages = pages_.transient_in_use();
  out->reserved_bytes = pages_.reserved_bytes();
  out->requested_bytes = pages_.requested_bytes();
  out->machine_bytes = pages_.machine_bytes();
  if (out->heap_pages > out->peak_heap_pages) out->peak_heap_pages = out->heap_pages;
}

}  // namespace cairn::gc
