// Reading inputs (line_input.h).
#include "line_input.h"

#include <llvm/LineEditor/LineEditor.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "cairn/lang.h"
#include "output.h"

namespace cairn::repl {
namespace {

volatile sig_atomic_t interrupted = 0;  // Ctrl-C since the last read began

// Ctrl-C: the next poll of running code ends it (cairn/lang.h), and a read in progress stops
// (the handler is installed without SA_RESTART, so libedit's read returns).
void onInterrupt(int) {
  interrupted = 1;
  noteTerminalEcho();  // the terminal shows `^C` where the cursor is (a prompt prints its own)
  cairn_interrupt();
}

}  // namespace

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
  struct sigaction sa = {};
  sa.sa_handler = onInterrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;
  sigaction(SIGINT, &sa, nullptr);
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
      interrupted = 0;
      line = editor_->le->readLine();
      if (!line && interrupted) {
        // Ctrl-C at a prompt drops what was typed of the input, as in a shell.
        std::fputs("^C\n", stdout);
        std::fflush(stdout);
        text.clear();
        first = true;
        continue;
      }
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
    if (complete(text + "\n")) {
      cairn_interrupt_clear();  // a Ctrl-C before this input is not for it
      return text;
    }
  }
}

}  // namespace cairn::repl
