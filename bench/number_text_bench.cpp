// The row writers' number text against the standard library, in one run:
// the shortest round-trip text of f64 scores (doubles in [300, 900), as
// examples/users.polydat writes them) by rt::write_shortest_finite and by
// std::to_chars, u64 decimals of every length by rt::write_u64 and
// std::to_chars, and fixed decimals past the 128-bit path (6 decimals of
// values from 1e13 to 1e30, 12 of scores) by rt::write_f64_fixed's limbs and
// std::to_chars. Both produce the same bytes (tests/shortest_double_test.cpp,
// Nodes.DecimalWriterMatchesToChars, Nodes.FixedDecimalsEqualToChars);
// compare items_per_second.
#include <benchmark/benchmark.h>

#include <charconv>
#include <cmath>
#include <random>
#include <vector>

#include "rtlib/shortest_double.hpp"
#include "rtlib/text.hpp"

namespace polyrt::bench {
namespace {

constexpr size_t kValues = 1 << 16;

const std::vector<double>& scores() {
  static const std::vector<double> values = [] {
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> score(300.0, 900.0);
    std::vector<double> v(kValues);
    for (double& x : v) x = score(rng);
    return v;
  }();
  return values;
}

const std::vector<uint64_t>& decimals() {
  static const std::vector<uint64_t> values = [] {
    std::mt19937_64 rng(2);
    std::vector<uint64_t> v(kValues);
    for (uint64_t& x : v) x = rng() >> (rng() % 64);  // every length
    return v;
  }();
  return values;
}

const std::vector<double>& large() {
  static const std::vector<double> values = [] {
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> exponent(13.0, 30.0);
    std::vector<double> v(kValues);
    for (double& x : v) x = std::pow(10.0, exponent(rng));
    return v;
  }();
  return values;
}

template <typename Write, typename Values>
void write_all(benchmark::State& st, const Values& values, const Write& write) {
  char buf[64];
  for (auto _ : st) {
    for (const auto x : values) {
      char* end = write(buf, x);
      benchmark::DoNotOptimize(end);
    }
    benchmark::ClobberMemory();
  }
  st.SetItemsProcessed(st.iterations() * (int64_t)values.size());
}

void BM_F64Shortest_Schubfach(benchmark::State& st) {
  write_all(st, scores(), [](char* p, double x) { return rt::write_shortest_finite(p, x); });
}
void BM_F64Shortest_ToChars(benchmark::State& st) {
  write_all(st, scores(), [](char* p, double x) { return std::to_chars(p, p + 64, x).ptr; });
}
void BM_U64Decimal_Lanes(benchmark::State& st) {
  write_all(st, decimals(), [](char* p, uint64_t x) { return rt::write_u64(p, x); });
}
void BM_U64Decimal_ToChars(benchmark::State& st) {
  write_all(st, decimals(), [](char* p, uint64_t x) { return std::to_chars(p, p + 64, x).ptr; });
}

void BM_F64Fixed_Limbs(benchmark::State& st) {
  write_all(st, large(), [](char* p, double x) { return rt::write_f64_fixed(p, x, 6); });
}
void BM_F64Fixed_ToChars(benchmark::State& st) {
  write_all(st, large(), [](char* p, double x) {
    return std::to_chars(p, p + 64, x, std::chars_format::fixed, 6).ptr;
  });
}
void BM_F64Fixed12_Limbs(benchmark::State& st) {
  write_all(st, scores(), [](char* p, double x) { return rt::write_f64_fixed(p, x, 12); });
}
void BM_F64Fixed12_ToChars(benchmark::State& st) {
  write_all(st, scores(), [](char* p, double x) {
    return std::to_chars(p, p + 64, x, std::chars_format::fixed, 12).ptr;
  });
}

BENCHMARK(BM_F64Shortest_Schubfach);
BENCHMARK(BM_F64Shortest_ToChars);
BENCHMARK(BM_U64Decimal_Lanes);
BENCHMARK(BM_U64Decimal_ToChars);
BENCHMARK(BM_F64Fixed_Limbs);
BENCHMARK(BM_F64Fixed_ToChars);
BENCHMARK(BM_F64Fixed12_Limbs);
BENCHMARK(BM_F64Fixed12_ToChars);

}  // namespace
}  // namespace polyrt::bench
