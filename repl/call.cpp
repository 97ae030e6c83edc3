// :call NAME ARGS (session.h): a compiled function called through libffi, with a call frame
// built at run time from its signature as the session knows it, and arguments typed at the
// prompt as literals: integers, floats, true/false, "text" (with the escapes of the language),
// nil; separated by spaces or commas. The result is printed like any value.
//
// It calls the function the way compiled code does: a function of the session through its stub
// (so the newest body), with the C calling convention of the generated code (int as int64,
// float as double, bool as one byte, references as pointers). It runs as an input does: in a
// transaction of its own when the store is open, with runtime errors ending only the call.
#include <ffi.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cairn/lang.h"
#include "guard.h"
#include "lexer/nfc.h"
#include "lower/lower.h"
#include "output.h"
#include "session.h"

namespace cairn::repl {
namespace {

// The words of the argument list; "" and false if a text literal is not closed.
// Splits :call's argument into words; false (and *unclosed = the text literal's start) for a
// text literal without its closing quote.
bool splitWords(const std::string &s, std::vector<std::string> *out, std::string *unclosed) {
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (std::isspace(static_cast<unsigned char>(s[i])) || s[i] == ',')) ++i;
    if (i == s.size()) break;
    std::string w;
    if (s[i] == '"') {
      w += s[i++];
      bool closed = false;
      while (i < s.size()) {
        char c = s[i++];
        w += c;
        if (c == '\\' && i < s.size()) {
          w += s[i++];
          continue;
        }
        if (c == '"') {
          closed = true;
          break;
        }
      }
      if (!closed) {
        *unclosed = w;
        return false;
      }
    } else {
      while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i])) && s[i] != ',')
        w += s[i++];
    }
    out->push_back(w);
  }
  return true;
}

// The bytes of a text literal's contents; false on a bad escape.
// An int or float argument written as in Cairn source (docs/language.md, Literals): an
// optional '-', then decimal digits or 0x and hex digits, '_' allowed between digits; a float
// also with '.' and an exponent, or written as an int. Returns false for anything else (a
// leading 0 is decimal, not octal as strtoll would read it).
bool cairnNumber(const std::string &w, bool floating, int64_t *i, double *d) {
  std::string digits;
  for (size_t k = 0; k < w.size(); ++k) {
    if (w[k] != '_') {
      digits += w[k];
      continue;
    }
    const bool between = k > 0 && k + 1 < w.size() &&
                         std::isxdigit(static_cast<unsigned char>(w[k - 1])) &&
                         std::isxdigit(static_cast<unsigned char>(w[k + 1]));
    if (!between) return false;
  }
  if (digits.empty()) return false;
  const bool negative = digits[0] == '-';
  const std::string body = negative ? digits.substr(1) : digits;
  if (body.empty() || !(std::isdigit(static_cast<unsigned char>(body[0])))) return false;
  const bool hex = body.size() > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X');
  char *end = nullptr;
  errno = 0;
  if (hex || !floating || body.find_first_of(".eE") == std::string::npos) {
    const unsigned long long v = std::strtoull(body.c_str() + (hex ? 2 : 0), &end, hex ? 16 : 10);
    if (*end != '\0' || errno != 0) return false;
    // A hex literal is a 64-bit pattern (0xFFFFFFFFFFFFFFFF is -1), a decimal one a value.
    if (v > (negative ? 9223372036854775808ULL : hex ? ~0ULL : 9223372036854775807ULL))
      return false;
    const int64_t value = negative ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
    *i = value;
    *d = static_cast<double>(value);
    return true;
  }
  *d = std::strtod(digits.c_str(), &end);
  return *end == '\0' && errno == 0;
}

