// libFuzzer target for the compiler's front end: any bytes go through the lexer, the parser and
// the checker. The promise under test: no crash, no hang, no sanitizer report; bad input only
// ever produces diagnostics (which are rendered too, to exercise the caret printer).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "check/checker.h"
#include "check/types.h"
#include "source/diagnostics.h"
#include "syntax/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace cairn::front;
  SourceManager sources;
  Diagnostics diags(sources);
  diags.setErrorLimit(50);
  SourceFile &file =
      sources.add("fuzz.cairn", std::string(reinterpret_cast<const char *>(data), size));
  ModuleInfo module;
  module.name = "fuzz";
  module.path = "fuzz.cairn";
  module.syntax = parseModule(file, diags);
  // As the driver does: the checker runs on a module that parsed without errors.
  TypeContext types;
  std::unique_ptr<sem::Program> program;
  if (!diags.hasErrors())
    program = checkProgram({&module}, &module, diags, types, /*require_main=*/false);
  for (const Diagnostic &d : diags.all()) (void)diags.render(d, false);
  return 0;
}
