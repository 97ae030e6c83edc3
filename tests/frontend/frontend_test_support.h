// What the front end's tests share: a source text lexed or parsed with its diagnostics, and
// compact forms of tokens, trees and errors to compare against.
#ifndef CAIRN_TESTS_FRONTEND_FRONTEND_TEST_SUPPORT_H
#define CAIRN_TESTS_FRONTEND_FRONTEND_TEST_SUPPORT_H

#include <memory>
#include <string>
#include <vector>

#include "lexer/lexer.h"
#include "source/diagnostics.h"
#include "source/source.h"
#include "syntax/ast.h"
#include "syntax/ast_dump.h"
#include "syntax/parser.h"

namespace cairn::front::testing {

// "line:col: message" of each diagnostic, in the order reported.
inline std::vector<std::string> errorList(const SourceManager &sources, const Diagnostics &diags) {
  std::vector<std::string> out;
  for (const Diagnostic &d : diags.all()) {
    const LineCol lc = sources.file(d.span.file).lineCol(d.span.begin);
    out.push_back(std::to_string(lc.line) + ":" + std::to_string(lc.col) + ": " + d.message);
  }
  return out;
}

inline std::string joinLines(const std::vector<std::string> &lines) {
  std::string out;
  for (const std::string &l : lines) out += l + "\n";
  return out;
}

// One source text, parsed.
class Parsed {
 public:
  explicit Parsed(std::string text, std::string path = "test.cairn")
      : file_(&sources_.add(std::move(path), std::move(text))),
        module_(parseModule(*file_, diags_)) {}
  Parsed(const Parsed &) = delete;
  Parsed &operator=(const Parsed &) = delete;

  const ast::Module &module() const { return *module_; }
  const Diagnostics &diags() const { return diags_; }
  const SourceManager &sources() const { return sources_; }
  const SourceFile &file() const { return *file_; }
  std::string dump() const { return dumpModule(*module_); }
  std::vector<std::string> errors() const { return errorList(sources_, diags_); }
  std::string errorText() const { return joinLines(errors()); }
  // The source text a span covers.
  std::string text(Span span) const {
    return std::string(file_->text().substr(span.begin, span.end - span.begin));
  }

 private:
  SourceManager sources_;
  Diagnostics diags_{sources_};
  const SourceFile *file_;
  std::unique_ptr<ast::Module> module_;
};

// The statements of `fn main() { <body> }`, dumped and separated by spaces; the errors
// instead, if there are any.
inline std::string dumpBody(const std::string &body) {
  Parsed p("fn main() {\n" + body + "\n}\n");
  if (p.diags().hasErrors()) return "ERRORS:\n" + p.errorText();
  const auto *fn = p.module().decls.at(0)->as<ast::FnDecl>();
  std::string out;
  for (const ast::StmtPtr &s : fn->body->stmts) {
    if (!out.empty()) out += " ";
    out += dumpStmt(s.get());
  }
  return out;
}

// One expression (as the value of a `let` in main), dumped; the errors instead, if any.
inline std::string dumpExprOf(const std::string &expr) {
  Parsed p("fn main() {\n  let e = " + expr + "\n}\n");
  if (p.diags().hasErrors()) return "ERRORS:\n" + p.errorText();
  const auto *fn = p.module().decls.at(0)->as<ast::FnDecl>();
  if (fn->body->stmts.size() != 1) return "NOT ONE STATEMENT: " + dumpStmt(fn->body.get());
  return dumpExpr(fn->body->stmts[0]->as<ast::LetStmt>()->init.get());
}

// A whole module's dump; the errors instead, if any.
inline std::string dumpProgram(const std::string &text) {
  Parsed p(text);
  if (p.diags().hasErrors()) return "ERRORS:\n" + p.errorText();
  return p.dump();
}

// The errors of a program, "line:col: message" one a line.
inline std::string errorsOf(const std::string &text) { return Parsed(text).errorText(); }

}  // namespace cairn::front::testing

#endif  // CAIRN_TESTS_FRONTEND_FRONTEND_TEST_SUPPORT_H