bool unquote(const std::string &w, std::string *out) {
  for (size_t i = 1; i + 1 < w.size(); ++i) {
    char c = w[i];
    if (c != '\\') {
      *out += c;
      continue;
    }
    char e = w[++i];
    switch (e) {
      case 'n':
        *out += '\n';
        break;
      case 't':
        *out += '\t';
        break;
      case 'r':
        *out += '\r';
        break;
      case '0':
        *out += '\0';
        break;
      case '"':
      case '\\':
        *out += e;
        break;
      case 'u': {  // \u{X...}: 1 to 6 hex digits, a Unicode scalar value, as UTF-8
        if (i + 1 >= w.size() || w[i + 1] != '{') return false;
        const size_t close = w.find('}', i + 2);
        if (close == std::string::npos || close == i + 2 || close - (i + 2) > 6) return false;
        uint32_t cp = 0;
        for (size_t k = i + 2; k < close; ++k) {
          if (!std::isxdigit(static_cast<unsigned char>(w[k]))) return false;
          cp = cp * 16 + uint32_t(std::isdigit(static_cast<unsigned char>(w[k]))
                                      ? w[k] - '0'
                                      : std::tolower(static_cast<unsigned char>(w[k])) - 'a' + 10);
        }
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        if (cp < 0x80) {
          *out += char(cp);
        } else if (cp < 0x800) {
          *out += char(0xC0 | (cp >> 6));
          *out += char(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
          *out += char(0xE0 | (cp >> 12));
          *out += char(0x80 | ((cp >> 6) & 0x3F));
          *out += char(0x80 | (cp & 0x3F));
        } else {
          *out += char(0xF0 | (cp >> 18));
          *out += char(0x80 | ((cp >> 12) & 0x3F));
          *out += char(0x80 | ((cp >> 6) & 0x3F));
          *out += char(0x80 | (cp & 0x3F));
        }
        i = close;
        break;
      }
      default:
        return false;
    }
  }
  return true;
}

}  // namespace

