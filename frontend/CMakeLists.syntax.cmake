# The compiler's first phases, which need no LLVM: source files and diagnostics (source/), the
# lexer (lexer/) and the parser with its syntax tree (syntax/), as the library cairn_syntax.
# Included from the top-level CMakeLists.txt even with CAIRN_RUNTIME_ONLY, so its tests build
# everywhere. Built without RTTI or exceptions: it links into the LLVM-linked `cairn`.
set(CAIRN_FRONTEND_DIR ${CMAKE_CURRENT_LIST_DIR})
add_library(cairn_syntax STATIC
  ${CAIRN_FRONTEND_DIR}/source/source.cpp
  ${CAIRN_FRONTEND_DIR}/source/diagnostics.cpp
  ${CAIRN_FRONTEND_DIR}/source/quote.cpp
  ${CAIRN_FRONTEND_DIR}/source/utf8.cpp
  ${CAIRN_FRONTEND_DIR}/lexer/token.cpp
  ${CAIRN_FRONTEND_DIR}/lexer/lexer.cpp
  ${CAIRN_FRONTEND_DIR}/lexer/name_chars.cpp
  ${CAIRN_FRONTEND_DIR}/lexer/nfc.cpp
  ${CAIRN_FRONTEND_DIR}/lexer/lookalikes.cpp
  ${CAIRN_FRONTEND_DIR}/syntax/parser.cpp
  ${CAIRN_FRONTEND_DIR}/syntax/parse_stmt.cpp
  ${CAIRN_FRONTEND_DIR}/syntax/parse_expr.cpp
  ${CAIRN_FRONTEND_DIR}/syntax/ast_dump.cpp
)
target_include_directories(cairn_syntax PUBLIC ${CAIRN_FRONTEND_DIR}
                                        PRIVATE ${CAIRN_FRONTEND_DIR}/../runtime/include)
target_compile_options(cairn_syntax PRIVATE -fno-rtti -fno-exceptions)
