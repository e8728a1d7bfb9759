#include "nodes/printf_format.hpp"

#include <algorithm>

#include "nodes/registry.hpp"
#include "nodes/text_fields.hpp"
#include "rtlib/small_decimals.hpp"

namespace polyrt::nodes {

const ParsedFormat& format_of(const Prepared& prepared) {
  return *static_cast<const ParsedFormat*>(prepared.extra.get());
}

bool ParsedFormat::parse(std::string_view format, std::string& error, bool escapes) {
  if (!rt::parse_format(format, segments, error, escapes)) return false;
  for (const rt::FormatSegment& seg : segments) {
    literal_offsets.push_back(literals.size());
    literals += seg.literal;
  }
  literals.append(columns::kPadding, '\0');
  return true;
}

namespace {

// How a piece writes its value: the common cases without the generic
// writers' switches and padding pass.
enum class Writer : uint8_t {
  None,        // a literal only
  Decimal,     // u64, {} or Display
  ZeroPadded,  // u64, {:0N}
  TwoDigits,   // u64, {:02}: a pair from a table below 100 (days, months, hours)
  Text,        // str from a padded column, {} or Display
  Escaped,     // str under a tile's escape, through write_escaped
  Field,       // anything else under a printf spec, through write_field
  Display,     // anything else in its Display form, through write_display
};

// A literal (padded: copied as one fixed move when short), then a value.
struct Piece {
  const char* literal = nullptr;
  size_t literal_size = 0;
  Writer writer = Writer::None;
  const rt::FormatSegment* spec = nullptr;
  // A copy, not a pointer: the writers then read the column's pointers with
  // one load instead of a dependent chain.
  ColumnInput input;
  bool has_input = false;
};

// The room a piece's value needs at row r beyond the fixed bound: text
// lengths vary by row.
size_t row_room(const Piece& piece, uint64_t r) {
  const FieldValue v = field_of(piece.input, r);
  switch (piece.writer) {
    case Writer::Text:
      return v.text.size();
    case Writer::Escaped:
    case Writer::Field:
      return field_bound(*piece.spec, v);
    default:
      return display_bound(v);
  }
}

// The room a piece's values need in rows [begin, end): a text column's
// bytes there from two offsets, else row by row.
size_t rows_room(const Piece& piece, uint64_t begin, uint64_t end) {
  const ColumnInput& in = piece.input;
  if (piece.writer == Writer::Text && in.stride == 1) {
    return (size_t)(in.offsets[end] - in.offsets[begin]);
  }
  if (piece.writer == Writer::Text && in.stride == 0) return in.text(0).size() * (end - begin);
  size_t room = 0;
  for (uint64_t r = begin; r < end; ++r) room += row_room(piece, r);
  return room;
}

// Rows whose room is made at once (one bound and one check per block, not
// per row), few enough that the block's bound stays small.
constexpr uint64_t kBlockRows = 256;

// Output 0 of the chunk: each row the pieces in order. `fixed_bound` is the
// room every row needs whatever its values (literals and number fields).
// The pieces are read through pointers held in locals: the row's byte stores
// could alias a vector's own pointers, which would be reloaded per piece.
void write_pieces(const std::vector<Piece>& piece_list, size_t fixed_bound, const ColumnCall& c) {
  std::vector<const Piece*> text_list;
  for (const Piece& piece : piece_list) {
    if (piece.has_input && is_payload(piece.input.type)) text_list.push_back(&piece);
  }
  const Piece* const pieces = piece_list.data();
  const Piece* const pieces_end = pieces + piece_list.size();
  const Piece* const* const text_pieces = text_list.data();
  const size_t text_count = text_list.size();
  columns::StringColumn& out = *c.outputs[0].text;
  char* p = out.cursor();
  for (uint64_t r = 0; r < c.rows; ++r) {
    if (r % kBlockRows == 0) {
      const uint64_t end = std::min(c.rows, r + kBlockRows);
      size_t bound = fixed_bound * (end - r);
      for (size_t k = 0; k < text_count; ++k) bound += rows_room(*text_pieces[k], r, end);
      p = out.ensure(p, bound);
    }
    for (const Piece* it = pieces; it != pieces_end; ++it) {
      const Piece& piece = *it;
      p = columns::copy_padded(p, piece.literal, piece.literal_size);
      switch (piece.writer) {
        case Writer::None:
          break;
        case Writer::Decimal:
          p = rt::write_decimal(p, piece.input.word(r));
          break;
        case Writer::ZeroPadded:
          p = rt::write_u64_zero_pad(p, piece.input.word(r), piece.spec->width);
          break;
        case Writer::TwoDigits:
          p = rt::write_two_digits(p, piece.input.word(r));
          break;
        case Writer::Text: {
          const std::string_view text = piece.input.text(r);
          p = columns::copy_padded(p, text.data(), text.size());
          break;
        }
        case Writer::Escaped:
          p = write_escaped(p, piece.spec->escape, piece.input.text(r));
          break;
        case Writer::Field:
          p = write_field(p, *piece.spec, field_of(piece.input, r));
          break;
        case Writer::Display:
          p = write_display(p, field_of(piece.input, r));
          break;
      }
    }
    out.finish_row(p);
  }
}

}  // namespace

void write_printf_columns(const ParsedFormat& format, const ColumnCall& c) {
  std::vector<Piece> pieces;
  size_t fixed_bound = 0;
  size_t next_input = 0;
  pieces.reserve(format.segments.size());
  for (size_t i = 0; i < format.segments.size(); ++i) {
    const rt::FormatSegment& seg = format.segments[i];
    if (!seg.placeholder && seg.literal.empty()) continue;  // an empty tail
    Piece piece{format.literals.data() + format.literal_offsets[i], seg.literal.size()};
    fixed_bound += seg.literal.size();
    if (seg.placeholder) {
      piece.spec = &seg;
      piece.input = c.inputs[next_input++];
      piece.has_input = true;
      const Type type = piece.input.type;
      if (type == Type::U64 && seg.radix == 0 && (seg.width == 0 || seg.zero_pad)) {
        piece.writer = seg.width == 0   ? Writer::Decimal
                       : seg.width == 2 ? Writer::TwoDigits
                                        : Writer::ZeroPadded;
        fixed_bound += std::max<size_t>(seg.width, rt::kU64Text);
      } else if (type == Type::Str && seg.width == 0 && piece.input.padded &&
                 seg.escape == rt::TextEscape::None) {
        piece.writer = Writer::Text;
      } else if (seg.escape != rt::TextEscape::None) {
        piece.writer = Writer::Escaped;
      } else {
        piece.writer = Writer::Field;
        if (!is_payload(type)) fixed_bound += field_bound(seg, FieldValue{type, 0, {}});
      }
    }
    pieces.push_back(piece);
  }
  write_pieces(pieces, fixed_bound, c);
}

void write_concat_columns(const ColumnCall& c) {
  // A scalar argument (a literal) is rendered once per chunk into padded
  // literal text; the rest are written row by row.
  std::string literals;
  std::vector<size_t> literal_ends(c.inputs.size());
  for (size_t k = 0; k < c.inputs.size(); ++k) {
    const ColumnInput& in = c.inputs[k];
    if (in.stride == 0) {
      const FieldValue v = field_of(in, 0);
      const size_t start = literals.size();
      literals.resize(start + display_bound(v));
      literals.resize((size_t)(write_display(literals.data() + start, v) - literals.data()));
    }
    literal_ends[k] = literals.size();
  }
  literals.append(columns::kPadding, '\0');
  std::vector<Piece> pieces;
  size_t fixed_bound = 0;
  size_t literal_start = 0;
  for (size_t k = 0; k < c.inputs.size(); ++k) {
    const ColumnInput& in = c.inputs[k];
    Piece piece{literals.data() + literal_start, literal_ends[k] - literal_start};
    literal_start = literal_ends[k];
    fixed_bound += piece.literal_size;
    if (in.stride != 0) {
      piece.input = in;
      piece.has_input = true;
      if (in.type == Type::U64) {
        piece.writer = Writer::Decimal;
        fixed_bound += rt::kU64Text;
      } else if (in.type == Type::Str && in.padded) {
        piece.writer = Writer::Text;
      } else {
        piece.writer = Writer::Display;
        if (!is_payload(in.type)) fixed_bound += display_bound(FieldValue{in.type, 0, {}});
      }
    }
    pieces.push_back(piece);
  }
  write_pieces(pieces, fixed_bound, c);
}

}  // namespace polyrt::nodes
