// One descriptor per type in a process (cairn/type.h T5-T7, cairn/gc.h "Registration"): two
// modules that define the same type share its canonical descriptor, the first registered;
// allocation puts it in every header, so identity tests and method dispatch agree whichever
// module allocated; a module whose types are refused is refused whole, with a status naming it.
#include <gtest/gtest.h>

#include <string>

#include "cairn/gc.h"
#include "cairn/type_builder.hpp"
#include "test_types.h"

namespace {

using cairn::Field;

struct Point {
  int64_t x;
  void *next;
  int64_t y;
};
constexpr cairn_field kPointFields[] = {
    Field("x", offsetof(Point, x), CAIRN_KIND_I64),
    Field("next", offsetof(Point, next), CAIRN_KIND_REF),
    Field("y", offsetof(Point, y), CAIRN_KIND_I64),
};

// "Methods": each module's own copy of the functions, as separately compiled modules have.
int64_t SumInModuleA(const Point *p) { return p->x + p->y; }
int64_t ScaleInModuleA(const Point *p) { return 10 * p->x; }
int64_t SumInModuleB(const Point *) { return -1; }
int64_t ScaleInModuleB(const Point *) { return -2; }
void *const kMethodsA[] = {reinterpret_cast<void *>(&SumInModuleA),
                           reinterpret_cast<void *>(&ScaleInModuleA)};
void *const kMethodsB[] = {reinterpret_cast<void *>(&SumInModuleB),
                           reinterpret_cast<void *>(&ScaleInModuleB)};
void *const kThreeMethods[] = {kMethodsB[0], kMethodsB[1], kMethodsB[1]};

// The same type, Point, as modules A, B and C define it (C knows no methods); a module D has
// a Point with another layout (a word of padding first: the same fingerprint, which ignores
// offsets); module E has Point with three methods.
constexpr cairn_type kPointA =
    cairn::WithMethods(cairn::PlainType<kPointFields>("types.Point", sizeof(Point)), kMethodsA, 2);
constexpr cairn_type kPointB =
    cairn::WithMethods(cairn::PlainType<kPointFields>("types.Point", sizeof(Point)), kMethodsB, 2);
constexpr cairn_type kPointC = cairn::PlainType<kPointFields>("types.Point", sizeof(Point));
constexpr cairn_field kPaddedPointFields[] = {Field("x", 8, CAIRN_KIND_I64),
                                              Field("next", 16, CAIRN_KIND_REF),
                                              Field("y", 24, CAIRN_KIND_I64)};
constexpr cairn_type kPointD = cairn::PlainType<kPaddedPointFields>("types.Point", 32);
constexpr cairn_type kPointE = cairn::WithMethods(
    cairn::PlainType<kPointFields>("types.Point", sizeof(Point)), kThreeMethods, 3);
static_assert(kPointA.fingerprint == kPointD.fingerprint);

// Another type of module B, new to the process.
constexpr cairn_field kTagFields[] = {Field("tag", 0, CAIRN_KIND_I64)};
constexpr cairn_type kTagB = cairn::PlainType<kTagFields>("types.Tag", 8);

int64_t CallSlot(const void *obj, uint32_t slot) {
  const cairn_type *t = cairn_type_of(obj);  // header -> descriptor -> methods[slot]
  auto fn = reinterpret_cast<int64_t (*)(const Point *)>(t->methods[slot]);
  return fn(static_cast<const Point *>(obj));
}

// The tests below run in order, as one story of a process that loads module A, then B, ...
class CanonicalTypes : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ASSERT_EQ(cairn_init(nullptr), CAIRN_OK);
    const cairn_type *types[] = {&kPointA};
    const cairn_type *slots[] = {&kPointA};
    ASSERT_EQ(cairn_register_module(types, slots, 1, "a.cairn"), CAIRN_OK) << cairn_last_error();
  }
};

