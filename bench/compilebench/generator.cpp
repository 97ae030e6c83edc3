// The generated program of cairn-compilebench (generator.h).
//
// Each kind of unit is a Cairn template with @name@ holes and a C++ function that computes what
// the unit's `unitN()` returns for the same constants. Cairn's int is 64-bit with C's truncating
// `/` and `%`, so the C++ mirrors use int64_t and the same expressions; the constants are kept
// small enough that nothing overflows.
#include "generator.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace cairn::bench {
namespace {

using Holes = std::map<std::string, std::string>;

// A small deterministic generator (splitmix64), so the program is the same on every machine.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // A number in [lo, hi].
  int64_t Between(int64_t lo, int64_t hi) { return lo + int64_t(Next() % uint64_t(hi - lo + 1)); }

 private:
  uint64_t state_;
};

// The template with every @name@ replaced by holes[name].
std::string Fill(const char *text, const Holes &holes) {
  std::string out;
  for (const char *p = text; *p != '\0'; ++p) {
    if (*p != '@') {
      out += *p;
      continue;
    }
    const char *end = p + 1;
    while (*end != '\0' && *end != '@') ++end;
    out += holes.at(std::string(p + 1, end));
    p = end;
  }
  return out;
}

std::string S(int64_t v) { return std::to_string(v); }

// --- Kind 0: a class hierarchy with overridden methods and a module variable -----------------

constexpr char kAccounts[] = R"(// Unit @u@: accounts, a class hierarchy with overridden methods.
let feeBase@u@ = @b@
var deposits@u@ = 0

class Account@u@ {
    id: int
    balance: int
    owner: text

    fn fee(amount: int) -> int {
        return amount * @a@ / 100 + feeBase@u@
    }

    fn deposit(amount: int) {
        self.balance += amount - self.fee(amount)
        deposits@u@ += 1
    }

    fn describe() -> text {
        return self.owner + ":" + str(self.id) + ":" + str(self.balance)
    }
}

class Savings@u@ : Account@u@ {
    rate: int

    override fn fee(amount: int) -> int {
        return amount / (self.rate + @c@)
    }
}

class Checking@u@ : Account@u@ {
    overdraft: int

    override fn describe() -> text {
        return "checking " + self.owner + " " + str(self.balance - self.overdraft)
    }
}

fn openAccounts@u@(n: int) -> [Account@u@] {
    let accounts = new [Account@u@](n)
    for i in 0..n {
        if i % 3 == 0 {
            accounts[i] = new Savings@u@ { id: i, owner: "s@u@", rate: i % 5 }
        } else if i % 3 == 1 {
            accounts[i] = new Checking@u@ { id: i, owner: "c@u@", overdraft: @d@ }
        } else {
            accounts[i] = new Account@u@ { id: i, owner: "a@u@" }
        }
    }
    return accounts
}

fn unit@u@() -> int {
    let accounts = openAccounts@u@(@n@)
    for round in 0..@r@ {
        for acc in accounts {
            acc.deposit(round * @e@ + acc.id)
        }
    }
    var total = deposits@u@
    for acc in accounts {
        total += acc.balance + len(acc.describe())
    }
    return total
}
)";

struct AccountsUnit {
  int64_t a, b, c, d, e, n, r;

  explicit AccountsUnit(Random &rng)
      : a(rng.Between(1, 40)),
        b(rng.Between(0, 9)),
        c(rng.Between(1, 5)),
        d(rng.Between(10, 99)),
        e(rng.Between(1, 20)),
        n(rng.Between(12, 40)),
        r(rng.Between(3, 8)) {}

  Holes Fill(int u) const {
    return {{"u", S(u)}, {"a", S(a)}, {"b", S(b)}, {"c", S(c)},
            {"d", S(d)}, {"e", S(e)}, {"n", S(n)}, {"r", S(r)}};
  }

