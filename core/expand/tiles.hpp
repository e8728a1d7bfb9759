// polydat's tiles: `tile NAME [: json|text|csv] [(OPTIONS)] := BODY`, a
// template whose holes `${expr[: type][| format][!]}` are expressions,
// with branches `@if c { ... } @else { ... }`, projections `@for
// COMPREHENSION [sep "..."] { ... }` and splices of earlier tiles.
//
// A tile compiles to an ordinary str binding: printf over its static text
// and one __tile_encode per hole (nodes/tile_holes.hpp), which writes the
// hole's value as its place wants it (a JSON value, inside a JSON string,
// a CSV field, text, raw); a branch is an `if` of two such printfs on
// __tile_truth of its condition. A projection's comprehension is
// evaluated here and its body unrolled, one copy per tuple with the
// elements as constants, so every hole is a plain column of the batch tier
// and a GPU kernel. A `json` tile must parse as JSON, whichever arm each
// @if takes, with each hole replaced by 0 (checked here, before it runs).
#pragma once

#include <string_view>

#include "syntax/ast.hpp"
#include "syntax/source.hpp"

namespace polyrt::expand {

// The most repetitions the projections of one tile unroll to.
inline constexpr size_t kMaxTileRepetitions = 10000;
// The deepest its directives (@if, @for) nest.
inline constexpr size_t kMaxTileDepth = 64;
// The longest a tile's text may be with its splices of earlier tiles in
// place (each hole counted as one character): a tile splicing the one
// before it twice, forty times over, would be 2^40 bytes.
inline constexpr size_t kMaxTileSplicedBytes = size_t{16} << 20;

// How a template is scanned, the same for every body form (expand/tiles.cpp,
// expand/structural_tiles.cpp): whether a string starts at k of `text` (a
// quote, or \" for the quotes of a directive inside a JSON string), where
// it ends (at most `end`), and where `close` ends a hole whose expression
// starts at k, outside nested brackets and strings (npos when nothing does).
bool tile_string_at(std::string_view text, size_t k);
size_t tile_skip_string(std::string_view text, size_t k, size_t end);
size_t tile_hole_close(std::string_view text, size_t k, size_t end, std::string_view close);

// Compiles every tile of the program (statements, traversal bodies and
// module bodies) into its binding's value. Throws CompileError naming the
// tile and the rule broken.
void compile_tiles(syntax::Ast& ast, const syntax::SourceText& source);

}  // namespace polyrt::expand
