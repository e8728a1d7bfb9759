// The shortest decimal that reads back to a double: the digits every f64
// rendering of polyrt starts from (the row writers, Display, Debug, JSON).
// Schubfach (R. Giulietti, "The Schubfach way to render doubles", 2020):
// three 128x64-bit products against one table of powers of ten, no loop
// over digits and no big integers (bench/number_text_bench.cpp compares it
// with libstdc++'s std::to_chars), and the same digits: the fewest that
// round-trip, the one nearest the double among those, ties to an even last
// digit.
#pragma once

#include <cstdint>

namespace polyrt::rt {

// A finite, nonzero, positive double x as digits * 10^exponent, digits
// without trailing zeros (1..17 digits).
struct DecimalDigits {
  uint64_t digits = 0;
  int exponent = 0;
};
DecimalDigits shortest_decimal(double x);

// std::to_chars(p, end, x)'s text of a finite x, fixed or scientific, whichever
// is shorter (fixed on a tie): "0.1", "600", "1e+22", "1.5e-07", "-0". Bound
// kF64ShortestText.
char* write_shortest_finite(char* p, double x);

}  // namespace polyrt::rt
