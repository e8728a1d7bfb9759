// A logical value's text (polyrt/logical_type.hpp) from its word: the one
// choice of writer by logical type that logical_text, the `as str` node and
// the row writers make, inline for the row loop.
#pragma once

#include "polyrt/logical_type.hpp"
#include "rtlib/logical_text.h"

namespace polyrt {

// Writes at most rt::kLogicalText bytes at p; returns the end.
inline char* write_logical_text(char* p, LogicalType type, uint64_t word) {
  switch (type.kind) {
    case LogicalKind::Timestamp:
      return rt::write_instant(p, (int64_t)word, 3);
    case LogicalKind::TimestampMicros:
      return rt::write_instant(p, (int64_t)word, 6);
    case LogicalKind::Date:
      return rt::write_date(p, (int64_t)word);
    case LogicalKind::Decimal:
    case LogicalKind::None:
      break;
  }
  return rt::write_decimal(p, (int64_t)word, type.scale);
}

}  // namespace polyrt
