// The batch tier: columns equal the per-state values, chunking and threads do
// not matter, failures are the per-state EvalError of the smallest failing
// coordinate, None columns, extreme ranges, and the API's refusals.
#include "polyrt/batch.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <limits>
#include <thread>

#include "bench/ladder_baseline.hpp"
#include "bench/ladder_columns_baseline.hpp"
#include "plan/batch_plan.hpp"
#include "program/program_internals.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

TEST(Batch, LadderMatchesTheHandWrittenBaseline) {
  auto program = compile_file(bench::kLadderFile);
  for (uint64_t chunk : {1000ull, 16384ull}) {
    BatchOptions options;
    options.outputs = {"account_id", "shard", "payload_class", "event_token"};
    options.coordinates = {0, 77, 5};
    options.chunk_rows = chunk;
    options.threads = 2;
    BatchEvaluator batch(program, options);
    const uint64_t first = (1ull << 32) - 5000;  // crosses 2^32
    const auto columns = batch.evaluate(first, 20000);
    ASSERT_EQ(columns.size(), 4u);
    for (uint64_t r = 0; r < 20000; ++r) {
      const bench::LadderOutputs want = bench::ladder_baseline(first + r, 77, 5);
      ASSERT_EQ(columns[0].words[r], want.account_id) << r;
      ASSERT_EQ(columns[1].words[r], want.shard) << r;
      ASSERT_EQ(columns[2].words[r], want.payload_class) << r;
      ASSERT_EQ(columns[3].words[r], want.event_token) << r;
    }
  }
}

TEST(Batch, LadderMatchesTheHandWrittenColumnLoop) {
  BatchOptions options;
  options.outputs = {"account_id", "shard", "payload_class", "event_token"};
  options.coordinates = {0, 3, 11};
  BatchEvaluator batch(compile_file(bench::kLadderFile), options);
  const uint64_t rows = 50000, first = 123456789;
  std::vector<uint64_t> want[4], got[4];
  for (auto& v : want) v.resize(rows);
  for (auto& v : got) v.resize(rows);
  bench::ladder_columns(first, rows, 3, 11, want[0].data(), want[1].data(), want[2].data(),
                        want[3].data());
  uint64_t* dest[] = {got[0].data(), got[1].data(), got[2].data(), got[3].data()};
  batch.evaluate_into(first, rows, dest);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(got[k], want[k]) << options.outputs[k];
}

// Strings, an unset extern, a None-aware node, a failing node and f64 math,
// compared coordinate by coordinate with the interpreter.
const char* kMixed = R"(input x: u64
input y: u64
extern unset: u64
extern scale: f64 = 2.5
h := hash(x + y)
name := "n-{h % 1000}"
gone := unset + 1
kept := this_or(unset, h % 7)
ratio := unit_interval(h) * scale
checked := in_range(h % 100, 0, 98)
)";

TEST(Batch, MixedProgramMatchesTheInterpreter) {
  CompileOptions interp;
  interp.engine = Engine::Interpreter;
  auto oracle = compile(kMixed, interp);
  auto program = compile(kMixed);
  BatchOptions options;
  options.coordinates = {0, 9};
  options.outputs = {"name", "gone", "kept", "ratio", "h"};
  options.chunk_rows = 333;
  BatchEvaluator batch(program, options);
  const auto columns = batch.evaluate(1000, 3000);
  State s = oracle->new_state();
  for (uint64_t r = 0; r < 3000; ++r) {
    s.set_inputs({1000 + r, 9});
    ASSERT_EQ(columns[0].text(r), s.pull("name").as_str());
    EXPECT_TRUE(s.pull("gone").is_none());
    ASSERT_EQ(columns[2].words[r], s.pull("kept").as_u64());
    ASSERT_EQ(std::bit_cast<uint64_t>(s.pull("ratio").as_f64()), columns[3].words[r]);
  }
  EXPECT_TRUE(columns[1].is_none);
}

