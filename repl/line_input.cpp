// Reading inputs (line_input.h).
#include "line_input.h"

#include <llvm/LineEditor/LineEditor.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace cairn::repl {

struct LineInput::Editor {
  std::unique_ptr<llvm::LineEditor> le;
};

LineInput::LineInput(Completer completer, const std::string &history) {
  interactive_ = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
  if (!interactive_) return;
  std::string path = history;
  if (path.empty()) {
    const char *env = std::getenv("CAIRN_HISTORY");
    if (env && *env) {
      path = env;
    } else if (const char *home = std::getenv("HOME"); home && *home) {
      path = std::string(home) + "/.cairn_history";
    }
  }
  editor_ = std::make_unique<Editor>();
  editor_->le = std::make_unique<llvm::LineEditor>("cairn", path);
  editor_->le->loadHistory();
  editor_->le->setListCompleter([completer](llvm::StringRef buffer, size_t pos) {
    std::vector<llvm::LineEditor::Completion> out;
    size_t start = pos;
    const std::string line = buffer.str();
    for (const std::string &c : completer(line, pos, &start)) {
      const size_t typed = pos - start;
      if (c.size() < typed) continue;
      out.emplace_back(c.substr(typed), c);
    }
    return out;
  });
}

LineInput::~LineInput() {
  if (editor_) editor_->le->saveHistory();
}

std::optional<std::string> LineInput::read(
    const std::function<bool(const std::string &)> &complete) {
  std::string text;
  bool first = true;
  while (true) {
    std::optional<std::string> line;
    if (editor_) {
      editor_->le->setPrompt(first ? "cairn> " : "  ...> ");
      line = editor_->le->readLine();
      if (line) editor_->le->saveHistory();
    } else {
      std::string l;
      if (std::getline(std::cin, l)) line = std::move(l);
    }
    if (!line) {
      if (first) return std::nullopt;
      return text;  // the end of the input ends an unfinished one
    }
    if (!first) text += '\n';
    text += *line;
    first = false;
    if (complete(text + "\n")) return text;
  }
}

}  // namespace cairn::repl