TEST_F(CanonicalTypes, TheFirstRegisteredIsCanonicalAndLaterModulesGetIt) {
  // Module B: its own Point (the same type), and a type new to the process.
  const cairn_type *types[] = {&kPointB, &kTagB};
  const cairn_type *slots[] = {&kPointB, &kTagB};  // what the slots hold before registration
  ASSERT_EQ(cairn_register_module(types, slots, 2, "b.cairn"), CAIRN_OK) << cairn_last_error();
  EXPECT_EQ(slots[0], &kPointA);  // Point's canonical descriptor is module A's
  EXPECT_EQ(slots[1], &kTagB);    // Tag's is B's own: the first of its fingerprint
  EXPECT_EQ(cairn_canonical_type(&kPointB), &kPointA);
  EXPECT_EQ(cairn_canonical_type(&kPointA), &kPointA);
  EXPECT_EQ(cairn_find_type(kPointB.fingerprint), &kPointA);
  // Registering again changes nothing.
  ASSERT_EQ(cairn_register_module(types, slots, 2, "b.cairn"), CAIRN_OK);
  EXPECT_EQ(slots[0], &kPointA);
  // A module that knows no methods of the type also maps to it.
  const cairn_type *c_types[] = {&kPointC};
  const cairn_type *c_slot = nullptr;
  ASSERT_EQ(cairn_register_module(c_types, &c_slot, 1, "c.c"), CAIRN_OK) << cairn_last_error();
  EXPECT_EQ(c_slot, &kPointA);
}

TEST_F(CanonicalTypes, ObjectsOfEveryModuleCarryTheCanonicalDescriptorAndDispatchAlike) {
  ASSERT_EQ(cairn_register_type(&kPointB), CAIRN_OK);
  // Module B allocates with its own descriptor (as code compiled before canonical slots does),
  // module A with the canonical one; a run-time built Point (a JIT's) too.
  const cairn_type *jit_point = cairn::TypeBuilder::Plain("types.Point", sizeof(Point))
                                    .Add("x", offsetof(Point, x), CAIRN_KIND_I64)
                                    .Add("next", offsetof(Point, next), CAIRN_KIND_REF)
                                    .Add("y", offsetof(Point, y), CAIRN_KIND_I64)
                                    .Build();
  auto *from_a = static_cast<Point *>(cairn_malloc_typed(&kPointA));
  auto *from_b = static_cast<Point *>(cairn_malloc_typed(&kPointB));
  auto *from_jit = static_cast<Point *>(cairn_malloc_typed(jit_point));
  for (Point *p : {from_a, from_b, from_jit}) {
    EXPECT_EQ(cairn_type_of(p), &kPointA);  // identity tests agree
    p->x = 3;
    p->y = 4;
    EXPECT_EQ(CallSlot(p, 0), 7);  // module A's methods, for every object of the type
    EXPECT_EQ(CallSlot(p, 1), 30);
  }
  from_a->next = from_b;
  from_b->next = from_jit;
  void *volatile keep = from_a;
  cairn_collect();  // the verifier (on in tests) checks that every header is canonical (T7)
  EXPECT_EQ(cairn_verify_heap(10), 0u);
  EXPECT_EQ(cairn_type_of(static_cast<Point *>(keep)->next), &kPointA);
}

TEST_F(CanonicalTypes, AnotherLayoutIsRefusedWithWhatDiffers) {
  const cairn_type *types[] = {&kPointD};
  const cairn_type *slot = &kPointD;
  EXPECT_EQ(cairn_register_module(types, &slot, 1, "d.cairn"), CAIRN_TYPE_MISMATCH);
  const std::string msg = cairn_last_error();
  EXPECT_NE(msg.find("module d.cairn"), std::string::npos) << msg;
  EXPECT_NE(msg.find("types.Point"), std::string::npos) << msg;
  EXPECT_NE(msg.find("module a.cairn"), std::string::npos) << msg;  // who registered it first
  EXPECT_NE(msg.find("its objects have 24 bytes there, 32 here"), std::string::npos) << msg;
  EXPECT_EQ(slot, &kPointD);  // untouched
  EXPECT_EQ(cairn_canonical_type(&kPointD), nullptr);
}

