// Logical types: what an output's word means to the tools that read it. A
// `timestamp` is UTC epoch milliseconds, a `timestamp_us` epoch microseconds,
// a `date` days since 1970-01-01 and a `decimal(p, s)` the integer
// value * 10^s, with at most p digits. Each keeps one word of a numeric type
// (`physical_type`), so every engine, tier and kernel carries it as the
// number it is; only the writers read the logical type: Parquet and Arrow as
// their own timestamp, date32 and decimal128 types, the text formats as ISO
// 8601 and plain decimals (see docs/language.md, "Dates, times and decimals").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "polyrt/value.hpp"

namespace polyrt {

enum class LogicalKind : uint8_t { None, Timestamp, TimestampMicros, Date, Decimal };

// The most digits a decimal has: its unscaled value fits an i64.
inline constexpr int kMaxDecimalPrecision = 18;

struct LogicalType {
  LogicalKind kind = LogicalKind::None;
  uint8_t precision = 0;  // decimal: 1..kMaxDecimalPrecision digits
  uint8_t scale = 0;      // decimal: 0..precision digits after the point

  bool is_none() const { return kind == LogicalKind::None; }
  bool operator==(const LogicalType&) const = default;

  static LogicalType decimal(int precision, int scale) {
    return {LogicalKind::Decimal, (uint8_t)precision, (uint8_t)scale};
  }
};

// The numeric type whose word a logical value is: i32 for a date, i64 else.
Type physical_type(LogicalType type);
// "timestamp", "timestamp_us", "date", "decimal(12, 2)"; "" for none.
std::string logical_type_name(LogicalType type);
// The logical type keywords without a decimal's arguments, for messages.
std::string_view logical_type_keywords();
// Whether `keyword` names a logical type ("decimal" takes (p, s) after it).
std::optional<LogicalKind> logical_kind_named(std::string_view keyword);

// The text the writers give a logical value of word `word`: ISO 8601
// ("2024-06-01T12:34:56.789Z", microseconds with 6 decimals, "2024-06-01";
// years before 0 or after 9999 with a sign and more digits) or a plain
// decimal ("-1234.50", every one of its scale's decimals).
std::string logical_text(LogicalType type, uint64_t word);

}  // namespace polyrt