  int64_t Result(int u) const {
    struct Account {
      int64_t kind, id, balance, rate;
      std::string owner;
    };
    std::vector<Account> accounts;
    for (int64_t i = 0; i < n; ++i) {
      int64_t kind = i % 3;
      std::string owner = (kind == 0 ? "s" : kind == 1 ? "c" : "a") + S(u);
      accounts.push_back({kind, i, 0, kind == 0 ? i % 5 : 0, owner});
    }
    int64_t deposits = 0;
    for (int64_t round = 0; round < r; ++round)
      for (Account &acc : accounts) {
        int64_t amount = round * e + acc.id;
        int64_t fee = acc.kind == 0 ? amount / (acc.rate + c) : amount * a / 100 + b;
        acc.balance += amount - fee;
        deposits += 1;
      }
    int64_t total = deposits;
    for (const Account &acc : accounts) {
      std::string described = acc.kind == 1 ? "checking " + acc.owner + " " + S(acc.balance - d)
                                            : acc.owner + ":" + S(acc.id) + ":" + S(acc.balance);
      total += acc.balance + int64_t(described.size());
    }
    return total;
  }
};

// --- Kind 1: a generic stack, a generic function over it, `for` over a class --------------

constexpr char kStack[] =
    R"(// Unit @u@: a generic stack used with ints and texts, and a generic function over it.
class Stack@u@[T] {
    items: [T]
    count: int

    fn push(x: T) {
        if self.count == len(self.items) {
            let bigger = new [T](self.count * 2 + 4)
            for i in 0..self.count {
                bigger[i] = self.items[i]
            }
            self.items = bigger
        }
        self.items[self.count] = x
        self.count += 1
    }

    fn pop() -> T {
        self.count -= 1
        return self.items[self.count]
    }

    fn isEmpty() -> bool { return self.count == 0 }

    fn len() -> int { return self.count }

    fn get(i: int) -> T { return self.items[i] }
}

// The largest element of s, or start when none is larger.
fn largest@u@[T](s: Stack@u@[T], start: T) -> T {
    var best = start
    for x in s {
        if best < x { best = x }
    }
    return best
}

fn unit@u@() -> int {
    let numbers = new Stack@u@[int] { items: new [int](0) }
    let words = new Stack@u@[text] { items: new [text](0) }
    for i in 0..@n@ {
        numbers.push((i * @a@ + @b@) % @m@)
        words.push("w" + str((i * @c@) % @m2@))
    }
    let top = largest@u@(numbers, 0)
    let topWord = largest@u@(words, "")
    var sum = words.len() * 1000
    while not numbers.isEmpty() {
        sum += numbers.pop()
    }
    return sum + top + len(topWord)
}
)";

struct StackUnit {
  int64_t a, b, m, c, m2, n;

  explicit StackUnit(Random &rng)
      : a(rng.Between(3, 97)),
        b(rng.Between(0, 50)),
        m(rng.Between(50, 1000)),
        c(rng.Between(3, 31)),
        m2(rng.Between(10, 500)),
        n(rng.Between(20, 80)) {}

  Holes Fill(int u) const {
    return {{"u", S(u)}, {"a", S(a)},   {"b", S(b)}, {"m", S(m)},
            {"c", S(c)}, {"m2", S(m2)}, {"n", S(n)}};
  }

  int64_t Result(int) const {
    int64_t sum = n * 1000, top = 0;
    std::string top_word;
    for (int64_t i = 0; i < n; ++i) {
      int64_t v = (i * a + b) % m;
      sum += v;
      top = std::max(top, v);
      top_word = std::max(top_word, "w" + S((i * c) % m2));
    }
    return sum + top + int64_t(top_word.size());
  }
};

// --- Kind 2: array algorithms, array literals, arrays of arrays -------------------------------

constexpr char kArrays[] =
    R"(// Unit @u@: array algorithms: fill, insertion sort, binary search, prefix sums, a grid.
fn fill@u@(a: [int], seed: int) {
    var x = seed
    for i in 0..len(a) {
        x = (x * @a@ + @b@) % @m@
        a[i] = x
    }
}

