#!/usr/bin/env bash
# `cairn db` against real, temporary store directories: output and exit status of every
# command, every error a user can cause, a damaged page, a malformed object graph, damage in the
# write-ahead log and `db recover`, a store held by another process, a store the user may only
# read, and directories that are not stores (nothing is written into them).
# Usage: db_test.sh CAIRN FIXTURE
set -uo pipefail
CAIRN=$(realpath "$1")
FIXTURE=$(realpath "$2")
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cairn-cli-test-XXXXXX")
chmod 755 "$TMP"  # the read-only section reads it as another user
HOLDER_PID=
cleanup() {
  [ -n "$HOLDER_PID" ] && kill "$HOLDER_PID" 2>/dev/null
  rm -rf "$TMP"
}
trap cleanup EXIT
STORE=$TMP/store
failures=0

# run ARGS...: runs cairn, leaving OUT, ERR and RC.
run() {
  "$CAIRN" "$@" >"$TMP/out" 2>"$TMP/err"
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}
# run_program FILE SOURCE [STORE]: writes SOURCE (printf's escapes: \n) to $TMP/FILE and runs it
# with `cairn run` (a cache of the test's own) on STORE (default $STORE), leaving OUT, ERR and RC.
run_program() {
  printf '%b' "$2" >"$TMP/$1"
  CAIRN_CACHE="$TMP/cache" "$CAIRN" --store "${3:-$STORE}" run "$TMP/$1" >"$TMP/out" 2>"$TMP/err"
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}
fail() {
  echo "FAIL: $*"
  echo "  exit status: $RC"
  echo "  stdout: $OUT"
  echo "  stderr: $ERR"
  failures=$((failures + 1))
}
# expect RC TEXT-IN-STDOUT TEXT-IN-STDERR (either may be ""), after `run`.
expect() {
  local what="$1" rc="$2" out="$3" err="$4"
  [ "$RC" -eq "$rc" ] || { fail "$what: exit status $RC, expected $rc"; return; }
  [ -z "$out" ] || [[ "$OUT" == *"$out"* ]] || { fail "$what: stdout lacks '$out'"; return; }
  [ -z "$err" ] || [[ "$ERR" == *"$err"* ]] || { fail "$what: stderr lacks '$err'"; return; }
  echo "ok: $what"
}

run --help
expect "cairn --help" 0 "usage: cairn [--store DIR] <command>" ""
run
expect "cairn with no command" 2 "" "usage: cairn"
run frob
expect "unknown command" 2 "" "cairn: unknown command 'frob'"
run buidl x.cairn
expect "a misspelt command" 2 "" "cairn: unknown command 'buidl' (did you mean 'build'?)"
run --frob run x.cairn
expect "an unknown option before the command" 2 "" "cairn: unknown option '--frob'"
run db --help
expect "cairn db --help" 0 "check [NAME]" ""
run db frob
expect "unknown db command" 2 "" "cairn: unknown db command 'frob'"
run db info
expect "db info without a name" 2 "" "db info needs a NAME"
run db list extra
expect "db list with an argument" 2 "" "takes no arguments"
run --store
expect "--store without a directory" 2 "" "--store needs a directory"
run repl --store
expect "repl --store without a directory" 2 "" "cairn: run 'cairn repl --help' for usage"

# A store that does not exist yet.
run --store "$STORE" db list
expect "list on a missing store" 1 "" "cairn: store $STORE does not exist"
[ ! -e "$STORE" ] || fail "list created the store"
run --store "$STORE" db info x
expect "info on a missing store" 1 "" "does not exist"

# create, list, info.
run --store "$STORE" db create oo7
expect "create (makes the store)" 0 "created database 'oo7' in store $STORE" ""
run db create second --store="$STORE"
expect "create with --store=DIR after the command" 0 "created database 'second'" ""
CAIRN_STORE=$STORE run db create third
expect "create with \$CAIRN_STORE" 0 "created database 'third' in store $STORE" ""
(cd "$TMP" && "$CAIRN" db create here >/dev/null 2>&1)
[ -d "$TMP/cairn.store/db" ] && echo "ok: default store ./cairn.store" ||
  { RC=0; OUT=; ERR=; fail "default store ./cairn.store was not used"; }
run --store "$STORE" db list
expect "list" 0 "oo7
second
third" ""
run --store "$STORE" db create oo7
expect "create an existing database" 1 "" "cairn: database 'oo7' already exists in store $STORE"
run --store "$STORE" db create "no good"
expect "create with an invalid name" 1 "" "'no good' is not a valid database name"
run --store "$STORE" db info oo7
expect "info of an empty database" 0 "pages     0 (0 in use, 0 free" ""
[[ "$OUT" == *"root      nil"* ]] || fail "info of an empty database shows a nil root"
run --store "$STORE" db info nothere
expect "info of a missing database" 1 "" "there is no database 'nothere' in store $STORE"

# Pages, then check.
"$FIXTURE" "$STORE" oo7 fill 20 || fail "fixture fill"
run --store "$STORE" db info oo7
expect "info after commits" 0 "pages     20 (20 in use, 0 free" ""
[[ "$OUT" == *"root      page 20, offset 8 (0x0000000000028008)"* && "$OUT" == *"types     1"* ]] ||
  fail "info shows root and types"
run --store "$STORE" db check oo7
expect "check of a clean database" 0 "oo7: ok (20 pages: 20 read and verified, 0 free; 1 types; \
20 objects stored, 20 references; the root reaches all 20 pages in use)" ""
# Identity hashes (stored for the objects whose hash a program took) are audited too (S6),
# through the read-only open that check uses.
"$FIXTURE" "$STORE" oo7 hash 5 || fail "fixture hash"
run --store "$STORE" db check oo7
expect "check of a database with an identity hash" 0 "oo7: ok (20 pages: 20 read and verified" ""
run --store "$STORE" db check
expect "check of every database" 0 "third: ok" ""
[[ "$OUT" == *"store files: ok ("*" read whole)"* ]] && echo "ok: check reads the table files whole" ||
  fail "check does not report the table files"
[[ "$OUT" == *"store keys: ok ("*" keys, each of the store or of a named database)"* ]] &&
  echo "ok: check reads every key" || fail "check does not report the store's keys"
