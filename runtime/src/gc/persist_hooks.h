// What the collector asks of the persistence layer (runtime/src/persist/), which owns the map
// from (database, page id) to heap frame and talks to the store. The collector itself knows
// persistent pages only through the page table (P9, P10).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "cairn/status.h"

namespace cairn::gc {

class PersistHooks {
 public:
  virtual ~PersistHooks() = default;
  // A clean persistent page (or large run) that nothing reached loses its frame (Figure 4):
  // forget the frame; the collector then frees it.
  virtual void ForgetFrame(size_t frame) = 0;
  // Pages [frame, frame + n) become persistent in database `db` during stabilization: give them
  // page ids (consecutive for a run) in the open transaction and record them.
  virtual Status AssignPageIds(uint8_t db, size_t frame, size_t n) = 0;
  // The name of an open database, for messages.
  virtual std::string DatabaseName(uint8_t db) = 0;
  // The identity hash of the persistent object at payload offset `offset` of the page (or large
  // object's run) at frame `head` (gc/identity_hash.h). Reads nothing of the page itself.
  virtual uint64_t IdentityHash(size_t head, uint32_t offset) = 0;
};

}  // namespace cairn::gc