TEST_F(CanonicalTypes, AnotherNumberOfMethodsIsRefused) {
  const cairn_type *types[] = {&kPointE};
  EXPECT_EQ(cairn_register_module(types, nullptr, 1, "e.cairn"), CAIRN_TYPE_MISMATCH);
  const std::string msg = cairn_last_error();
  EXPECT_NE(msg.find("has 3 methods, but its first registration (by module a.cairn) has 2"),
            std::string::npos)
      << msg;
}

TEST_F(CanonicalTypes, ARefusedModuleRegistersNothing) {
  // A new type first, then one that is refused: neither is registered.
  constexpr static cairn_field kFresh[] = {Field("f", 0, CAIRN_KIND_I64)};
  static constexpr cairn_type fresh = cairn::PlainType<kFresh>("types.Fresh", 8);
  const cairn_type *types[] = {&fresh, &kPointD};
  const cairn_type *slots[] = {&fresh, &kPointD};
  EXPECT_EQ(cairn_register_module(types, slots, 2, "f.cairn"), CAIRN_TYPE_MISMATCH);
  EXPECT_EQ(cairn_canonical_type(&fresh), nullptr);
  EXPECT_EQ(cairn_find_type(fresh.fingerprint), nullptr);
  EXPECT_EQ(slots[0], &fresh);
  // Without the bad one, it goes in.
  ASSERT_EQ(cairn_register_module(types, slots, 1, "f.cairn"), CAIRN_OK);
  EXPECT_EQ(cairn_find_type(fresh.fingerprint), &fresh);
}

// A constructor cannot return a status: an embedder's handler gets the refusal instead of exit.
struct Refusal {
  int calls = 0;
  cairn_status status = CAIRN_OK;
  std::string message;
};

TEST_F(CanonicalTypes, AModuleConstructorsRefusalGoesToTheEmbeddersHandler) {
  Refusal seen;
  cairn_set_module_error_handler(
      [](cairn_status s, const char *message, void *ctx) {
        auto *r = static_cast<Refusal *>(ctx);
        r->calls++;
        r->status = s;
        r->message = message;
      },
      &seen);
  const cairn_type *types[] = {&kPointD};
  const cairn_type *slot = &kPointD;
  cairn_register_module_or_exit(types, &slot, 1, "repl-input-7");
  cairn_set_module_error_handler(nullptr, nullptr);
  EXPECT_EQ(seen.calls, 1);
  EXPECT_EQ(seen.status, CAIRN_TYPE_MISMATCH);
  EXPECT_NE(seen.message.find("module repl-input-7"), std::string::npos) << seen.message;
  EXPECT_EQ(slot, &kPointD);
  // Accepted modules do not call it.
  const cairn_type *good[] = {&kPointB};
  cairn_set_module_error_handler(
      [](cairn_status, const char *, void *ctx) { static_cast<Refusal *>(ctx)->calls++; }, &seen);
  cairn_register_module_or_exit(good, &slot, 1, "repl-input-8");
  cairn_set_module_error_handler(nullptr, nullptr);
  EXPECT_EQ(seen.calls, 1);
  EXPECT_EQ(slot, &kPointA);
}

TEST_F(CanonicalTypes, WithoutAHandlerACompiledProgramStopsWithStatus70) {
  const cairn_type *types[] = {&kPointD};
  EXPECT_EXIT(cairn_register_module_or_exit(types, nullptr, 1, "prog.cairn"),
              ::testing::ExitedWithCode(70), "types.Point.* registered by module prog.cairn");
  EXPECT_EXIT(cairn_register_module_types(types, 1, "old.cairn"), ::testing::ExitedWithCode(70),
              "module old.cairn");
}

}  // namespace
