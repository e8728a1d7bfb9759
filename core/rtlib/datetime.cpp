// Calendar arithmetic on epoch milliseconds (proleptic Gregorian, UTC, no
// leap seconds), in constant time for every u64: H. Hinnant's days-to-civil
// algorithm, counting 400-year eras from 0000-03-01 so that the leap day
// ends each era's year.
#include "rtlib.h"

PD_API void pd_date_components(uint64_t epoch_ms, uint64_t* out) {
  const uint64_t millis = epoch_ms % 1000;
  uint64_t rest = epoch_ms / 1000;
  const uint64_t second = rest % 60;
  rest /= 60;
  const uint64_t minute = rest % 60;
  rest /= 60;
  const uint64_t hour = rest % 24;
  const uint64_t z = rest / 24 + 719468;  // days since 0000-03-01
  const uint64_t era = z / 146097;
  const uint64_t doe = z - era * 146097;                                       // [0, 146096]
  const uint64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;  // [0, 399]
  const uint64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);  // [0, 365] from March 1
  const uint64_t mp = (5 * doy + 2) / 153;                       // March = 0
  const uint64_t day = doy - (153 * mp + 2) / 5 + 1;
  const uint64_t month = mp < 10 ? mp + 3 : mp - 9;
  out[0] = yoe + era * 400 + (month <= 2 ? 1 : 0);
  out[1] = month;
  out[2] = day;
  out[3] = hour;
  out[4] = minute;
  out[5] = second;
  out[6] = millis;
}
