// What a database's type table keeps for tools (docs/store-format.md, layout encoding 2): each
// field's declared type and a nested struct's own layout (a base class), read back with
// cairn_db_stored_types by a program that has none of the types; an entry already in the table
// (in whatever encoding, with whatever declared types) is kept when another program commits
// objects of the same type; version 1 entries (stores written before) decode; a newer version
// is refused with a message that says what to do.
#include <string>

#include "cairn/type_builder.hpp"
#include "child.h"
#include "persist/type_layout.h"
#include "persist_test.h"

using namespace cairn_ptest;

namespace {

// tt.Base { id: int } and tt.Derived : tt.Base { next: tt.Derived; x: float }, declared types
// as a front end would give them (`declared_next` for Derived.next).
struct Base {
  int64_t id;
};
struct Derived {
  Base base;
  void *next;
  double x;
};

const cairn_type *BaseType() {
  static const cairn_type *t = cairn::TypeBuilder::Plain("tt.Base", sizeof(Base))
                                   .Add("id", 0, CAIRN_KIND_I64)
                                   .Declared("int")
                                   .Build();
  return t;
}

const cairn_type *DerivedType(const std::string &declared_next) {
  return cairn::TypeBuilder::Plain("tt.Derived", sizeof(Derived))
      .AddStruct("tt.Base", offsetof(Derived, base), BaseType())
      .Add("next", offsetof(Derived, next), CAIRN_KIND_REF)
      .Declared(declared_next)
      .Add("x", offsetof(Derived, x), CAIRN_KIND_F64)
      .Declared("float")
      .Super(BaseType())
      .Build();
}

// One line per field: name kind declared-type, a nested layout in braces.
std::string Describe(const cairn_type *t) {
  std::string s = std::string(t->name) + " {";
  for (uint32_t i = 0; i < t->nfields; i++) {
    const cairn_field &f = t->fields[i];
    s += std::string(i ? ", " : " ") + f.name + ":" + std::to_string(f.kind) + ":" +
         (f.type ? f.type : "-");
    if (f.nested) s += " " + Describe(f.nested);
  }
  return s + " }";
}

}  // namespace

// args: the declared type of Derived.next. Database "tt" (created unless it exists): its root
// a new Derived{id 7, x 2.5}, pointing at the old root.
PERSIST_CHILD(TypeTable_Write) {
  OpenStore(args);
  const cairn_type *derived = DerivedType(args.args.at(0));
  int exists = 0;
  CK_OK(cairn_db_exists("tt", &exists));
  cairn_db *db = exists ? OpenDb("tt") : CreateDb("tt");
  CK_OK(cairn_txn_begin());
  void *old = nullptr;
  CK_OK(cairn_db_get_root(db, &old));
  auto *d = static_cast<Derived *>(cairn_malloc_typed(derived));
  d->base.id = 7;
  d->x = 2.5;
  d->next = old;
  CK_OK(cairn_db_set_root(db, d));
  CK_OK(cairn_txn_commit());
  return 0;
}

// Prints the type table of "tt" as cairn_db_stored_types gives it, without any of its types.
PERSIST_CHILD(TypeTable_List) {
  OpenStore(args);
  cairn_db *db = OpenDb("tt");
  auto print = [](const cairn_type *t, void *) {
    if (std::string(t->name).rfind("tt.", 0) == 0)
      Say("%s fp=%s\n", Describe(t).c_str(), t->fingerprint ? "yes" : "no");
  };
  CK_OK(cairn_db_stored_types(db, print, nullptr));
  int open = 0;
  cairn_db_each_open(
      [](cairn_db *d, void *ctx) {
        Say("open %s\n", cairn_db_name(d));
        ++*static_cast<int *>(ctx);
      },
      &open);
  CK_EQ(open, 1);
  return 0;
}

// Reads both objects back (with the types registered), as a check that nothing was misread.
PERSIST_CHILD(TypeTable_Read) {
  OpenStore(args);
  CK_OK(cairn_register_type(DerivedType("tt.Derived")));
  cairn_db *db = OpenDb("tt");
  CK_OK(cairn_txn_begin());
  auto *d = RootAs<Derived>(db);
  CK_EQ(d->base.id, 7);
  auto *older = static_cast<Derived *>(d->next);
  CK(older != nullptr);
  CK_EQ(older->x, 2.5);
  CK(older->next == nullptr);
  CK_OK(cairn_txn_abort());
  return 0;
}

class PersistTypeTable : public PersistTest {};

