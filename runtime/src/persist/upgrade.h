// The upgrade of a database to this program's types (cairn_db_upgrade, the language's
// Database.upgrade): objects of a type the program defines differently are converted to the
// program's definition, in one store transaction, before the database is opened.
//
// Rules (docs/persistence.md, "Changing a class"):
//   U1. A stored type is converted when the program has no type with its fingerprint but has a
//       type of its name (fields added, removed, reordered, moved between a class and its base).
//       The program's type is the one of that name registered last. Fillers and the runtime's
//       plain blocks are never converted; a type the program lacks entirely is left as it is.
//   U2. Fields are matched by name, through base classes (a class's base is a nested struct of
//       it): a field of both keeps its value; one the program adds starts as zero (0, 0.0,
//       false, nil); one it removed is dropped. A field of both must have the same kind, count
//       and declared type (where the database recorded one), and a class must keep every class
//       it extended (references declared as one may hold its objects), else nothing is
//       converted and the error names the type and the field or base. A type the program has
//       by fingerprint is kept as it is, and must have the same declared field types (checked
//       first: the open after the upgrade would refuse it). An array type converts only to the
//       same element layout (its objects keep their bytes; only the header changes).
//   U3. An object that keeps its size is converted where it is; one whose size changes moves to
//       a new page, and every reference to it (from reached objects and from the root) is
//       rewritten, its identity hash going with it. The place it left becomes a filler; a page
//       left with no live object is freed.
//   U4. Only objects the root reaches are converted (stored_graph.h, G1). As `cairn db gc`
//       does, every dead object on a reached page becomes a filler (one of a converted type
//       could not be read by the program; one of another type may refer to a place the upgrade
//       made a filler, which db check reports as damage), and every page the root does not reach
//       is freed. The program's type is added to the type table even when no object of it was
//       reached, so that the open that follows finds it.
//   U5. All of it is one store transaction: a crash leaves the database as it was or upgraded.
//       An error (a type that cannot be converted, a damaged page) writes nothing.
//   U6. The converted definition's entry stays in the type table (its index is never reused,
//       and an upgrade back gives it its name again), renamed "<name> (replaced by an upgrade)"
//       (type_layout.h, kReplacedByUpgrade): the table holds one definition of each name again
//       (D19 of persistence.h), so the next upgrade by the same program finds nothing to convert
//       and walks nothing; a program of the replaced definition is refused at open, told so
//       (type_check.cpp), and may upgrade back, which gives the entry its name back.
//   U7. What was converted is said (cairn_upgrade_report.summary, which the language prints as
//       a note): per type, the objects converted, the fields added, and the fields dropped with
//       how many objects held a value of them (a renamed field is one dropped and one added:
//       its values are gone, and the note says so).
#pragma once

#include <string>
#include <string_view>

#include "cairn/persist.h"
#include "cairn/status.h"
#include "cairn/store.h"

namespace cairn::persist {

// Converts database `name` of `store` to the program's registered types (U1-U7). Fills *report
// (zeros if nothing needed converting; then nothing is written).
// *summary gets U7's lines ("" if nothing was converted).
Status UpgradeDatabase(store::Store &store, std::string_view name, cairn_upgrade_report *report,
                       std::string *summary);

}  // namespace cairn::persist