run --store "$STORE" db check nothere
expect "check of a missing database" 1 "" "there is no database 'nothere'"

# A database dropped by a program that has it open: gone for everyone at once (exists is false,
# create of the name makes a new one), its handle without a root, and the objects the program
# holds usable: their pages, not loaded yet, are read by the database's id after the drop (it
# was a runtime error: "open in this process ... drop it from a process that has not opened it").
run_program dropmk.cairn 'class Cell { v: int; next: Cell; pad: [int] }\nfn main() { let d = Database.create("dropme")\n atomic { var c: Cell = nil\n for i in 0..300 { c = new Cell { v: i, next: c, pad: new [int](50) } }\n d.root = c } }\n'
expect "a database to drop" 0 "" ""
run_program dropuse.cairn 'class Cell { v: int; next: Cell; pad: [int] }\nfn main() { let d = Database.open("dropme")\n var held: Cell = nil\n atomic { held = d.root as Cell }\n Database.drop("dropme")\n println(Database.exists("dropme"))\n var n = 0\n var s = 0\n var c = held\n while c != nil { n = n + 1\n s = s + c.v + len(c.pad)\n c = c.next }\n println(n)\n println(s)\n atomic { held.v = 1000 }\n let again = Database.create("dropme")\n atomic { again.root = new Cell { v: 7 } }\n atomic { println((again.root as Cell).v) }\n atomic { println(d.root) } }\n'
expect "drop of an open database" 70 "false
300
59850
7" "dropuse.cairn:19:21: database error: reading the root of database 'dropme', which this program dropped"
run_program dropread.cairn 'class Cell { v: int; next: Cell; pad: [int] }\nfn main() { let d = Database.open("dropme")\n atomic { println((d.root as Cell).v)\n println((d.root as Cell).next == nil) } }\n'
expect "the new database of the dropped one's name" 0 "7
true" ""
run --store "$STORE" db check dropme
expect "check after a drop of an open database" 0 "store keys: ok" ""

# Store-level garbage collection. (tests/persist/store_gc_test.cpp collects real objects.)
run --store "$STORE" db gc second
expect "gc of an empty database" 0 "second: 0 pages reached from the root (0 objects live), 0 freed; 0 of 0 pages free" ""
run --store "$STORE" db gc oo7
expect "gc of a list of pages all reached" 0 "oo7: 20 pages reached from the root (20 objects live), 0 freed" ""
run --store "$STORE" db create badroot
"$FIXTURE" "$STORE" badroot fill 3 || fail "fixture fill badroot"
"$FIXTURE" "$STORE" badroot root 42 || fail "fixture root"
run --store "$STORE" db gc badroot
expect "gc of a bad root" 1 "" "database 'badroot': the root holds a malformed reference (42)"
[[ "$ERR" == *"nothing was freed"* ]] || fail "gc of a bad root says nothing was freed"
run --store "$STORE" db info badroot
expect "a refused gc frees nothing" 0 "pages     3 (3 in use, 0 free" ""
run --store "$STORE" db gc
expect "gc without a name" 2 "" "db gc needs a NAME"
run --store "$STORE" db gc nothere
expect "gc of a missing database" 1 "" "there is no database 'nothere'"
# A class deleted from the program once its objects are garbage (campaign J): a dead object of it
# shares a page with live ones, and a program that no longer defines it is refused that page
# (the error says to run db gc); db gc makes the dead objects fillers, and then it reads.
run_program tempmk.cairn 'import std.list\nclass Note { t: text }\nclass Temp { x: int }\nclass Top { notes: List[Note]; temps: any }\nfn main() { let d = Database.create("classgone")\n atomic { let r = new Top { notes: new List[Note] {} }\n let ts = new List[Temp] {}\n for i in 0..5 { r.notes.push(new Note { t: "n" + str(i) })\n ts.push(new Temp { x: i }) }\n r.temps = ts\n d.root = r }\n atomic { (d.root as Top).temps = nil } }\n'
expect "a database whose Temps became garbage" 0 "" ""
TEMPLESS='import std.list\nclass Note { t: text }\nclass Top { notes: List[Note]; temps: any }\nfn main() { let d = Database.open("classgone")\n atomic { let r = d.root as Top\n var s = ""\n for n in r.notes { s = s + n.t }\n println(s) } }\n'
run_program templess.cairn "$TEMPLESS"
expect "a program without the garbage's class, before db gc" 70 "" "which this program does not define"
[[ "$ERR" == *"\`cairn db gc classgone\` makes the dead ones fillers"* ]] || fail "the refusal does not point at db gc"
run --store "$STORE" db check classgone
expect "check names the dead objects and their types" 0 "7 dead objects share pages with live ones (of types 'List[Temp]', 'Temp', '[Temp]'), which 'cairn db gc classgone' makes fillers" ""
run_program onedead.cairn 'class Note { t: text }\nclass Temp { x: int }\nclass Top { keep: Note; gone: any }\nfn main() { let d = Database.create("onedead")\n atomic { d.root = new Top { keep: new Note { t: "k" }, gone: new Temp { x: 1 } } }\n atomic { (d.root as Top).gone = nil } }\n'
expect "a database with one dead object" 0 "" ""
run --store "$STORE" db check onedead
expect "check names one dead object in the singular" 0 "1 dead object shares a page with live ones (of type 'Temp'), which 'cairn db gc onedead' makes a filler" ""
run --store "$STORE" db gc classgone
expect "db gc of a page with dead objects" 0 "7 dead object(s) on 1 kept page(s) replaced by fillers" ""
run_program templess.cairn "$TEMPLESS"
expect "a program without the garbage's class, after db gc" 0 "n0n1n2n3n4" ""
run --store "$STORE" db check classgone
expect "check after fillers" 0 "ok" ""
[[ "$OUT" != *"dead objects"* ]] || fail "check after db gc still finds dead objects: $OUT"
run --store "$STORE" db gc classgone
expect "a second db gc fills nothing" 0 "classgone: " ""
[[ "$OUT" != *"replaced by fillers"* ]] || fail "a second db gc filled again: $OUT"

