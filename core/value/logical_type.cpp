#include "polyrt/logical_type.hpp"

#include <charconv>

#include "polyrt/error.hpp"
#include "rtlib/logical_text.h"
#include "value/logical_text.hpp"
#include "value/message_text.hpp"
#include "value/time_text.hpp"

namespace polyrt {

Type physical_type(LogicalType type) {
  return type.kind == LogicalKind::Date ? Type::I32 : Type::I64;
}

std::string logical_type_name(LogicalType type) {
  switch (type.kind) {
    case LogicalKind::None:
      return "";
    case LogicalKind::Timestamp:
      return "timestamp";
    case LogicalKind::TimestampMicros:
      return "timestamp_us";
    case LogicalKind::Date:
      return "date";
    case LogicalKind::Decimal:
      return "decimal(" + std::to_string(type.precision) + ", " + std::to_string(type.scale) + ")";
  }
  return "";
}

std::string_view logical_type_keywords() {
  return "timestamp, timestamp_us, date, decimal(precision, scale)";
}

std::optional<LogicalKind> logical_kind_named(std::string_view keyword) {
  for (LogicalKind kind : {LogicalKind::Timestamp, LogicalKind::TimestampMicros, LogicalKind::Date,
                           LogicalKind::Decimal}) {
    const std::string name = logical_type_name(LogicalType{kind, 1, 0});
    if (keyword == name.substr(0, name.find('('))) return kind;
  }
  return std::nullopt;
}

std::string logical_text(LogicalType type, uint64_t word) {
  if (type.is_none()) internal_error("logical_text of a value with no logical type");
  char text[rt::kLogicalText];
  return std::string(text, write_logical_text(text, type, word));
}

namespace {

constexpr int64_t kMaxYear = 300000000;  // i64 milliseconds reach 292,278,994

// Why a text is not a time: caught where the text is parsed.
struct Malformed {
  std::string why;
};

// Reads the text left to right; each read says what it expected on failure.
class TimeReader {
 public:
  explicit TimeReader(std::string_view text) : text_(text) {}

  bool done() const { return at_ == text_.size(); }
  bool next_is(char c) const { return at_ < text_.size() && text_[at_] == c; }
  bool take(char c) {
    if (!next_is(c)) return false;
    ++at_;
    return true;
  }
  // Exactly `count` digits (at least `count` when `more`), in [lo, hi].
  int64_t number(const char* what, int count, int64_t lo, int64_t hi, bool more = false) {
    const size_t start = at_;
    int64_t v = 0;
    while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9' &&
           (more || at_ - start < (size_t)count)) {
      if (v > kMaxYear) throw error(std::string(what) + " out of range");
      v = v * 10 + (text_[at_++] - '0');
    }
    if (at_ - start < (size_t)count) {
      throw error("expected " + std::to_string(count) + " digits of the " + what);
    }
    if (v < lo || v > hi) {
      at_ = start;  // the message points at the field
      throw error("the " + std::string(what) + " " + std::to_string(v) + " is not in " +
                  std::to_string(lo) + ".." + std::to_string(hi));
    }
    return v;
  }
  // Fraction digits, scaled to `digits` of them (more are cut).
  int64_t fraction(int digits) {
    int64_t v = 0;
    int seen = 0;
    while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') {
      if (seen < digits) v = v * 10 + (text_[at_] - '0');
      ++seen;
      ++at_;
    }
    if (seen == 0) throw error("expected digits after '.'");
    for (int k = seen; k < digits; ++k) v *= 10;
    return v;
  }
  Malformed error(const std::string& why) const {
    return Malformed{why + " at character " + std::to_string(at_ + 1) + " of '" +
                     text_for_message(text_) + "'"};
  }

 private:
  std::string_view text_;
  size_t at_ = 0;
};

int64_t days_in_month(int64_t year, int64_t month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
  return month == 2 && leap ? 29 : kDays[month - 1];
}

// H. Hinnant's civil-to-days, the inverse of rt::civil_from_days.
int64_t days_from_civil(int64_t year, int64_t month, int64_t day) {
  year -= month <= 2 ? 1 : 0;
  const int64_t era = rt::floor_div(year, 400);
  const int64_t yoe = year - era * 400;
  const int64_t doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

int64_t read_date(TimeReader& in) {
  const bool negative = in.take('-');
  if (!negative) in.take('+');
  int64_t year = in.number("year", 4, 0, kMaxYear, true);
  if (negative) year = -year;
  if (!in.take('-')) throw in.error("expected '-' after the year");
  const int64_t month = in.number("month", 2, 1, 12);
  if (!in.take('-')) throw in.error("expected '-' after the month");
  const int64_t day = in.number("day", 2, 1, days_in_month(year, month));
  return days_from_civil(year, month, day);
}

template <typename Read>
ParsedTime parsed(std::string_view text, const Read& read) {
  TimeReader in(text);
  try {
    const int64_t value = read(in);
    if (!in.done()) throw in.error("unexpected text");
    return value;
  } catch (const Malformed& malformed) {
    return malformed.why;
  }
}

}  // namespace

ParsedTime parse_date_text(std::string_view text) {
  return parsed(text, [](TimeReader& in) { return read_date(in); });
}

ParsedTime parse_instant_text(std::string_view text, int digits) {
  return parsed(text, [&](TimeReader& in) {
    const int64_t per_second = (int64_t)rt::kPowersOf10[digits];
    const int64_t days = read_date(in);
    int64_t seconds = 0, fraction = 0;
    if (in.take('T') || in.take(' ')) {
      seconds = in.number("hour", 2, 0, 23) * 3600;
      if (!in.take(':')) throw in.error("expected ':' after the hour");
      seconds += in.number("minute", 2, 0, 59) * 60;
      if (in.take(':')) {
        seconds += in.number("second", 2, 0, 59);
        if (in.take('.')) fraction = in.fraction(digits);
      }
      if (!in.take('Z') && (in.next_is('+') || in.next_is('-'))) {
        const int64_t sign = in.take('-') ? -1 : (in.take('+'), 1);
        int64_t offset = in.number("offset hour", 2, 0, 23) * 3600;
        const bool colon = in.take(':');
        if (colon || !in.done()) offset += in.number("offset minute", 2, 0, 59) * 60;
        seconds -= sign * offset;
      }
    }
    int64_t value;
    if (__builtin_mul_overflow(days, 86400 * per_second, &value) ||
        __builtin_add_overflow(value, seconds * per_second + fraction, &value)) {
      throw in.error("the instant is outside the range of " +
                     std::string(digits == 3 ? "timestamp" : "timestamp_us"));
    }
    return value;
  });
}

}  // namespace polyrt