fn insertionSort@u@(a: [int]) {
    for i in 1..len(a) {
        let v = a[i]
        var j = i - 1
        while j >= 0 and a[j] > v {
            a[j + 1] = a[j]
            j -= 1
        }
        a[j + 1] = v
    }
}

// An index of key in the sorted array a, or -1.
fn binarySearch@u@(a: [int], key: int) -> int {
    var lo = 0
    var hi = len(a) - 1
    while lo <= hi {
        let mid = (lo + hi) / 2
        if a[mid] == key { return mid }
        if a[mid] < key {
            lo = mid + 1
        } else {
            hi = mid - 1
        }
    }
    return -1
}

fn prefixSums@u@(a: [int]) -> [int] {
    let sums = new [int](len(a) + 1)
    for i in 0..len(a) {
        sums[i + 1] = sums[i] + a[i]
    }
    return sums
}

fn grid@u@(size: int) -> [[int]] {
    let rows = new [[int]](size)
    for r in 0..size {
        rows[r] = new [int](size)
        for c in 0..size {
            rows[r][c] = r * size + c
        }
    }
    return rows
}

fn unit@u@() -> int {
    let a = new [int](@n@)
    fill@u@(a, @s@)
    insertionSort@u@(a)
    let sums = prefixSums@u@(a)
    var found = 0
    for k in 0..@k@ {
        if binarySearch@u@(a, a[k % len(a)] + k % 3) >= 0 { found += 1 }
    }
    let g = grid@u@(@g@)
    var diagonal = 0
    for r in 0..len(g) {
        diagonal += g[r][r]
    }
    let ends = [a[0], a[1], a[len(a) - 1]]
    return sums[len(a)] % 100000 + found * 7 + ends[0] + ends[1] + ends[2] + diagonal
}
)";

struct ArraysUnit {
  int64_t a, b, m, s, n, k, g;

  explicit ArraysUnit(Random &rng)
      : a(rng.Between(3, 1000)),
        b(rng.Between(1, 1000)),
        m(rng.Between(1000, 30000)),
        s(rng.Between(1, 999)),
        n(rng.Between(30, 120)),
        k(rng.Between(20, 200)),
        g(rng.Between(3, 8)) {}

  Holes Fill(int u) const {
    return {{"u", S(u)}, {"a", S(a)}, {"b", S(b)}, {"m", S(m)},
            {"s", S(s)}, {"n", S(n)}, {"k", S(k)}, {"g", S(g)}};
  }

  int64_t Result(int) const {
    std::vector<int64_t> v;
    int64_t x = s;
    for (int64_t i = 0; i < n; ++i) {
      x = (x * a + b) % m;
      v.push_back(x);
    }
    std::sort(v.begin(), v.end());
    int64_t sum = 0;
    for (int64_t e : v) sum += e;
    int64_t found = 0;
    for (int64_t key = 0; key < k; ++key)
      if (std::binary_search(v.begin(), v.end(), v[size_t(key % n)] + key % 3)) found += 1;
    int64_t diagonal = 0;
    for (int64_t r = 0; r < g; ++r) diagonal += r * g + r;
    return sum % 100000 + found * 7 + v[0] + v[1] + v[size_t(n - 1)] + diagonal;
  }
};

// --- Kind 3: text built, counted, compared and indexed ----------------------------------------

constexpr char kText[] =
    R"(// Unit @u@: text: a sentence built word by word, counted, compared and indexed.
fn sentence@u@(n: int) -> text {
    let words = ["@w0@", "@w1@", "@w2@", "@w3@", "@w4@"]
    var s = ""
    for i in 0..n {
        if i > 0 { s += " " }
        s += words[(i * @a@) % len(words)]
    }
    return s
}

fn wordCount@u@(t: text) -> int {
    var count = 0
    var inWord = false
    for i in 0..len(t) {
        if t[i] == 32 {
            inWord = false
        } else if not inWord {
            inWord = true
            count += 1
        }
    }
    return count
}