// Aliases (`b := a`) are no step: the kernel around them stays one kernel,
// and every alias column holds what it passes through.
TEST(Batch, AliasesCostNothingAndNeverSplitAKernel) {
  const char* source =
      "input x\na := hash(x)\nb := a\nc := b\nd := hash(c) % 100\ns := format_u64(d, 10)\n"
      "t := s\nlane := x\nk := 5\nk2 := k\n";
  auto program = compile(source);
  const plan::BatchPlan p = plan::plan_batch(ProgramInternals::graph(*program), [&] {
    plan::BatchShape shape;
    shape.coordinates = {plan::CoordinateSource::Lane};
    for (uint32_t o = 0; o < program->output_names().size(); ++o) shape.outputs.push_back(o);
    return shape;
  }());
  ASSERT_EQ(p.steps.size(), 2u) << plan::describe_batch_plan(ProgramInternals::graph(*program), p);
  EXPECT_EQ(p.steps[0].kind, plan::BatchStep::Kernel);
  EXPECT_EQ(p.steps[0].nodes.size(), 3u);  // hash, hash, u64_mod: not split by b and c
  EXPECT_EQ(p.steps[1].kind, plan::BatchStep::Host);

  CompileOptions interp;
  interp.engine = Engine::Interpreter;
  State s = compile(source, interp)->new_state();
  const std::vector<Column> columns = BatchEvaluator(program, {}).evaluate(7, 500);
  for (uint64_t r = 0; r < 500; ++r) {
    s.set_inputs({7 + r});
    for (size_t o = 0; o < columns.size(); ++o) {
      const Value v = s.pull(columns[o].name);
      if (v.type() == Type::Str) {
        ASSERT_EQ(columns[o].text(r), v.as_str()) << columns[o].name;
      } else {
        ASSERT_EQ(columns[o].words[r], word_of(v)) << columns[o].name;
      }
    }
  }
}

TEST(Batch, FailureIsTheInterpretersErrorAtTheSmallestCoordinate) {
  CompileOptions interp;
  interp.engine = Engine::Interpreter;
  auto oracle = compile(kMixed, interp);
  State s = oracle->new_state();
  std::string want;
  for (uint64_t x = 0; want.empty(); ++x) {
    s.set_inputs({x, 9});
    try {
      s.pull("checked");
    } catch (const EvalError& e) {
      want = e.what();
    }
  }
  for (size_t threads : {1, 2}) {
    BatchOptions options;
    options.coordinates = {0, 9};
    options.outputs = {"h", "checked"};
    options.chunk_rows = 7;
    options.threads = threads;
    BatchEvaluator batch(compile(kMixed), options);
    uint64_t delivered = 0;
    try {
      batch.stream(0, 100000, [&](const ColumnChunk& c) { delivered += c.rows; });
      FAIL() << "no failure";
    } catch (const EvalError& e) {
      EXPECT_EQ(std::string(e.what()), want);
    }
    EXPECT_GT(delivered + 7, 0u);
  }
}

// A coordinate given per row as a column, next to the iterated one.
TEST(Batch, ColumnCoordinatesMatchTheInterpreter) {
  const char* source =
      "input x: u64\ninput y: u64\ninput z: u64\nv := hash(x * 3 + y) ^ z\n"
      "s := \"{y}:{v % 10}\"\n";
  CompileOptions interp;
  interp.engine = Engine::Interpreter;
  State oracle = compile(source, interp)->new_state();
  BatchOptions options;
  options.coordinates = {0, 0, 42};
  options.column_coordinates = {1};
  options.chunk_rows = 100;
  BatchEvaluator batch(compile(source), options);
  std::vector<uint64_t> ys(1000);
  for (size_t r = 0; r < ys.size(); ++r) ys[r] = r * r % 17;
  const uint64_t* columns[] = {ys.data()};
  const auto out = batch.evaluate(500, 1000, columns);
  for (uint64_t r = 0; r < 1000; ++r) {
    oracle.set_inputs({500 + r, ys[r], 42});
    ASSERT_EQ(out[0].words[r], oracle.pull("v").as_u64()) << r;
    ASSERT_EQ(out[1].text(r), oracle.pull("s").as_str()) << r;
  }
  EXPECT_THROW(batch.evaluate(0, 10), WriteError);  // the y column is missing
  options.column_coordinates = {0};                 // the iterated one
  EXPECT_THROW(BatchEvaluator(compile(source), options), WriteError);
}

// Kernel outputs land in the caller's arrays directly; lane, scalar and
// repeated outputs are copied there.
TEST(Batch, EvaluateIntoEveryKindOfOutput) {
  auto program = compile(
      "input x: u64\nextern k: u64 = 5\nsame := x\nfixed := k * 3\n"
      "h := hash(x + k)\n");
  BatchOptions options;
  options.outputs = {"h", "same", "fixed", "h"};
  options.chunk_rows = 64;
  BatchEvaluator batch(program, options);
  const uint64_t rows = 1000;
  std::vector<uint64_t> out[4];
  for (auto& v : out) v.assign(rows, 7);
  uint64_t* dest[] = {out[0].data(), out[1].data(), out[2].data(), out[3].data()};
  batch.evaluate_into(100, rows, dest);
  State s = program->new_state();
  for (uint64_t r = 0; r < rows; ++r) {
    s.set_inputs({100 + r});
    ASSERT_EQ(out[0][r], s.pull("h").as_u64());
    ASSERT_EQ(out[1][r], 100 + r);
    ASSERT_EQ(out[2][r], 15u);
    ASSERT_EQ(out[3][r], out[0][r]);
  }
}

