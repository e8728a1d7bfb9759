// Nodes the host registers (polyrt/host_nodes.hpp): called like any node on
// every engine and the batch tier (row and columnar callbacks), folded when
// pure and re-run when not, their exceptions and wrong results EvalErrors
// naming the function and the row, bad registrations refused, and plugins
// loaded by `polyrt --plugin` and load_plugin.
#include "polyrt/host_nodes.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <bit>

#include "polyrt/batch.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

std::atomic<uint64_t> impure_calls{0};

// The nodes these tests call, registered once per process (the registry is
// the process's).
void register_test_nodes() {
  static const bool done = [] {
    register_node({.name = "test_mix",
                   .inputs = {Type::U64, Type::F64, Type::Bool},
                   .result = Type::F64,
                   .row = [](std::span<const Value> in) {
                     return Value::f64((double)(in[0].as_u64() % 1000) * in[1].as_f64() +
                                       (in[2].as_bool() ? 0.5 : 0.0));
                   }});
    // The same function with a columnar form: the batch tier's chunks.
    register_node({.name = "test_mix_columns",
                   .inputs = {Type::U64, Type::F64, Type::Bool},
                   .result = Type::F64,
                   .row =
                       [](std::span<const Value> in) {
                         return Value::f64((double)(in[0].as_u64() % 1000) * in[1].as_f64() +
                                           (in[2].as_bool() ? 0.5 : 0.0));
                       },
                   .columns =
                       [](const HostChunk& c) {
                         for (uint64_t r = 0; r < c.rows; ++r) {
                           const double x = (double)(c.inputs[0].word(r) % 1000) *
                                                std::bit_cast<double>(c.inputs[1].word(r)) +
                                            (c.inputs[2].word(r) ? 0.5 : 0.0);
                           c.words[r] = std::bit_cast<uint64_t>(x);
                         }
                       }});
    register_node({.name = "test_label",
                   .inputs = {Type::Str, Type::I64},
                   .result = Type::Str,
                   .row =
                       [](std::span<const Value> in) {
                         return Value::str(in[0].as_str() + "#" + std::to_string(in[1].as_i64()));
                       },
                   .columns =
                       [](const HostChunk& c) {
                         for (uint64_t r = 0; r < c.rows; ++r) {
                           c.texts->push_back(std::string(c.inputs[0].text(r)) + "#" +
                                              std::to_string((int64_t)c.inputs[1].word(r)));
                         }
                       }});
    register_node({.name = "test_fails_at_7",
                   .inputs = {Type::U64},
                   .result = Type::U64,
                   .row =
                       [](std::span<const Value> in) {
                         if (in[0].as_u64() == 7) throw std::runtime_error("seven is refused");
                         return Value::u64(in[0].as_u64() + 1);
                       },
                   .columns =
                       [](const HostChunk& c) {
                         for (uint64_t r = 0; r < c.rows; ++r) {
                           if (c.inputs[0].word(r) == 7) throw std::runtime_error("seven");
                           c.words[r] = c.inputs[0].word(r) + 1;
                         }
                       }});
    register_node({.name = "test_wrong_type",
                   .inputs = {Type::U64},
                   .result = Type::U64,
                   .row = [](std::span<const Value>) { return Value::str("text"); }});
    register_node({.name = "test_impure",
                   .inputs = {},
                   .result = Type::U64,
                   .pure = false,
                   .row = [](std::span<const Value>) { return Value::u64(++impure_calls); }});
    return true;
  }();
  (void)done;
}

TEST(HostNodes, TheyComputeOnEveryEngineAndTheBatchTier) {
  register_test_nodes();
  const std::string p = R"p(input x
h := hash(x)
a := test_mix(h, 0.25, h % 2 == 0)
b := test_mix_columns(h, 0.25, h % 2 == 0)
l := test_label("row", 0 - (x % 5) as i64)
folded := test_mix(1001, 2.0, 1 == 1)
)p";
  for (uint64_t x : {0ull, 1ull, 99ull}) {
    const std::vector<std::string> got = values_everywhere(p, x, {"a", "b", "l", "folded"});
    EXPECT_EQ(got[0], got[1]);
    EXPECT_EQ(got[2], std::string(x % 5 ? "str row#-" : "str row#") + std::to_string(x % 5));
    EXPECT_EQ(got[3], "f64 2.5");
  }
  BatchOptions options;
  options.outputs = {"a", "b", "l"};
  options.chunk_rows = 1000;
  const auto columns = BatchEvaluator(compile(p), options).evaluate(0, 3000);
  State state = compile(p, CompileOptions{.engine = Engine::Interpreter})->new_state();
  for (uint64_t r = 0; r < 3000; ++r) {
    state.set_inputs({r});
    ASSERT_EQ(columns[0].words[r], std::bit_cast<uint64_t>(state.pull("a").as_f64())) << r;
    ASSERT_EQ(columns[1].words[r], columns[0].words[r]) << r;
    ASSERT_EQ(columns[2].text(r), state.pull("l").as_str()) << r;
  }
}