TEST_F(PersistTypeTable, KeepsDeclaredTypesAndBaseLayoutsForAProgramWithoutTheTypes) {
  ASSERT_CHILD_OK(Run("TypeTable_Write", {"tt.Derived"}));
  ChildResult r = Run("TypeTable_List");
  ASSERT_CHILD_OK(r);
  const std::string kind_struct = std::to_string(CAIRN_KIND_STRUCT);
  const std::string kind_ref = std::to_string(CAIRN_KIND_REF);
  EXPECT_EQ(r.out, "tt.Derived { tt.Base:" + kind_struct + ":- tt.Base { id:" +
                       std::to_string(CAIRN_KIND_I64) + ":int }, next:" + kind_ref +
                       ":tt.Derived, x:" + std::to_string(CAIRN_KIND_F64) +
                       ":float } fp=yes\n"
                       "open tt\n");
}

TEST_F(PersistTypeTable, AFieldDeclaredAnotherTypeIsAMismatchAndTheEntryIsKept) {
  ASSERT_CHILD_OK(Run("TypeTable_Write", {"tt.Derived"}));
  // The same fingerprint and offsets, but `next` declared another type: reading the stored
  // objects as this program's would misread them (the same-layout rule compares declared
  // types when both sides give one, cairn/type.h), so the commit is refused, naming both.
  ChildResult refused = Run("TypeTable_Write", {"any"});
  EXPECT_FALSE(refused.ok());
  EXPECT_NE(refused.err.find("type 'tt.Derived' in database 'tt' stores field 'next' as "
                             "tt.Derived, but this program declares it any"),
            std::string::npos)
      << refused.err;
  // The same program again commits, and the table keeps what the first one wrote.
  ASSERT_CHILD_OK(Run("TypeTable_Write", {"tt.Derived"}));
  ChildResult r = Run("TypeTable_List");
  ASSERT_CHILD_OK(r);
  EXPECT_NE(r.out.find("next:" + std::to_string(CAIRN_KIND_REF) + ":tt.Derived,"),
            std::string::npos)
      << r.out;
  ASSERT_CHILD_OK(Run("TypeTable_Read"));
}

// The encodings, directly.
TEST(PersistTypeLayout, Version1EntriesDecodeAndNewerVersionsAreRefused) {
  using cairn::persist::DecodeLayout;
  using cairn::persist::StoredLayout;
  // A version 1 entry as stores written before format 2 hold it: tt.Base { id: I64 }.
  std::string v1;
  auto u32 = [&](uint32_t v) {
    for (int i = 0; i < 4; i++) v1.push_back(char(v >> (8 * i)));
  };
  auto str = [&](const std::string &s) {
    u32(uint32_t(s.size()));
    v1 += s;
  };
  v1.push_back(1);
  str("tt.Base");
  u32(0);                                                          // flags
  for (int i = 0; i < 8; i++) v1.push_back(char(i == 0 ? 8 : 0));  // size 8
  u32(CAIRN_KIND_NONE);                                            // elem kind
  u32(0);                                                          // no refs
  u32(1);                                                          // one field
  str("id");
  u32(0);
  u32(CAIRN_KIND_I64);
  u32(1);
  StoredLayout old;
  ASSERT_TRUE(DecodeLayout(v1, &old).ok());
  EXPECT_EQ(old.version, 1);
  EXPECT_EQ(old.name, "tt.Base");
  ASSERT_EQ(old.fields.size(), 1u);
  EXPECT_EQ(old.fields[0].name, "id");
  EXPECT_EQ(old.fields[0].type, "");
  // It matches the descriptor, declared types and all (they are not part of the layout).
  EXPECT_TRUE(cairn::persist::CheckLayout(old, BaseType(), "tt").ok());

  // The current encoding round-trips, nested layout and declared types included.
  StoredLayout now;
  ASSERT_TRUE(DecodeLayout(cairn::persist::EncodeLayout(DerivedType("tt.Derived")), &now).ok());
  EXPECT_EQ(now.version, cairn::persist::kLayoutVersion);
  ASSERT_EQ(now.fields.size(), 3u);
  ASSERT_NE(now.fields[0].nested, nullptr);
  EXPECT_EQ(now.fields[0].nested->name, "tt.Base");
  EXPECT_EQ(now.fields[0].nested->fields.at(0).type, "int");
  EXPECT_EQ(now.fields[1].type, "tt.Derived");

  std::string v9 = cairn::persist::EncodeLayout(BaseType());
  v9[0] = 9;
  StoredLayout newer;
  cairn::Status s = DecodeLayout(v9, &newer);
  EXPECT_EQ(s.code(), CAIRN_UNSUPPORTED);
  EXPECT_NE(s.message().find("version 9"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("newer Cairn"), std::string::npos) << s.message();
}