# A class changed since the database was written (docs/persistence.md, "Changing a class"): a
# compiled program's Database.open is refused, saying to use Database.upgrade, which converts
# the objects (1,000 of them, which grow and move); the database checks clean after it.
run_program upv1.cairn 'import std.list\nclass Rec { id: int; label: text }\nfn main() { let d = Database.create("recs")\n atomic { let l = new List[Rec] {}\n for i in 0..1000 { l.push(new Rec { id: i, label: "r" + str(i) }) }\n d.root = l } }\n'
expect "a database of Recs" 0 "" ""
UPV2='import std.list\nclass Rec { label: text; weight: float; id: int }\nfn main() { let d = Database.OPEN("recs")\n atomic { let l = d.root as List[Rec]\n var s = 0\n for r in l { s = s + r.id }\n println(str(len(l)) + " " + str(s) + " " + l.get(999).label + " " + str(l.get(3).weight)) } }\n'
run_program upopen.cairn "${UPV2/OPEN/open}"
expect "a program with a changed class, opening" 70 "" "open it with Database.upgrade(\"recs\")"
run_program upgrade.cairn "${UPV2/OPEN/upgrade}"
expect "the same program, upgrading" 0 "1000 499500 r999 0.0" "note: database 'recs' was upgraded to this program's classes:
  'Rec': 1000 objects converted; field 'weight' added (zero)"
run_program upopen.cairn "${UPV2/OPEN/open}"
expect "the changed program, opening after the upgrade" 0 "1000 499500 r999 0.0" ""
run --store "$STORE" db check recs
expect "check after an upgrade" 0 "recs: ok" ""
# A field renamed is one dropped and one added: the note says whose values went.
run_program uprename.cairn 'import std.list\nclass Rec { name: text; weight: float; id: int }\nfn main() { let d = Database.upgrade("recs")\n atomic { println((d.root as List[Rec]).get(5).name) } }\n'
expect "an upgrade renaming a field" 0 "nil" "'Rec': 1000 objects converted; field 'name' added (zero); field 'label' dropped with the values of 1000 objects"

# A class of an imported module is named with its module when the main module declares a class
# of its name too: a database stored without that other class is refused saying so, not that the
# class changed (campaign M's F3), and reads once the other class is renamed.
mkdir -p "$TMP/lib"
printf 'class Item { n: int }\n' >"$TMP/lib/items.cairn"
run_program qualmk.cairn 'import lib.items\nfn main() { let d = Database.create("qual")\n atomic { d.root = new Item { n: 5 } } }\n'
expect "a database of a module's Item" 0 "" ""
run_program qualread.cairn 'import lib.items\nclass Item { label: text }\nfn main() { let d = Database.open("qual")\n atomic { println((d.root as Item).label) } }\n'
expect "a program whose main module declares an Item too" 70 "" "type 'Item' in database 'qual' has the fields of this program's class 'lib.items.Item', not of its class 'Item'"
[[ "$ERR" == *"rename this program's other class 'Item'"* ]] && echo "ok: it says to rename" ||
  fail "the qualified-name refusal does not say to rename"
run_program qualread.cairn 'import lib.items\nclass Label { label: text }\nfn main() { let d = Database.open("qual")\n atomic { println((d.root as Item).n) } }\n'
expect "the other class renamed" 0 "5" ""

# A field moved from a class to its base keeps its value, and an upgrade inside a transaction
# commits at once: the transaction reads and writes the upgraded objects.
run_program upmove1.cairn 'class Base { id: int }\nclass Sub : Base { tag: text; n: int }\nfn main() { let d = Database.create("upmove")\n atomic { d.root = new Sub { id: 7, tag: "t", n: 42 } } }\n'
expect "a database of a subclass" 0 "" ""
run_program upmove2.cairn 'class Base { id: int; n: int }\nclass Sub : Base { tag: text }\nfn main() { atomic { let d = Database.upgrade("upmove")\n let s = d.root as Sub\n println(s.id, s.n, s.tag)\n s.n = 43 }\n atomic { println((Database.open("upmove").root as Sub).n) } }\n'
expect "an upgrade moving a field to the base, inside a transaction" 0 "7 42 t
43" "'Sub': 1 object converted"