TEST(Batch, AConsumerThatThrowsStopsTheRunAndTheEvaluatorStaysUsable) {
  BatchOptions options;
  options.chunk_rows = 10;
  options.threads = 2;
  BatchEvaluator batch(compile("input x: u64\nh := hash(x)\n"), options);
  size_t chunks = 0;
  EXPECT_THROW(batch.stream(0, 100000,
                            [&](const ColumnChunk&) {
                              if (++chunks == 3) throw std::runtime_error("enough");
                            }),
               std::runtime_error);
  EXPECT_EQ(chunks, 3u);
  EXPECT_EQ(batch.evaluate(5, 3)[0].words.size(), 3u);
}

// Another thread raises BatchOptions::stop: the call in progress ends soon
// with StoppedError, and once the flag is lowered the evaluator runs again.
TEST(Batch, TheStopFlagEndsACallFromAnotherThread) {
  std::atomic<bool> stop{false};
  BatchOptions options;
  options.threads = 2;
  options.stop = &stop;
  BatchEvaluator batch(compile("input x: u64\nh := hash(hash(x))\n"), options);
  std::vector<uint64_t> out(1 << 20);
  uint64_t* into[] = {out.data()};
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    stop = true;
  });
  const auto began = std::chrono::steady_clock::now();
  EXPECT_THROW(
      for (uint64_t first = 0;; first += out.size()) batch.evaluate_into(first, out.size(), into),
      StoppedError);
  stopper.join();
  EXPECT_LT(std::chrono::steady_clock::now() - began, std::chrono::seconds(2));
  EXPECT_THROW(batch.evaluate(0, 100000), StoppedError);  // still raised
  stop = false;
  EXPECT_EQ(batch.evaluate(0, 100000)[0].words.size(), 100000u);
}

TEST(Batch, LastCoordinateIsTwoToTheSixtyFourMinusOne) {
  auto program = compile("input x: u64\nnext := x + 1\nsame := x\n");
  BatchOptions options;
  BatchEvaluator batch(program, options);
  const uint64_t max = std::numeric_limits<uint64_t>::max();
  const auto columns = batch.evaluate(max - 99, 100);
  ASSERT_EQ(columns[0].words.size(), 100u);
  EXPECT_EQ(columns[0].words[99], 0u);  // wraps
  EXPECT_EQ(columns[1].words[99], max);
  // Rows past the last coordinate would wrap to 0: refused, on every call.
  std::vector<uint64_t> a(101), b(101);
  uint64_t* into[] = {a.data(), b.data()};
  for (const auto& call : std::vector<std::function<void()>>{
           [&] { batch.evaluate(max - 99, 101); },
           [&] { batch.evaluate_into(max - 99, 101, into); },
           [&] { batch.stream(max, 2, [](const ColumnChunk&) {}); }}) {
    test::expect_contains(test::thrown_message<WriteError>(call),
                          {"pass the last coordinate 2**64 - 1"});
  }
  // A range whose columns cannot fit in memory is refused before allocating.
  test::expect_contains(
      test::thrown_message<WriteError>([&] { batch.evaluate(0, uint64_t{1} << 61); }),
      {"BatchEvaluator::evaluate(0, 2305843009213693952)", "more than 2**64 bytes"});
  test::expect_contains(
      test::thrown_message<WriteError>([&] { batch.evaluate(0, uint64_t{1} << 58); }),
      {"more than this machine's memory"});
}

TEST(Batch, Refusals) {
  auto program = compile("input x: u64\ns := \"v{x}\"\nlog := log_info(s)\nn := x * 2\n");
  BatchOptions options;
  options.outputs = {"log"};
  EXPECT_THROW(BatchEvaluator(program, options), RefusedError);
  options.outputs = {"nope"};
  EXPECT_THROW(BatchEvaluator(program, options), WriteError);
  options.outputs = {"s", "n"};
  BatchEvaluator batch(program, options);
  std::vector<uint64_t> a(10), b(10);
  uint64_t* dest[] = {a.data(), b.data()};
  EXPECT_THROW(batch.evaluate_into(0, 10, dest), WriteError);
  options.outputs = {"n"};
  BatchEvaluator scalar(program, options);
  scalar.evaluate_into(5, 10, std::span<uint64_t* const>(dest, 1));
  EXPECT_EQ(a[3], 16u);
}

}  // namespace
}  // namespace polyrt::test