TEST(HostNodes, FailuresNameTheFunctionAndTheRow) {
  register_test_nodes();
  const auto program = compile("input x\nv := test_fails_at_7(x)\nw := test_wrong_type(x)\n");
  State s = program->new_state();
  s.set_inputs({7});
  const std::string message = thrown_message<EvalError>([&] { s.pull("v"); });
  expect_contains(message,
                  {"host function 'test_fails_at_7' threw: seven is refused", "inputs: 7"});
  expect_contains(thrown_message<EvalError>([&] { s.pull("w"); }),
                  {"host function 'test_wrong_type' returned str, not the u64 it was registered "
                   "with"});
  // The batch tier: the columnar form throws, the chunk runs row by row and
  // the first failing row is the one reported.
  BatchOptions options;
  options.outputs = {"v"};
  options.chunk_rows = 100;
  expect_contains(
      thrown_message<EvalError>([&] { BatchEvaluator(program, options).evaluate(0, 1000); }),
      {"host function 'test_fails_at_7' threw: seven is refused", "coordinates: x=7"});
}

TEST(HostNodes, ImpureNodesAreReRunOnEveryWrite) {
  register_test_nodes();
  State s = compile("input x\nv := test_impure()\n")->new_state();
  s.set_inputs({1});
  const uint64_t first = s.pull("v").as_u64();
  s.set_inputs({1});
  EXPECT_EQ(s.pull("v").as_u64(), first + 1);
}

TEST(HostNodes, BadRegistrationsAreRefused) {
  register_test_nodes();
  const auto refused = [](HostNode node) {
    return thrown_message<RegistrationError>([&] { register_node(std::move(node)); });
  };
  const auto row = [](std::span<const Value>) { return Value::u64(0); };
  expect_contains(refused({.name = "test_mix", .result = Type::U64, .row = row}),
                  {"a node named 'test_mix' is already registered by the host"});
  expect_contains(refused({.name = "hash", .result = Type::U64, .row = row}),
                  {"a node named 'hash' is already polyrt's"});
  expect_contains(refused({.name = "2bad", .result = Type::U64, .row = row}),
                  {"must be an identifier", "'2bad'"});
  expect_contains(refused({.name = "__mine", .result = Type::U64, .row = row}), {"reserved"});
  // Words of the language and the standard library's module names (a node
  // takes a call before a module does): they once registered.
  for (const char* word : {"if", "for", "range", "input", "true"}) {
    expect_contains(refused({.name = word, .result = Type::U64, .row = row}),
                    {"is a word of the language, which no node may take"});
  }
  expect_contains(refused({.name = "hashed_id", .result = Type::U64, .row = row}),
                  {"the standard library has a module named 'hashed_id' (identity.polydat)"});
  expect_contains(refused({.name = "test_no_row", .result = Type::U64}), {"has no row callback"});
  expect_contains(
      refused({.name = "test_bytes", .inputs = {Type::Bytes}, .result = Type::U64, .row = row}),
      {"an input cannot be bytes (valid: u64, i64, f64, bool, str)"});
  // A program's wrong call is a CompileError with the signature.
  expect_contains(compile_error("input x\nv := test_mix(x)\n"), {"test_mix"});
  expect_contains(compile_error("input x\nv := test_label(x, 1)\n"), {"test_label"});
}

TEST(HostNodes, PluginsRegisterForTheCommandAndTheProcess) {
  const std::string dir = temp_dir();
  const std::string program = write_program(dir, "p.polydat", R"p(input cycle: u64
c := host_checksum(cycle, hash(cycle))
t := host_tag("job", mod(c, 10000))
)p");
  // polydat's embedding guide documents these values at cycles 1 and 2.
  const CommandResult run = run_polyrt("run " + program + " --cycles 1..3 --plugin " +
                                       std::string(POLYRT_TEST_PLUGIN) + " --format csv");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, "c,t\n11416446865527871317,job-1317\n16311599965266896870,job-6870\n");
  const CommandResult without = run_polyrt("check " + program);
  EXPECT_NE(without.status, 0);
  expect_contains(
      without.err,
      {"unknown function 'host_checksum'",
       "a node the host registers needs its plugin (--plugin LIB; polyrt::load_plugin in C++)"});
  const CommandResult missing = run_polyrt("check " + program + " --plugin " + dir + "/none.so");
  EXPECT_EQ(missing.status, 2) << missing.err;
  const std::string cannot = "--plugin: cannot load plugin '" + dir + "/none.so'";
  expect_contains(missing.err, {cannot.c_str()});
  const CommandResult throwing =
      run_polyrt("check " + program + " --plugin " + std::string(POLYRT_TEST_THROWING_PLUGIN));
  EXPECT_EQ(throwing.status, 2) << throwing.err;
  expect_contains(throwing.err, {"failed to register its nodes: it threw something that is not a "
                                 "std::exception"});
  load_plugin(POLYRT_TEST_PLUGIN);
  EXPECT_TRUE(is_host_node("host_tag"));
  State s = compile_file(program)->new_state();
  s.set_inputs({2});
  EXPECT_EQ(s.pull("t").as_str(), "job-6870");
}

}  // namespace
}  // namespace polyrt::test