# What an upgrade refuses, writing nothing (campaign M): a class that no longer extends a class it
# did (a reference declared as the base would read a field of another class: it crashed); a
# field of a class kept as it is whose declared class changed (the other classes were converted
# first, and the open after refused it: a removed field's values were lost); a class renamed.
run_program upbase1.cairn 'class Base { id: int; name: text }\nclass Flat : Base { q: int }\nclass Top { one: Base }\nfn main() { let d = Database.create("upbase")\n atomic { d.root = new Top { one: new Flat { id: 1, name: "one", q: 7 } } } }\n'
expect "a database of a class with a base" 0 "" ""
run_program upbase2.cairn 'class Base { id: int; name: text }\nclass Flat { q: int; id: int; name: text }\nclass Top { one: Base }\nfn main() { let d = Database.upgrade("upbase") }\n'
expect "an upgrade dropping a base class" 70 "" "type 'Flat' in database 'upbase' cannot be upgraded to this program's definition: it extended 'Base' in the database and does not here"
run_program upbase3.cairn 'class Base { id: int; name: text }\nclass Flat : Base { q: int }\nclass Top { one: Base }\nfn main() { let d = Database.open("upbase")\n atomic { println((d.root as Top).one.name) } }\n'
expect "the first program after the refused upgrade" 0 "one" ""
run_program upkept1.cairn 'class K1 { a: int }\nclass K2 { a: int }\nclass Other { x: int; secret: int }\nclass Item { f: K1; o: Other }\nfn main() { let d = Database.create("upkept")\n atomic { d.root = new Item { f: new K1 { a: 1 }, o: new Other { x: 5, secret: 42 } } } }\n'
expect "a database whose class refers to K1" 0 "" ""
run_program upkept2.cairn 'class K1 { a: int }\nclass K2 { a: int }\nclass Other { x: int }\nclass Item { f: K2; o: Other }\nfn main() { let d = Database.upgrade("upkept") }\n'
expect "an upgrade of a kept class whose field now refers to K2" 70 "" "type 'Item' in database 'upkept' cannot be upgraded to this program's definition: field 'f' is K1 in the database and K2 here"
run_program upkept3.cairn 'class K1 { a: int }\nclass K2 { a: int }\nclass Other { x: int; secret: int }\nclass Item { f: K1; o: Other }\nfn main() { let d = Database.open("upkept")\n atomic { println((d.root as Item).o.secret) } }\n'
expect "the first program after the refused upgrade: nothing was converted" 0 "42" ""
run_program upren1.cairn 'class Item { a: int }\nclass Box { items: [Item] }\nfn main() { let d = Database.create("upren")\n atomic { d.root = new Box { items: [new Item { a: 1 }] } } }\n'
expect "a database to rename a class of" 0 "" ""
run_program upren2.cairn 'class Item2 { a: int }\nclass Box { items: [Item2] }\nfn main() { let d = Database.upgrade("upren") }\n'
expect "an upgrade after a class was renamed" 70 "" "this program has no class 'Item': an upgrade does not rename classes"
# Dead objects and unreachable pages go with the upgrade, as with db gc: they may refer to the
# places of moved objects, which db check called damage (campaign M).
run_program updead1.cairn 'class Item { a: int }\nfn main() { let d = Database.create("updead")\n atomic { d.root = [new Item { a: 0 }, new Item { a: 1 }] }\n atomic { let arr = d.root as [Item]\n d.root = [arr[0]] } }\n'
expect "a database with dead objects" 0 "" ""
run_program updead2.cairn 'class Item { a: int; b: int }\nfn main() { let d = Database.upgrade("updead")\n atomic { let e = d.root as [Item]\n println(str(len(e)) + " " + str(e[0].a) + " " + str(e[0].b)) } }\n'
expect "the upgrade of a database with dead objects" 0 "1 0 0" ""
run --store "$STORE" db check updead
expect "check after the upgrade of a database with dead objects" 0 "updead: ok" ""
[[ "$OUT" != *"dead object"* ]] || fail "dead objects after an upgrade: $OUT"
# A read-only store: the refusal does not say that reading works (the program cannot read the
# database unless it is upgraded).
run_program upro1.cairn 'class Item { a: int }\nfn main() { let d = Database.create("upro")\n atomic { d.root = new Item { a: 1 } } }\n'
expect "a database to upgrade in a read-only store" 0 "" ""
CAIRN_STORE_READ_ONLY=1 run_program upro2.cairn 'class Item { a: int; b: int }\nfn main() { let d = Database.upgrade("upro") }\n'
expect "an upgrade in a read-only store" 70 "" "database 'upro' holds classes this program defines differently, and store"
[[ "$ERR" != *"Reading works"* && "$ERR" == *"without CAIRN_STORE_READ_ONLY to upgrade it"* ]] ||
  fail "the read-only refusal of an upgrade: $ERR"

# A compiled program that touches a damaged page: a runtime error at the position of the Cairn
# line that touched it, from the executable's line table: line 6 reads the objects in the
# program's own code, line 7 through the runtime (a text's bytes, read by '+'), line 5 is
# d.root's own (the compiler's position). Every page is damaged in turn, in a copy of the store;
# the two kinds of touch must both be seen. Built with -g0, the same error has no position.
DSTORE=$TMP/dmg-store
run_program dmgwrite.cairn 'class H { n: int; t: text }\nclass Bag { items: [H]; big: text }\nfn main() { let d = Database.create("dmg")\n atomic { let items = new [H](2000)\n var b = "b"\n for i in 0..15 { b = b + b }\n for i in 0..2000 { items[i] = new H { n: i, t: "t" + str(i) } }\n d.root = new Bag { items: items, big: b } } }\n' "$DSTORE"
expect "a database to damage" 0 "" ""
DREAD='class H { n: int; t: text }\nclass Bag { items: [H]; big: text }\nfn main() { let d = Database.open("dmg")\n var total = 0\n atomic { let bag = d.root as Bag\n for h in bag.items { total = total + h.n }\n println(len(bag.big + "x")) }\n println(total) }\n'
run_program dmgread.cairn "$DREAD" "$DSTORE"
expect "the undamaged database read" 0 "32769" ""
pages=$("$CAIRN" --store "$DSTORE" db info dmg | sed -n 's/^pages *\([0-9]*\) .*/\1/p')
seen_own='' seen_runtime='' own_page=''
for ((p = 1; p <= ${pages:-0}; p++)); do
  rm -rf "$DSTORE-copy" && cp -r "$DSTORE" "$DSTORE-copy"
  "$FIXTURE" "$DSTORE-copy" dmg corrupt "$p" || fail "fixture corrupt dmg $p"
  run_program dmgread.cairn "$DREAD" "$DSTORE-copy"
  [ "$RC" -eq 0 ] && continue  # a page the reader does not touch (a small text's)
  case "$ERR" in
    "$TMP/dmgread.cairn:6:2: database error: page $p of database 'dmg' is damaged"*)
      seen_own=1 own_page=$p ;;
    "$TMP/dmgread.cairn:7:2: database error: page $p of database 'dmg' is damaged"*)
      seen_runtime=1 ;;
    "$TMP/dmgread.cairn:5:"*": database error: "*) ;;
    *) fail "damaged page $p of dmg: status $RC, not at the line that touched it: $ERR" ;;
  esac
done
[ -n "$seen_own" ] && [ -n "$seen_runtime" ] &&
  echo "ok: a damaged page is reported at the Cairn line that touched it (itself or through the runtime)" ||
  fail "damaged pages of dmg: touched by the program's code: ${seen_own:-never}, by the runtime: ${seen_runtime:-never}"
if [ -n "$own_page" ]; then
  printf '%b' "$DREAD" >"$TMP/dmgread.cairn"
  "$CAIRN" build -g0 "$TMP/dmgread.cairn" -o "$TMP/dmgread-g0" >"$TMP/out" 2>&1 || fail "build -g0: $(cat "$TMP/out")"
  rm -rf "$DSTORE-copy" && cp -r "$DSTORE" "$DSTORE-copy"
  "$FIXTURE" "$DSTORE-copy" dmg corrupt "$own_page" || fail "fixture corrupt dmg $own_page"
  CAIRN_STORE="$DSTORE-copy" "$TMP/dmgread-g0" >"$TMP/out" 2>"$TMP/err"
  RC=$? OUT=$(cat "$TMP/out") ERR=$(cat "$TMP/err")
  [ "$RC" -eq 70 ] && [[ "$ERR" == "database error: page $own_page of database 'dmg' is damaged"* ]] &&
    echo "ok: built with -g0, a damaged page's error has no position" ||
    fail "damaged page $own_page read by a -g0 build: status $RC: $ERR"
