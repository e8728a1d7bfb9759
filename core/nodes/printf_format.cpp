#include "nodes/printf_format.hpp"

#include <algorithm>

#include "nodes/text_fields.hpp"

namespace polyrt::nodes {

bool ParsedFormat::parse(std::string_view format, std::string& error) {
  if (!rt::parse_format(format, segments, error)) return false;
  for (const rt::FormatSegment& seg : segments) {
    literal_offsets.push_back(literals.size());
    literals += seg.literal;
  }
  literals.append(columns::kPadding, '\0');
  return true;
}

namespace {

// How a piece writes its placeholder: the common cases without the generic
// field writer's switches and padding pass.
enum class Writer : uint8_t {
  None,        // the tail: a literal only
  Decimal,     // u64, {}
  ZeroPadded,  // u64, {:0N}
  Text,        // str from a padded column, {}
  Generic,     // anything else, through write_field
};

struct Piece {
  const char* literal;
  size_t literal_size;
  Writer writer = Writer::None;
  const rt::FormatSegment* spec = nullptr;
  const ColumnInput* input = nullptr;
};

}  // namespace

void write_printf_columns(const ParsedFormat& format, const ColumnCall& c) {
  std::vector<Piece> pieces;
  std::vector<const Piece*> text_pieces;  // their room depends on the row
  size_t fixed_bound = 0;
  size_t next_input = 0;
  pieces.reserve(format.segments.size());
  for (size_t i = 0; i < format.segments.size(); ++i) {
    const rt::FormatSegment& seg = format.segments[i];
    Piece piece{format.literals.data() + format.literal_offsets[i], seg.literal.size()};
    fixed_bound += seg.literal.size();
    if (seg.placeholder) {
      piece.spec = &seg;
      piece.input = &c.inputs[next_input++];
      const Type type = piece.input->type;
      if (type == Type::U64 && seg.radix == 0 && (seg.width == 0 || seg.zero_pad)) {
        piece.writer = seg.width == 0 ? Writer::Decimal : Writer::ZeroPadded;
        fixed_bound += std::max<size_t>(seg.width, rt::kU64Text);
      } else if (type == Type::Str) {
        piece.writer = seg.width == 0 && piece.input->padded ? Writer::Text : Writer::Generic;
      } else if (is_text(type)) {  // bytes (as hex) and json: bounded row by row
        piece.writer = Writer::Generic;
      } else {
        piece.writer = Writer::Generic;
        fixed_bound += field_bound(seg, FieldValue{type, 0, {}});
      }
    }
    pieces.push_back(piece);
  }
  for (const Piece& piece : pieces) {
    if (piece.input && is_text(piece.input->type)) text_pieces.push_back(&piece);
  }

  columns::StringColumn& out = *c.outputs[0].text;
  char* p = out.cursor();
  for (uint64_t r = 0; r < c.rows; ++r) {
    size_t bound = fixed_bound;
    for (const Piece* piece : text_pieces) {
      bound += std::max<size_t>(piece->spec->width, piece->input->text(r).size());
    }
    p = out.ensure(p, bound);
    for (const Piece& piece : pieces) {
      p = columns::copy_padded(p, piece.literal, piece.literal_size);
      switch (piece.writer) {
        case Writer::None:
          break;
        case Writer::Decimal:
          p = rt::write_u64(p, piece.input->word(r));
          break;
        case Writer::ZeroPadded:
          p = rt::write_u64_zero_pad(p, piece.input->word(r), piece.spec->width);
          break;
        case Writer::Text: {
          const std::string_view text = piece.input->text(r);
          p = columns::copy_padded(p, text.data(), text.size());
          break;
        }
        case Writer::Generic:
          p = write_field(p, *piece.spec, field_of(*piece.input, r));
          break;
      }
    }
    out.finish_row(p);
  }
}

}  // namespace polyrt::nodes
