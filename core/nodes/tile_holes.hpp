// What a tile's hole asks of its encoder (expand/tiles.hpp writes these into
// the constants of the __tile_encode node it makes, nodes_tile.cpp reads
// them), and the two nodes a tile compiles to besides printf.
#pragma once

#include <cstdint>
#include <string_view>

namespace polyrt::nodes {

struct NodeDef;

// Where a hole's text goes, which decides its escaping (polydat's tile
// encoders): a JSON value (a str quoted, numbers and bools bare, None
// null), the inside of a JSON string or key, a CSV field (quoted when it
// holds , " or a newline), text as it is, or raw (`${x!}`: text as it is
// in any encoding).
enum class TileRule : uint8_t { Json, JsonString, Csv, Text, Raw };

// A hole's declared type (`${x: str}`): what the value is read as before
// it is encoded. None: the wire's own type.
enum class TileDeclared : uint8_t { None, Str, Bool, U64, I64, F64 };

// A hole's format (`${x | .2}`): fixed decimals, hex, zero padding, right
// or left alignment to a width (`N` aligns right).
struct TileFormat {
  enum class Kind : uint8_t {
    None,
    Precision,
    Hex,
    UpperHex,
    ZeroPad,
    Right,
    Left
  } kind = Kind::None;
  uint64_t n = 0;  // the precision or the width
};

// __tile_encode(value, rule, declared, format kind, format n, strict, hole
// text): the hole's text. __tile_truth(value): a branch's condition (a
// number not zero, a str not empty, "0" or "false", a json value always;
// None false).
inline constexpr std::string_view tile_encode_name = "__tile_encode";
inline constexpr std::string_view tile_printf_name = "__tile_printf";
inline constexpr std::string_view tile_truth_name = "__tile_truth";
const NodeDef& tile_encode_node();
const NodeDef& tile_truth_node();
// __tile_truth once its input's type is known (graph/passes.cpp): of an
// integer or a bool, and of a float, computed natively (value != 0).
const NodeDef& tile_truth_of_word_node();
const NodeDef& tile_truth_of_f64_node();
// A tile's printf once its holes' encoders are folded into its format
// (graph/passes.cpp): printf's writers, with the escape specs.
const NodeDef& tile_printf_node();

}  // namespace polyrt::nodes