fi

# Damage a page behind the store's back: check reports it and fails.
"$FIXTURE" "$STORE" oo7 corrupt 7 || fail "fixture corrupt"
run --store "$STORE" db check oo7
expect "check of a damaged page" 1 "page 7 is damaged: checksum mismatch" \
  "cairn: database 'oo7' in store $STORE is damaged"
run --store "$STORE" db check second
expect "check of an undamaged database in the same store" 0 "second: ok" ""

# A damaged page in the middle of a large object's run: reported, and so is the object whose run
# it is; the run's other pages are not read as pages of small objects (each was reported as a
# header naming a type the type table lacks), and nothing is called unreachable.
run_program big.cairn 'fn main() { let d = Database.create("big")\n atomic { let a = new [int](5000)\n for i in 0..5000 { a[i] = i }\n d.root = a } }\n'
expect "a program storing a large array" 0 "" ""
"$FIXTURE" "$STORE" big corrupt 3 || fail "fixture corrupt big"
run --store "$STORE" db check big
expect "check of a damaged page of a large object" 1 "page 3 is damaged: checksum mismatch" \
  "cairn: database 'big' in store $STORE is damaged"
[[ "$OUT" == *"big: 2 problems found"* && "$OUT" == *"page 1: page 3 of its large object's run of 5 cannot be read"* &&
  "$OUT" != *"type table lacks"* && "$OUT" == *"the root reaches all 5 pages in use"* ]] &&
  echo "ok: a large object's damaged page is one problem of the object" ||
  fail "check of a large object's damaged page: $OUT"
# The same in an array of references: the slots on the damaged page are counted as references
# that could not be checked (what only they reach is then counted unreachable).
run_program bigrefs.cairn 'fn main() { let d = Database.create("bigrefs")\n atomic { let a = new [any](3000)\n for i in 0..3000 { a[i] = [i] }\n d.root = a } }\n'
expect "a program storing a large array of references" 0 "" ""
"$FIXTURE" "$STORE" bigrefs corrupt 2 || fail "fixture corrupt bigrefs"
run --store "$STORE" db check bigrefs
expect "check of a damaged page of an array of references" 1 "page 2 is damaged" ""
[[ "$OUT" == *"1024 references into or on damaged pages could not be checked"* && "$OUT" != *"type table lacks"* ]] &&
  echo "ok: the references on a large object's damaged page are counted as unchecked" ||
  fail "check of an array of references with a damaged page: $OUT"

# A reference into the middle of an object, on a page whose checksum is right: the object-graph
# audit finds it, and what it cuts off is reported as unreachable.
run --store "$STORE" db create graph
"$FIXTURE" "$STORE" graph fill 6 || fail "fixture fill graph"
"$FIXTURE" "$STORE" graph misref 3 || fail "fixture misref"
run --store "$STORE" db check graph
expect "check of a reference into an object" 1 \
  "page 3: the reference at offset 8 (in an object of type 'fixture.Page') points to page 2, \
offset 16, where no object starts (G2)" "cairn: database 'graph' in store $STORE is damaged"
[[ "$OUT" == *"2 of 6 pages in use (33.3%) hold nothing the root reaches"* &&
  "$OUT" != *"garbage"* ]] &&
  echo "ok: check reports the unreachable pages" || fail "check does not report unreachable pages"

# Without damage, pages the root no longer reaches are called garbage, with the command that
# frees them.
run_program garbage.cairn 'class Node { next: Node; pad: [int] }\nfn main() { let d = Database.create("garbage")\n atomic { var n: Node = nil\n for i in 0..200 { n = new Node { next: n, pad: new [int](100) } }\n d.root = n }\n atomic { d.root = nil } }\n'
expect "a program leaving garbage" 0 "" ""
run --store "$STORE" db check garbage
expect "check of a database with garbage" 0 "garbage: ok" ""
[[ "$OUT" == *"pages in use"*"hold nothing the root reaches: garbage, which 'cairn db gc garbage' frees"* ]] &&
  echo "ok: check calls unreachable pages garbage when nothing is damaged" ||
  fail "check of a database with garbage: $OUT"

# A second process is refused while one holds the store.
mkfifo "$TMP/hold-in"
"$FIXTURE" "$STORE" hold <"$TMP/hold-in" >"$TMP/hold-out" &
HOLDER_PID=$!
exec 9>"$TMP/hold-in"
for _ in $(seq 100); do grep -q ready "$TMP/hold-out" && break; sleep 0.1; done
run --store "$STORE" db list
expect "a store in use by another process" 1 "" \
  "cairn: store $STORE is in use by process $HOLDER_PID"
# A program's Database.exists is refused too (docs/language.md: one process per store).
run_program exists.cairn 'fn main() { println(Database.exists("oo7")) }\n'
expect "Database.exists in a store in use by another process" 70 "" \
  "store $STORE is in use by process $HOLDER_PID"
run_program names.cairn 'fn main() { println(len(Database.names())) }\n'
expect "Database.names in a store in use by another process" 70 "" \
  "store $STORE is in use by process $HOLDER_PID"
# A reader too: read-only programs share a store with each other, never with a writer.
export CAIRN_STORE_READ_ONLY=1
run_program exists_ro.cairn 'fn main() { println(Database.exists("oo7")) }\n'
unset CAIRN_STORE_READ_ONLY
expect "a read-only Database.exists in a store in use by another process" 70 "" \
  "store $STORE is in use by process $HOLDER_PID"
exec 9>&-
wait "$HOLDER_PID"
HOLDER_PID=
run --store "$STORE" db list
expect "the store after the other process ended" 0 "oo7" ""

# drop.
run --store "$STORE" db drop second
expect "drop" 0 "dropped database 'second' from store $STORE" ""
run --store "$STORE" db drop second
expect "drop a missing database" 1 "" "there is no database 'second'"
run --store "$STORE" db list
[[ "$OUT" != *second* ]] && echo "ok: dropped database is gone" || fail "dropped database listed"