fn countByte@u@(t: text, b: int) -> int {
    var n = 0
    for i in 0..len(t) {
        if t[i] == b { n += 1 }
    }
    return n
}

fn unit@u@() -> int {
    let s = sentence@u@(@n@)
    var score = len(s) * 3 + wordCount@u@(s) + countByte@u@(s, @byte@)
    let labels = new [text](@k@)
    for i in 0..len(labels) {
        labels[i] = "label-" + str(i * @c@)
    }
    var longest = ""
    for label in labels {
        if len(label) > len(longest) or (len(label) == len(longest) and label > longest) {
            longest = label
        }
    }
    if s == sentence@u@(@n@) { score += 1 }
    if "@w0@" < "@w1@" { score += 2 }
    return score + len(longest) * 10 + longest[len(longest) - 1]
}
)";

constexpr const char *kWords[] = {"river",  "stone",   "cairn",  "path",    "summit", "ridge",
                                  "valley", "moss",    "lichen", "granite", "peak",   "trail",
                                  "marker", "heather", "slope",  "crag",    "tarn",   "fell",
                                  "beacon", "shelter", "scree",  "col",     "gully",  "boulder"};
constexpr int kWordCount = int(sizeof kWords / sizeof kWords[0]);

struct TextUnit {
  std::string w[5];
  int64_t a, n, byte, k, c;

  explicit TextUnit(Random &rng)
      : a(rng.Between(1, 7)),
        n(rng.Between(10, 60)),
        byte(std::string("aeiorst")[size_t(rng.Between(0, 6))]),
        k(rng.Between(3, 12)),
        c(rng.Between(1, 999)) {
    for (std::string &word : w) word = kWords[rng.Between(0, kWordCount - 1)];
  }

  Holes Fill(int u) const {
    return {{"u", S(u)}, {"w0", w[0]}, {"w1", w[1]},      {"w2", w[2]}, {"w3", w[3]}, {"w4", w[4]},
            {"a", S(a)}, {"n", S(n)},  {"byte", S(byte)}, {"k", S(k)},  {"c", S(c)}};
  }

  int64_t Result(int) const {
    std::string s;
    for (int64_t i = 0; i < n; ++i) {
      if (i > 0) s += " ";
      s += w[(i * a) % 5];
    }
    int64_t words = 0, bytes = 0;
    bool in_word = false;
    for (char ch : s) {
      if (ch == ' ') {
        in_word = false;
      } else if (!in_word) {
        in_word = true;
        words += 1;
      }
      if (ch == byte) bytes += 1;
    }
    int64_t score = int64_t(s.size()) * 3 + words + bytes;
    std::string longest;
    for (int64_t i = 0; i < k; ++i) {
      std::string label = "label-" + S(i * c);
      if (label.size() > longest.size() || (label.size() == longest.size() && label > longest))
        longest = label;
    }
    score += 1;
    if (w[0] < w[1]) score += 2;
    return score + int64_t(longest.size()) * 10 + (unsigned char)longest.back();
  }
};

// --- Kind 4: generic functions, a generic pair, function values -------------------------------

constexpr char kGenerics[] =
    R"(// Unit @u@: generic functions, function values and a generic pair.
class Pair@u@[A, B] {
    first: A
    second: B
}

fn fold@u@(values: [int], start: int, f: fn(int, int) -> int) -> int {
    var acc = start
    for x in values {
        acc = f(acc, x)
    }
    return acc
}

fn addScaled@u@(acc: int, x: int) -> int {
    return (acc + x * @a@) % @m@
}

fn pick@u@[T](first: bool, a: T, b: T) -> T {
    if first { return a }
    return b
}

fn swap@u@[A, B](p: Pair@u@[A, B]) -> Pair@u@[B, A] {
    return new Pair@u@[B, A] { first: p.second, second: p.first }
}

