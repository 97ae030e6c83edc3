// Where the REPL's input comes from: the terminal, through llvm::LineEditor (libedit: line
// editing, history kept across sessions in a file, tab completion), or a pipe or a file, read
// line by line with no prompts echoed (for scripts and tests). Lines are joined into one input
// until Session::isComplete says it is whole.
#ifndef CAIRN_REPL_LINE_INPUT_H
#define CAIRN_REPL_LINE_INPUT_H

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cairn::repl {

class LineInput {
 public:
  using Completer = std::function<std::vector<std::string>(const std::string &line, size_t cursor,
                                                           size_t *start)>;
  // Interactive (with prompts and editing) when standard input and output are terminals.
  // `history`: the history file ("" : $CAIRN_HISTORY, else ~/.cairn_history).
  LineInput(Completer completer, const std::string &history);
  ~LineInput();
  bool interactive() const { return interactive_; }
  // One whole input (several lines joined with '\n' while `complete` says it goes on), or
  // nullopt at the end of the input.
  std::optional<std::string> read(const std::function<bool(const std::string &)> &complete);

 private:
  struct Editor;
  std::unique_ptr<Editor> editor_;
  bool interactive_ = false;
};

}  // namespace cairn::repl

#endif  // CAIRN_REPL_LINE_INPUT_H