# A store whose catalogue's block is damaged cannot be opened: db check says so without telling
# to run db check (campaign L: it did, and ran no audit), and its audit of the table files,
# which needs no open, names the damaged file.
CATSTORE="$TMP/catdamage"
run --store "$CATSTORE" db create catalogued
expect "a store to damage" 0 "" ""
"$FIXTURE" "$CATSTORE" catalogued catalogue-damage >/dev/null || fail "fixture catalogue-damage"
run --store "$CATSTORE" db check
expect "check of a store whose catalogue is damaged" 1 "store files: 1 of " "of store $CATSTORE: the store's files are damaged"
[[ "$OUT" == *"store files: 1 of "*" table files damaged"* && "$OUT$ERR" != *"run \`cairn db check\`"* ]] &&
  echo "ok: the damaged catalogue's file is named, and db check does not send to itself" ||
  fail "check of a damaged catalogue: $OUT"

# A store whose table file the MANIFEST lists is gone: db check does not call the table files
# there ok (campaign P), and the error names the missing file by its name (not RocksDB's ".ldb").
GONESTORE="$TMP/gonetable"
run_program gonemk.cairn 'fn main() { let d = Database.create("g")\n atomic { d.root = new [int](100000) } }\n' "$GONESTORE"
expect "a store whose table file will go" 0 "" ""
run --store "$GONESTORE" db check
expect "its check before" 0 "store files: ok (" ""
GONE=$(ls "$GONESTORE"/db/*.sst | head -1)
rm "$GONE"
run --store "$GONESTORE" db check
expect "check of a store whose table file is gone" 1 "the damage that stops the open is elsewhere" "table file $GONE, which its MANIFEST lists, is missing"
[[ "$OUT" != *"store files: ok"* ]] && echo "ok: check does not call the files ok" ||
  fail "check calls a store without its table file ok"

# A store whose files this process may not read is said so, with what to do: not "no store"
# (a db/ of mode 000), not "a bug in Cairn" (a CURRENT of mode 000: RocksDB wraps the refusal in
# an invalid-argument status), and listing its logs says what to do (campaign P). As root, the
# checks run as nobody (root reads whatever the modes say).
PERM="$TMP/perm"
mkdir -p "$PERM" && chmod 755 "$TMP" "$PERM"
run_program permmk.cairn 'fn main() { let d = Database.create("p")\n atomic { d.root = [1, 2, 3] } }\n' "$PERM/s"
expect "a store to take permissions from" 0 "" ""
printf 'fn main() { let d = Database.open("p")\n atomic { println(d.root) } }\n' >"$PERM/r.cairn"
"$CAIRN" build "$PERM/r.cairn" -o "$PERM/r" >/dev/null 2>&1 || fail "building r.cairn"
AS=()
if [ "$(id -u)" -eq 0 ]; then
  AS=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  chown -R 65534 "$PERM/s"
fi
chmod 000 "$PERM/s/db"
run_as() { "${AS[@]}" "$@" >"$TMP/out" 2>"$TMP/err"; RC=$?; OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err"); }
run_as "$CAIRN" --store "$PERM/s" db list
expect "db list of a store whose db/ may not be read" 1 "" "store $PERM/s cannot be read: $PERM/s/db: Permission denied (this process may not read or write the store's files"
run_as env CAIRN_STORE="$PERM/s" "$PERM/r"
expect "a program opening a store whose db/ may not be read" 70 "" "cannot be read: $PERM/s/db: Permission denied"
[[ "$ERR" != *"no store"* ]] && echo "ok: not called no store" || fail "a store that may not be read called no store"
chmod 755 "$PERM/s/db" && chmod 000 "$PERM/s/db/CURRENT"
run_as env CAIRN_STORE="$PERM/s" "$PERM/r"
expect "a program opening a store whose CURRENT may not be read" 70 "" "CURRENT: Permission denied (this process may not read or write the store's files"
[[ "$ERR" != *"a bug in Cairn"* ]] && echo "ok: not called a bug" || fail "a CURRENT that may not be read called a bug"
chmod 644 "$PERM/s/db/CURRENT" && chmod 311 "$PERM/s/db"
run_as env CAIRN_STORE="$PERM/s" "$PERM/r"
expect "a program opening a store whose db/ may not be listed" 70 "" "cannot list the write-ahead logs in $PERM/s/db: Permission denied (this process may not read"
chmod 755 "$PERM/s/db"
run_as env CAIRN_STORE="$PERM/s" "$PERM/r"
expect "the same program once the modes are back" 0 "[1, 2, 3]" ""

# A store whose writer filled the disk: a writing open first writes the store's logs into a table
# file, and says how much space that needs and how to read the store meanwhile (campaign P).
# Needs a small file system of its own: a tmpfs, mounted as root where the system allows.
FULL="$TMP/full"
mkdir -p "$FULL"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=16m tmpfs "$FULL" 2>/dev/null; then
  printf 'fn main() {\n var d: Database = nil\n if Database.exists("b") { d = Database.open("b") } else { d = Database.create("b") }\n for r in 0..100000 { atomic { let a = new [int](20000)\n for i in 0..20000 { a[i] = i * r + 1 }\n d.root = a } } }\n' >"$TMP/fill.cairn"
  "$CAIRN" build "$TMP/fill.cairn" -o "$TMP/fill" >/dev/null 2>&1 || fail "building fill.cairn"
  CAIRN_STORE="$FULL/s" "$TMP/fill" >/dev/null 2>"$TMP/err"
  RC=$? ERR=$(cat "$TMP/err") OUT=""
  expect "a writer that fills the disk" 70 "" "No space left on device (the disk is full"
  rm -f "$FULL"/s/db/LOG*  # a little room, less than the open needs
  CAIRN_STORE="$FULL/s" "$TMP/fill" >/dev/null 2>"$TMP/err"
  RC=$? ERR=$(cat "$TMP/err")
  expect "a writing open of the full store" 70 "" "a writing open first writes the store's write-ahead logs, "
  [[ "$ERR" == *" MiB, into a table file, so free about that much space; meanwhile the store can be read: CAIRN_STORE_READ_ONLY=1"* ]] &&
    echo "ok: it says how much to free and how to read meanwhile" || fail "the full store's open: $ERR"
  run --store "$FULL/s" db list
  expect "the full store can be listed" 0 "b" ""
  umount "$FULL"
else
  echo "skipped: a full disk (needs root and a tmpfs mount)"
fi

# Not a store.
mkdir "$TMP/plain" && touch "$TMP/plain/file"
run --store "$TMP/plain" db list
expect "a directory that is not a store" 1 "" "holds no Cairn store"
run --store "$TMP/plain" db create x
expect "create in a non-empty directory" 1 "" "is not empty and is not a Cairn store"
# A name no database can have is refused before the store is opened: create, open, upgrade and
# drop of it leave no store behind (campaign L: create and drop made one).
for call in create open upgrade drop; do
  run_program badname.cairn "fn main() { Database.$call(\"../etc\") }\n" "$TMP/nostore-$call"
  expect "Database.$call of an invalid name" 70 "" "'../etc' is not a valid database name"
  [ ! -e "$TMP/nostore-$call" ] && echo "ok: Database.$call of an invalid name made no store" ||
    fail "Database.$call of an invalid name made a store"
done
# A program that only asks is told the folder is not a store, and asked whether it is the right
# one (campaign L: it was told to choose an empty directory, as for a create).
run_program askplain.cairn 'fn main() { println(Database.exists("x")) }\n' "$TMP/plain"
expect "Database.exists in a directory that is not a store" 70 "" "is not a Cairn store (it holds other files, and no db/CURRENT): is --store or \$CAIRN_STORE right?"

# No writes into a directory that is not a store: a plain one, or one with another program's
# RocksDB database in db/.
listing() { find "$1" -printf '%P %s %T@\n' | sort; }
before=$(listing "$TMP/plain")
run --store "$TMP/plain" db info x
run --store "$TMP/plain" db check
[ "$(listing "$TMP/plain")" = "$before" ] && echo "ok: nothing written into a plain directory" ||
  fail "a failed open wrote into $TMP/plain"
"$FIXTURE" "$TMP/foreign" foreign || fail "fixture foreign"
before=$(listing "$TMP/foreign")
run --store "$TMP/foreign" db list
expect "list in another program's RocksDB" 1 "" "no Cairn store header"
run --store "$TMP/foreign" db create x
expect "create in another program's RocksDB" 1 "" "is not a Cairn store"
[ "$(listing "$TMP/foreign")" = "$before" ] && echo "ok: nothing written into a foreign RocksDB" ||
  fail "a failed open wrote into $TMP/foreign"

# A store whose db/CURRENT was lost, its data still in db/: every open is refused, naming the
# damage, and nothing is written (a create used to make a new store there, and RocksDB then
# deleted the old one's log and table files).
run --store "$TMP/lost" db create kept
expect "create the store to damage" 0 "created database 'kept'" ""
rm "$TMP/lost/db/CURRENT"
before=$(listing "$TMP/lost")
for cmd in "db list" "db create other" "db check" "db recover"; do
  run --store "$TMP/lost" $cmd
  expect "$cmd without db/CURRENT" 1 "" "its file db/CURRENT is missing"
  [[ "$ERR" == *"Restore the store from a copy"* ]] || fail "$cmd without db/CURRENT: no advice"
done
run_program lost.cairn 'fn main() { let d = Database.create("other") }\n' "$TMP/lost"
expect "a program creating a database without db/CURRENT" 70 "" "its file db/CURRENT is missing"
[ "$(listing "$TMP/lost")" = "$before" ] && echo "ok: nothing written without db/CURRENT" ||
  fail "an open wrote into $TMP/lost, whose db/CURRENT is missing"

# An empty folder (a store whose files were all lost): a program's exists and names say there
# are no databases and its open is the error that there is no store there, and none of them
# makes a store in it (which would hide the loss); create does make one.
mkdir "$TMP/emptyfolder"
run_program ask.cairn 'fn main() {\n    println(Database.exists("x"), Database.names())\n    let d = Database.open("x")\n}\n' "$TMP/emptyfolder"
expect "a program's exists, names and open in an empty folder" 70 "false []" "the folder is there but holds no store's files"
[ -z "$(ls -A "$TMP/emptyfolder")" ] && echo "ok: no store made in an empty folder" ||
  fail "exists, names or open made a store in $TMP/emptyfolder: $(ls -A "$TMP/emptyfolder")"
run_program make.cairn 'fn main() {\n    let d = Database.create("x")\n    println(Database.names())\n}\n' "$TMP/emptyfolder"
expect "a program's create in an empty folder" 0 "[\"x\"]" ""
# A store whose db/ was deleted, leaving its lock file: as an empty folder (before, exists, names
# and open made a new, empty store there, and the loss no longer showed).
run --store "$TMP/lostdb" db create x
expect "create the store whose db/ goes" 0 "created database 'x'" ""
rm -rf "$TMP/lostdb/db"
before=$(listing "$TMP/lostdb")
run_program ask.cairn 'fn main() {\n    println(Database.exists("x"), Database.names())\n    let d = Database.open("x")\n}\n' "$TMP/lostdb"
expect "a program's exists, names and open where db/ was deleted" 70 "false []" "the folder is there but holds no store's files"
[ "$(listing "$TMP/lostdb")" = "$before" ] && echo "ok: no store made where db/ was deleted" ||
  fail "exists, names or open made a store in $TMP/lostdb: $(ls -A "$TMP/lostdb")"
run --store "$TMP/lostdb" db list
expect "db list where db/ was deleted" 1 "" "holds no Cairn store"
run_program make.cairn 'fn main() {\n    let d = Database.create("y")\n    println(Database.names())\n}\n' "$TMP/lostdb"
expect "a program's create where db/ was deleted" 0 "[\"y\"]" ""
# A db/ holding a file of the user's (and nothing of a store): no store is made beside it, by a
# program or by `cairn db create` (before, both wrote a new store's files next to it).
mkdir -p "$TMP/userdb/db"
echo important >"$TMP/userdb/db/notes.txt"
before=$(listing "$TMP/userdb")
run_program ask.cairn 'fn main() {\n    let d = Database.open("x")\n}\n' "$TMP/userdb"
expect "a program's open where db/ holds a user's file" 70 "" "is not a Cairn store"
run_program make.cairn 'fn main() {\n    let d = Database.create("y")\n}\n' "$TMP/userdb"
expect "a program's create where db/ holds a user's file" 70 "" "is not empty and is not a Cairn store"
run --store "$TMP/userdb" db create y
expect "db create where db/ holds a user's file" 1 "" "is not empty and is not a Cairn store"
[ "$(listing "$TMP/userdb")" = "$before" ] && echo "ok: nothing written beside a user's file in db/" ||
  fail "a store was made in $TMP/userdb/db: $(ls -A "$TMP/userdb/db")"
# A folder that is not empty and not a store (a mistyped $CAIRN_STORE): the store's own refusal,
# naming it, and nothing written.
before=$(listing "$TMP/plain")
run_program plainask.cairn 'fn main() {\n    println(Database.exists("x"))\n}\n' "$TMP/plain"
expect "a program's exists in a folder that is not a store" 70 "" "Cairn store"
[ "$(listing "$TMP/plain")" = "$before" ] && echo "ok: nothing written into a plain folder by a program" ||
  fail "a program wrote into $TMP/plain"

# A store the user may only read: list, info and check work (read-only open), create is refused
# with a clear message, and nothing is written. As root, permissions do not stop writes: run
# cairn as nobody instead.
if [ "$(id -u)" = 0 ]; then
  READER=(setpriv --reuid=65534 --regid=65534 --clear-groups)
else
  chmod -R a-w "$STORE"
  READER=()
fi
run_reader() {
  "${READER[@]}" "$CAIRN" "$@" >"$TMP/out" 2>"$TMP/err"
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}
before=$(listing "$STORE")
run_reader --store "$STORE" db list
expect "list of a read-only store" 0 "oo7" ""
run_reader --store "$STORE" db info oo7
expect "info of a read-only store" 0 "pages     20 (20 in use, 0 free" ""
run_reader --store "$STORE" db check third
expect "check of a read-only store" 0 "third: ok" ""
run_reader --store "$STORE" db create x
expect "create in a read-only store" 1 "" "store $STORE cannot be written (opening $STORE/cairn.lock for writing: Permission denied); get write permission to $STORE, or only read it (a program with CAIRN_STORE_READ_ONLY=1; \`cairn db list\`, \`info\` or \`check\`)"
[ "$(listing "$STORE")" = "$before" ] && echo "ok: nothing written into a read-only store" ||
  fail "a read-only use wrote into $STORE"
[ "$(id -u)" = 0 ] || chmod -R u+w "$STORE"

# CAIRN_STORE_READ_ONLY (set to anything but 0): the commands that write refuse, and write
# nothing; those that read work. What would be wrong whatever the mode is said first: a
# database that is not there to drop or collect, or is there already to create.
before=$(listing "$STORE")
for c in "create rox" "drop third" "gc third" "recover"; do
  CAIRN_STORE_READ_ONLY=yes run --store "$STORE" db $c
  expect "db $c with CAIRN_STORE_READ_ONLY" 1 "" "db ${c%% *} would write the store, and CAIRN_STORE_READ_ONLY is set, so nothing was written; unset it (or set it to 0) to ${c%% *}"
done
for c in "drop nosuch" "gc nosuch"; do
  CAIRN_STORE_READ_ONLY=yes run --store "$STORE" db $c
  expect "db $c with CAIRN_STORE_READ_ONLY" 1 "" "there is no database 'nosuch' in store $STORE"
done
CAIRN_STORE_READ_ONLY=yes run --store "$STORE" db create third
expect "db create third with CAIRN_STORE_READ_ONLY" 1 "" "database 'third' already exists in store $STORE"
CAIRN_STORE_READ_ONLY=1 run --store "$STORE" db list
expect "db list with CAIRN_STORE_READ_ONLY" 0 "third" ""
[ "$(listing "$STORE")" = "$before" ] && echo "ok: nothing written with CAIRN_STORE_READ_ONLY" ||
  fail "a db command wrote into $STORE with CAIRN_STORE_READ_ONLY set"
CAIRN_STORE_READ_ONLY=0 run --store "$STORE" db create rox
expect "db create with CAIRN_STORE_READ_ONLY=0" 0 "" ""
run --store "$STORE" db drop rox
expect "db drop rox" 0 "" ""

# Damage in the middle of the write-ahead log: the open is refused, naming the log, which is
# kept; `db recover` accepts the loss and says what it was; the store then opens and checks clean.
WSTORE=$TMP/walstore
run --store "$WSTORE" db create w
"$FIXTURE" "$WSTORE" w commits 30 || fail "fixture commits"
LOG=$("$FIXTURE" "$WSTORE" wal-damage) || fail "fixture wal-damage"
before=$(listing "$WSTORE")
run --store "$WSTORE" db list
expect "a store with a damaged log" 1 "" "its write-ahead log $LOG is damaged at byte"
[[ "$ERR" == *"cairn db recover --store $WSTORE"* ]] && echo "ok: the error says what to do" ||
  fail "the error does not point to cairn db recover"
[ "$(listing "$WSTORE")" = "$before" ] && echo "ok: the refused open changed nothing" ||
  fail "the refused open changed $WSTORE"
run --store "$WSTORE" db recover
expect "recover" 0 "the write-ahead log $LOG was damaged at byte" ""
[[ "$OUT" == *"damaged bytes (one or more) and "*" intact commits after them"* && "$OUT" == *"database 'w': "*"page write"* ]] &&
  echo "ok: recover reports what was lost" || fail "recover does not say what was lost"
[[ "$OUT" == *"run \`cairn db check --store $WSTORE\` to audit the recovered databases"* ]] &&
  echo "ok: recover says how to audit" || fail "recover does not say how to audit"
ls "$WSTORE"/recovered-*/"$(basename "$LOG")" >/dev/null 2>&1 && echo "ok: the damaged log is kept" ||
  fail "no copy of the damaged log"
run --store "$WSTORE" db check w
expect "check after recover" 0 "w: ok" ""
run --store "$WSTORE" db recover
expect "recover of an intact store" 0 "its write-ahead log is intact; nothing to recover" ""

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all checks passed"
