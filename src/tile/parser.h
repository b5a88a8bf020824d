// The tile language's front end: lexer (INDENT/DEDENT from leading spaces, '#' comments, a module docstring) and a
// recursive-descent parser into ast.h. Never throws and never crashes on any input (the fuzz test feeds it garbage):
// every problem is a Diagnostic with a range; after an error the parser skips to the next statement and goes on, so
// one run reports several. The caller checks diags.has_errors().
#pragma once
#include <string>

#include "tile/ast.h"
#include "tile/diag.h"

namespace kgen::tile {
// Parses `source` (the text of `file`) into `out` (out.file and out.source are set here). Returns !diags.has_errors().
bool parse(const std::string& file, const std::string& source, Program& out, Diags& diags);
}  // namespace kgen::tile