fn unit@u@() -> int {
    let values = new [int](@n@)
    for i in 0..len(values) {
        values[i] = (i * @b@ + @c@) % @d@
    }
    let s1 = fold@u@(values, 0, addScaled@u@)
    let s2 = fold@u@(values, 1, fn(acc: int, x: int) -> int { return (acc * 3 + x) % 10007 })
    let p = new Pair@u@[int, text] { first: s1, second: pick@u@(s1 > s2, "larger", "smaller") }
    let q = swap@u@(p)
    let r = new Pair@u@[text, [int]] { first: q.first + "!", second: values }
    return q.second + s2 + len(r.first) + len(r.second) + pick@u@[int](s1 % 2 == 0, 5, 11)
}
)";

struct GenericsUnit {
  int64_t a, m, b, c, d, n;

  explicit GenericsUnit(Random &rng)
      : a(rng.Between(1, 50)),
        m(rng.Between(100, 10000)),
        b(rng.Between(1, 100)),
        c(rng.Between(0, 100)),
        d(rng.Between(10, 1000)),
        n(rng.Between(20, 100)) {}

  Holes Fill(int u) const {
    return {{"u", S(u)}, {"a", S(a)}, {"m", S(m)}, {"b", S(b)},
            {"c", S(c)}, {"d", S(d)}, {"n", S(n)}};
  }

  int64_t Result(int) const {
    int64_t s1 = 0, s2 = 1;
    for (int64_t i = 0; i < n; ++i) {
      int64_t x = (i * b + c) % d;
      s1 = (s1 + x * a) % m;
      s2 = (s2 * 3 + x) % 10007;
    }
    std::string label = s1 > s2 ? "larger" : "smaller";
    return s1 + s2 + int64_t(label.size() + 1) + n + (s1 % 2 == 0 ? 5 : 11);
  }
};

int CountLines(const std::string &s) { return int(std::count(s.begin(), s.end(), '\n')); }

// One unit's source and result.
struct Unit {
  std::string source;
  int64_t result;
};

template <typename Kind>
Unit MakeUnit(const char *text, int u, Random &rng) {
  Kind k(rng);
  return {Fill(text, k.Fill(u)), k.Result(u)};
}

}  // namespace

GeneratedProgram GenerateProgram(int target_lines, uint64_t seed) {
  Random rng(seed);
  const std::string header =
      "// Generated by cairn-compilebench (bench/compilebench/generator.cpp): units of classes,\n"
      "// generics, loops, text and arrays, each printing one number from main.\n\n";
  std::vector<Unit> units;
  int body_lines = CountLines(header);
  // main is `fn main() {`, one line a unit, `}`.
  while (body_lines + int(units.size()) + 2 < target_lines) {
    int u = int(units.size());
    Unit unit;
    switch (u % 5) {
      case 0:
        unit = MakeUnit<AccountsUnit>(kAccounts, u, rng);
        break;
      case 1:
        unit = MakeUnit<StackUnit>(kStack, u, rng);
        break;
      case 2:
        unit = MakeUnit<ArraysUnit>(kArrays, u, rng);
        break;
      case 3:
        unit = MakeUnit<TextUnit>(kText, u, rng);
        break;
      default:
        unit = MakeUnit<GenericsUnit>(kGenerics, u, rng);
        break;
    }
    unit.source += "\n";
    body_lines += CountLines(unit.source);
    units.push_back(std::move(unit));
  }
  GeneratedProgram p;
  p.source = header;
  for (const Unit &unit : units) p.source += unit.source;
  p.source += "fn main() {\n";
  for (size_t u = 0; u < units.size(); ++u) {
    p.source += "    println(\"u" + S(int64_t(u)) + "\", unit" + S(int64_t(u)) + "())\n";
    p.expected += "u" + S(int64_t(u)) + " " + S(units[u].result) + "\n";
  }
  p.source += "}\n";
  p.lines = CountLines(p.source);
  p.units = int(units.size());
  return p;
}

}  // namespace cairn::bench