bool Session::callFunction(const std::string &arg) {
  auto fail = [&](const std::string &message) {
    reportError(message);
    ++failures_;
    return true;
  };
  std::vector<std::string> words;
  std::string unclosed;
  if (!splitWords(arg, &words, &unclosed)) {
    size_t cut = unclosed.size() > 24 ? 20 : unclosed.size();  // on a character's first byte
    while (cut > 0 && cut < unclosed.size() && (unclosed[cut] & 0xC0) == 0x80) --cut;
    return fail("the text " + unclosed.substr(0, cut) + (cut < unclosed.size() ? "..." : "") +
                " has no closing '\"' (a text argument is written as in code: \"like this\")");
  }
  if (words.empty())
    return fail(":call needs a function's name and its arguments, as in :call area 2.5 \"x\"");
  // `:call f(1, 2)`, `:call f [1, 2]`: an expression, not literals separated by spaces.
  const std::string rest = arg.substr(arg.find(words[0]) + words[0].size());
  bool expression = words[0].find_first_of("([") != std::string::npos;
  for (size_t k = 1; k < words.size(); ++k)
    expression = expression ||
                 (words[k].front() != '"' && words[k].find_first_of("[](){}") != std::string::npos);
  if (expression) {
    const std::string name = words[0].substr(0, words[0].find_first_of("(["));
    const std::string call =
        words[0].find_first_of("([") != std::string::npos
            ? std::string(arg.substr(arg.find_first_not_of(" \t")))
            : name + "(" + std::string(rest.substr(rest.find_first_not_of(" \t"))) + ")";
    return fail(
        ":call takes a function's name, then literal ints, floats, bools, texts and nil, "
        "separated by spaces (:call " +
        name +
        " 1 2.5 \"x\"); for an array, an object or any expression, type the "
        "call itself: " +
        call);
  }
  const front::FuncInfo *f = checker_->findFunction(front::toNfc(words[0]));  // as the lexer
  if (f == nullptr) {
    if (checker_->hasFunction(front::toNfc(words[0])))
      return fail("'" + words[0] +
                  "' is a generic function, which :call cannot call (its instances are made "
                  "by calls in code): type the call itself, as in " +
                  words[0] + "(...)");
    return fail("no function '" + words[0] + "' in the session");
  }
  const size_t n = words.size() - 1;
  if (n != f->params.size())
    return fail("'" + f->name + "' takes " + std::to_string(f->params.size()) + " argument" +
                (f->params.size() == 1 ? "" : "s") + " (" + front::typeName(f->fnType) + "), not " +
                std::to_string(n));

  // The address code calls it by.
  std::string symbol = callSymbol(f);
  if (symbol.empty()) symbol = f->symbol;
  auto addr = jit_->lookup(symbol);
  if (!addr && f->is_extern) {  // a C function this process lacks (as a call to it says)
    llvm::consumeError(addr.takeError());
    return fail(front::missingExternMessage(f->symbol));
  }
  if (!addr) return fail(jit_->explain(addr.takeError()));

  // Argument values, and their types for the call frame. Texts are made on the heap; their
  // addresses are kept on this stack (values[]), so the collector sees them as roots.
  union Value {
    int64_t i;
    double d;
    uint8_t b;
    void *p;
  };
  Value values[16];
  if (n > 16) return fail(":call takes at most 16 arguments");
  std::vector<ffi_type *> types(n);
  std::vector<void *> slots(n);
  for (size_t k = 0; k < n; ++k) {
    const std::string &w = words[k + 1];
    const front::Type *t = f->params[k];
    const std::string want = front::typeName(t);
    auto wrong = [&] {
      return fail("argument " + std::to_string(k + 1) + " of '" + f->name + "' is " + want +
                  ", not '" + w + "'");
    };
    switch (t->kind) {
      case front::TypeKind::Int: {
        double unused = 0;
        if (!cairnNumber(w, false, &values[k].i, &unused)) return wrong();
        types[k] = &ffi_type_sint64;
        break;
      }
      case front::TypeKind::Float: {
        int64_t unused = 0;
        if (!cairnNumber(w, true, &unused, &values[k].d)) return wrong();
        types[k] = &ffi_type_double;
        break;
      }
      case front::TypeKind::Bool:
        if (w != "true" && w != "false") return wrong();
        values[k].b = w == "true";
        types[k] = &ffi_type_uint8;
        break;
      case front::TypeKind::Text:
      case front::TypeKind::Any:
        if (w == "nil") {
          values[k].p = nullptr;
        } else if (w.size() >= 2 && w.front() == '"') {
          std::string bytes;
          if (!unquote(w, &bytes)) return wrong();
          values[k].p = cairn_text_new(bytes.data(), static_cast<int64_t>(bytes.size()));
        } else {
          return wrong();
        }
        types[k] = &ffi_type_pointer;
        break;
      default:
        if (!t->isRef() || w != "nil")
          return fail("argument " + std::to_string(k + 1) + " of '" + f->name + "' is " + want +
                      ": :call takes ints, floats, bools, texts and nil");
        values[k].p = nullptr;
        types[k] = &ffi_type_pointer;
    }
    slots[k] = &values[k];
  }
  ffi_type *ret = &ffi_type_void;
  switch (f->ret->kind) {
    case front::TypeKind::Void:
      break;
    case front::TypeKind::Int:
    case front::TypeKind::Transaction:
      ret = &ffi_type_sint64;
      break;
    case front::TypeKind::Float:
      ret = &ffi_type_double;
      break;
    case front::TypeKind::Bool:
      ret = &ffi_type_uint8;
      break;
    default:
      ret = &ffi_type_pointer;
  }
  // A std function takes the position of its caller last (lower.h): none here.
  void *no_caller = nullptr;
  if (front::takesCallerLoc(f)) {
    types.push_back(&ffi_type_pointer);
    slots.push_back(&no_caller);
  }
  ffi_cif cif;
  if (ffi_prep_cif(&cif, FFI_DEFAULT_ABI, static_cast<unsigned>(types.size()), ret, types.data()) !=
      FFI_OK)
    return fail("internal error: libffi cannot make a call frame for " +
                front::typeName(f->fnType));

  // S2, as for an input: a function that begins transactions itself runs outside one, and one
  // that opens the store has it opened first, so that its own transaction covers it.
  const bool own_transactions = beginsTransactions(f);
  if (!own_transactions && cairn_store_dir() == nullptr && opensStore(f))
    (void)cairn_store_open(nullptr);
  if (!own_transactions && !beginImplicit()) {
    ++failures_;
    return true;
  }
  // libffi returns small integers widened to a register's width.
  ffi_arg result[2] = {0, 0};
  std::string printed;
  RuntimeFailure failure;
  const bool ok = runGuarded(
      [&] {
        ffi_call(&cif, reinterpret_cast<void (*)()>(*addr), result, slots.data());
        if (f->ret->kind == front::TypeKind::Void) return;
        Value v;
        if (f->ret->kind == front::TypeKind::Bool)
          v.b = static_cast<uint8_t>(result[0] & 1);
        else
          std::memcpy(&v, result, sizeof v);
        PrintOptions po;
        po.depth = depth_;
        Printer printer(po, [this](const void *obj, int64_t *len) { return lengthOf(obj, len); });
        printed = printer.value(f->ret, &v);
      },
      &failure);
  if (ok && f->ret->kind != front::TypeKind::Void) {
    endLine();
    std::printf("%s\n", printed.c_str());
  }
  if (!ok) {
    reportRuntimeFailure(failure, ":call " + f->name);
    ++failures_;
  }
  endImplicit(ok);
  if (own_transactions || yielded_) settleOutside(ok);
  return true;
}

}  // namespace cairn::repl
