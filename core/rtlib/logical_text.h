// The text of the logical types' words (polyrt/logical_type.hpp),
// freestanding (see text_writers.h): the row writers and the `as str`
// conversion write these bytes from this one source. Dates are proleptic
// Gregorian, times UTC without leap seconds, as Arrow and Parquet count them.
#pragma once

#include "pd_rt.h"
#include "text_writers.h"

namespace polyrt::rt {

// Room for any logical value's text: a sign, the 9 year digits of i64
// milliseconds, "-MM-DDThh:mm:ss.uuuuuuZ"; a decimal's sign, 19 digits and
// point.
inline constexpr __SIZE_TYPE__ kLogicalText = 48;

inline constexpr int64_t kMillisPerDay = 86400000;
inline constexpr int64_t kMicrosPerDay = 86400000000;

// a / b rounded toward negative infinity (b > 0): the day of a time before
// 1970 is the one that contains it.
inline int64_t floor_div(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return q - (a % b < 0 ? 1 : 0);
}

// H. Hinnant's days-to-civil over signed days, counting 400-year eras from
// 0000-03-01 so that the leap day ends each era's year.
inline void civil_from_days(int64_t days, int64_t* year, uint64_t* month, uint64_t* day) {
  const int64_t z = days + 719468;
  const int64_t era = floor_div(z, 146097);
  const uint64_t doe = (uint64_t)(z - era * 146097);                           // [0, 146096]
  const uint64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;  // [0, 399]
  const uint64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);                // from March 1
  const uint64_t mp = (5 * doy + 2) / 153;                                     // March = 0
  *day = doy - (153 * mp + 2) / 5 + 1;
  *month = mp < 10 ? mp + 3 : mp - 9;
  *year = (int64_t)yoe + era * 400 + (*month <= 2 ? 1 : 0);
}

// "YYYY-MM-DD"; a year before 0 or after 9999 with its sign and at least 4
// digits (ISO 8601's expanded years).
inline char* write_date(char* p, int64_t days) {
  int64_t year;
  uint64_t month, day;
  civil_from_days(days, &year, &month, &day);
  if (year < 0 || year > 9999) *p++ = year < 0 ? '-' : '+';
  p = write_u64_zero_pad(p, year < 0 ? (uint64_t)(-year) : (uint64_t)year, 4);
  *p++ = '-';
  p = write_u64_zero_pad(p, month, 2);
  *p++ = '-';
  return write_u64_zero_pad(p, day, 2);
}

// An instant `t` in units of 10^-digits seconds (3: milliseconds, 6:
// microseconds) as "YYYY-MM-DDThh:mm:ss.fffZ" with `digits` decimals.
inline char* write_instant(char* p, int64_t t, int digits) {
  const int64_t per_second = (int64_t)kPowersOf10[digits];
  const int64_t per_day = 86400 * per_second;
  const int64_t days = floor_div(t, per_day);
  const uint64_t in_day = (uint64_t)(t - days * per_day);
  const uint64_t seconds = in_day / (uint64_t)per_second;
  p = write_date(p, days);
  *p++ = 'T';
  p = write_u64_zero_pad(p, seconds / 3600, 2);
  *p++ = ':';
  p = write_u64_zero_pad(p, seconds / 60 % 60, 2);
  *p++ = ':';
  p = write_u64_zero_pad(p, seconds % 60, 2);
  *p++ = '.';
  p = write_u64_zero_pad(p, in_day % (uint64_t)per_second, (uint64_t)digits);
  *p++ = 'Z';
  return p;
}

// A decimal of unscaled value n and `scale` decimals: "-12.50", "7" at scale 0.
inline char* write_decimal(char* p, int64_t n, int scale) {
  if (n < 0) *p++ = '-';
  const uint64_t magnitude = n < 0 ? 0 - (uint64_t)n : (uint64_t)n;
  const uint64_t unit = kPowersOf10[scale];
  p = write_u64(p, magnitude / unit);
  if (scale == 0) return p;
  *p++ = '.';
  return write_u64_zero_pad(p, magnitude % unit, (uint64_t)scale);
}

}  // namespace polyrt::rt
