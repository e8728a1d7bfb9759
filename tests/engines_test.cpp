// Every engine and provenance mode on the ladder graph, the engine names,
// state cloning, pull_word and the plan's shape.
#include <gtest/gtest.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <optional>

#include "bench/ladder_baseline.hpp"
#include "plan/state_plan.hpp"
#include "program/program_internals.hpp"
#include "rtlib/rtlib.h"
#include "slots/slot_program.hpp"
#include "tests/differential/differential.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

using Config = difftest::EngineConfig;

// The differential test's engines, plus Auto (three inputs: the selector picks PushPull).
const std::vector<Config> kConfigs = [] {
  std::vector<Config> configs(std::begin(difftest::kEngineConfigs),
                              std::end(difftest::kEngineConfigs));
  configs.push_back({Engine::Native, Provenance::Auto, "native (PushPull)"});
  return configs;
}();

CompileOptions options_for(const Config& c) {
  CompileOptions o;
  o.engine = c.engine;
  o.provenance = c.provenance;
  return o;
}

std::shared_ptr<const Program> ladder(const Config& c) {
  return compile_file(bench::kLadderFile, options_for(c));
}

TEST(Engines, LadderMatchesTheHandWrittenBaselineOnEveryEngine) {
  for (const Config& c : kConfigs) {
    auto p = ladder(c);
    State s = p->new_state();
    EXPECT_EQ(s.engine(), c.name);
    const size_t token = s.output_index("event_token");
    for (uint64_t cycle = 0; cycle < 2000; ++cycle) {
      const uint64_t tenant = cycle % 3, op = cycle % 5;  // fixed inputs change sometimes
      s.set_inputs({cycle, tenant, op});
      const bench::LadderOutputs want = bench::ladder_baseline(cycle, tenant, op);
      ASSERT_EQ(s.pull("account_id").as_u64(), want.account_id) << c.name;
      ASSERT_EQ(s.pull("shard").as_u64(), want.shard) << c.name;
      ASSERT_EQ(s.pull_word(s.output_index("payload_class")), want.payload_class) << c.name;
      ASSERT_EQ(s.pull_word(token), want.event_token) << c.name;
    }
  }
}

// State::request is set_inputs and one pull_word per output, in one call,
// on every engine and mode (native Raw states run the fused entry); what
// it leaves is current for later pulls.
TEST(Engines, RequestsAreSetInputsAndPulls) {
  for (const Config& c : kConfigs) {
    auto p = ladder(c);
    State s = p->new_state();
    const size_t outputs[] = {s.output_index("account_id"), s.output_index("shard"),
                              s.output_index("payload_class"), s.output_index("event_token")};
    uint64_t words[4];
    for (uint64_t cycle = 0; cycle < 500; ++cycle) {
      const uint64_t coordinates[] = {cycle, cycle % 3, 5};
      s.request(coordinates, outputs, words);
      const bench::LadderOutputs want = bench::ladder_baseline(cycle, cycle % 3, 5);
      ASSERT_EQ(words[0], want.account_id) << c.name;
      ASSERT_EQ(words[3], want.event_token) << c.name;
      ASSERT_EQ(s.pull_word(outputs[1]), want.shard) << c.name;
      // A request for fewer outputs (whose cones need not take every step).
      const size_t one[] = {outputs[2]};
      s.request(coordinates, one, std::span<uint64_t>(words, 1));
      ASSERT_EQ(words[0], want.payload_class) << c.name;
    }
  }
  CompileOptions raw;
  raw.engine = Engine::Native;
  raw.provenance = Provenance::Raw;
  EXPECT_NE(ProgramInternals::slot_program(*ladder({Engine::Native, Provenance::Raw, ""}))->request,
            nullptr);
  // Failures (in_range fails for 8 and 9) and refusals, against the interpreter.
  const std::string source =
      "input x: u64\ninput y: u64\nlabel := \"fixed\"\n"
      "h := hash(x + y)\nq := in_range(mod(h, 10), 0, 7)\nr := unit_interval(h) * 2.0\n";
  CompileOptions reference;
  reference.engine = Engine::Interpreter;
  auto oracle = compile(source, reference);
  for (Engine engine : {Engine::Closures, Engine::Native}) {
    for (Provenance mode : {Provenance::Raw, Provenance::Pull, Provenance::PushPull}) {
      raw.engine = engine;
      raw.provenance = mode;
      auto program = compile(source, raw);
      const bool fused = engine == Engine::Native;  // in every mode
      EXPECT_EQ(ProgramInternals::slot_program(*program)->request != nullptr, fused);
      State a = program->new_state(), b = oracle->new_state();
      const size_t asked[] = {a.output_index("r"), a.output_index("q")};
      size_t failures = 0;
      for (uint64_t x = 0; x < 200; ++x) {
        const uint64_t coordinates[] = {x, 1};
        uint64_t got[2] = {0, 0}, want[2] = {0, 0};
        const std::string error =
            thrown_message<EvalError>([&] { a.request(coordinates, asked, got); });
        b.set_inputs(coordinates);
        const std::string expected = thrown_message<EvalError>([&] {
          want[0] = b.pull_word(asked[0]);
          want[1] = b.pull_word(asked[1]);
        });
        ASSERT_EQ(error, expected) << "x=" << x;
        failures += error != "(nothing thrown)";
        if (error == "(nothing thrown)") {
          ASSERT_EQ(got[0], want[0]);
          ASSERT_EQ(got[1], want[1]);
          // The state after a request (fused or not): its other outputs
          // are the request's coordinates' own.
          ASSERT_EQ(a.pull_word(a.output_index("h")), b.pull_word(b.output_index("h")));
        }
      }
      EXPECT_GT(failures, 10u) << "in_range's failure must be exercised";
      uint64_t word = 0;
      const uint64_t coordinates[] = {1, 2};
      const size_t label[] = {a.output_index("label")};
      EXPECT_THROW(a.request(coordinates, label, std::span<uint64_t>(&word, 1)), WriteError);
      EXPECT_THROW(a.request(coordinates, asked, std::span<uint64_t>(&word, 1)), WriteError);
      EXPECT_THROW(a.request(std::span<const uint64_t>(coordinates, 1), label,
                             std::span<uint64_t>(&word, 1)),
                   WriteError);
      State moved = std::move(a);
      EXPECT_THROW(a.request(coordinates, label, std::span<uint64_t>(&word, 1)), WriteError);
    }
  }
}

// A request loop's later requests run the fused entry from State::request
// itself (the armed request): every write, extern, invalidation, clone, move
// and change of the list in between must still be seen, on every engine.
TEST(Engines, RequestLoopsSeeEveryWriteBetweenThem) {
  const std::string source =
      "input x\ninput y\nextern e: u64 = 3\nh := hash(x + y)\nm := mod(h, 100)\nk := h + e\n";
  auto oracle_program = compile(source, options_for({Engine::Interpreter, Provenance::Auto, ""}));
  for (const Config& c : kConfigs) {
    State s = compile(source, options_for(c))->new_state();
    State oracle = oracle_program->new_state();
    size_t list[] = {s.output_index("h"), s.output_index("m"), s.output_index("k")};
    // A request of `list` at (x, y), against the oracle's set_inputs and pulls.
    auto expect_request = [&](State& state, uint64_t x, uint64_t y) {
      const uint64_t coordinates[] = {x, y};
      uint64_t words[3];
      state.request(coordinates, list, words);
      oracle.set_inputs(coordinates);
      for (size_t i = 0; i < 3; ++i) {
        ASSERT_EQ(words[i], oracle.pull_word(list[i])) << c.name << " x=" << x << " output " << i;
      }
    };
    auto expect_current = [&](State& state) {
      for (size_t o : list) ASSERT_EQ(state.pull_word(o), oracle.pull_word(o)) << c.name;
    };
    for (uint64_t x = 0; x < 50; ++x) expect_request(s, x, 7);
    expect_current(s);
    s.set_inputs({100, 7});
    oracle.set_inputs({100, 7});
    expect_current(s);
    expect_request(s, 100, 7);  // what was just written
    expect_request(s, 101, 7);
    s.set_input("e", Value::u64(9));
    oracle.set_input("e", Value::u64(9));
    expect_request(s, 101, 7);  // same coordinates, another extern
    expect_request(s, 102, 7);
    // An extern set to None: k is None, which a request refuses as a pull does.
    s.set_input("e", Value::none());
    oracle.set_input("e", Value::none());
    for (uint64_t x : {102, 103}) {
      const uint64_t coordinates[] = {x, 7};
      uint64_t words[3];
      oracle.set_inputs(coordinates);
      EXPECT_EQ(thrown_message<WriteError>([&] { s.request(coordinates, list, words); }),
                thrown_message<WriteError>([&] { oracle.pull_word(list[2]); }))
          << c.name;
      EXPECT_EQ(s.pull_word(list[0]), oracle.pull_word(list[0])) << c.name;
    }
    s.set_input("e", Value::u64(9));
    oracle.set_input("e", Value::u64(9));
    expect_request(s, 103, 7);  // recomputes k, which was None
    expect_request(s, 104, 7);  // the fused entry again: arms the state
    State copy = s;
    uint64_t before[3];
    for (size_t i = 0; i < 3; ++i) before[i] = s.pull_word(list[i]);
    expect_request(copy, 200, 1);
    expect_current(copy);  // in the clone's own buffers
    for (size_t i = 0; i < 3; ++i) ASSERT_EQ(s.pull_word(list[i]), before[i]) << c.name;
    expect_request(s, 300, 1);
    expect_request(copy, 201, 1);
    std::swap(list[1], list[2]);  // the same array, another list
    expect_request(s, 301, 1);
    expect_request(s, 302, 1);
    const size_t kept = list[2];
    list[2] = list[0];  // an output asked twice
    expect_request(s, 303, 1);
    expect_request(s, 304, 1);
    list[2] = kept;
    s.invalidate_all();
    expect_request(s, 302, 1);
    expect_request(s, 303, 2);
    State moved = std::move(s);
    expect_request(moved, 304, 2);
    expect_request(moved, 305, 2);
    expect_current(moved);
    const uint64_t coordinates[] = {1, 2};
    uint64_t words[3];
    EXPECT_THROW(s.request(coordinates, list, words), WriteError);
  }
}

// After a round that pulled an output whose cone takes every step, a write
// is deferred and the next pull runs the request entry (Pull, PushPull and
// Raw with an extern). A member failing there must not fail a pull whose
// cone does not need it; a round of smaller pulls, an extern write, eval
// and a clone while a write is deferred see the values the interpreter does.
TEST(Engines, DeferredWritesPullWhatTheInterpreterPulls) {
  const std::string source =
      "input x: u64\ninput y: u64\nextern e: u64 = 1\nh := hash(x + y + e)\n"
      "q := in_range(mod(h, 10), 0, 7)\nr := unit_interval(h) * 2.0\n";
  auto oracle_program = compile(source, options_for({Engine::Interpreter, Provenance::Auto, ""}));
  for (Provenance mode : {Provenance::Raw, Provenance::Pull, Provenance::PushPull}) {
    auto program = compile(source, options_for({Engine::Native, mode, ""}));
    ASSERT_NE(ProgramInternals::slot_program(*program)->request, nullptr);
    State s = program->new_state(), oracle = oracle_program->new_state();
    const size_t q = s.output_index("q"), r = s.output_index("r"), h = s.output_index("h");
    uint64_t at_x = 0;
    auto expect_pull = [&](State& state, size_t o) {
      uint64_t got = 0, want = 0;
      const std::string error = thrown_message<EvalError>([&] { got = state.pull_word(o); });
      const std::string expected = thrown_message<EvalError>([&] { want = oracle.pull_word(o); });
      ASSERT_EQ(error, expected) << program->engine_name() << " output " << o;
      ASSERT_EQ(got, want) << program->engine_name() << " output " << o << " x " << at_x;
    };
    size_t failures = 0;
    for (uint64_t x = 0; x < 300; ++x) {
      at_x = x;
      s.set_inputs({x, 3});
      oracle.set_inputs({x, 3});
      switch (x % 6) {
        case 0:  // a smaller cone first: the deferred run's failure must not show
          expect_pull(s, r);
          expect_pull(s, q);
          break;
        case 1:
          expect_pull(s, q);
          expect_pull(s, h);
          break;
        case 2: {  // an extern written while a write is deferred
          const uint64_t e = x % 4;
          s.set_input("e", Value::u64(e));
          oracle.set_input("e", Value::u64(e));
          expect_pull(s, r);
          expect_pull(s, q);
          break;
        }
        case 3: {  // a clone of a state with a deferred write
          State copy = s;
          expect_pull(copy, r);
          expect_pull(s, h);
          expect_pull(copy, q);
          break;
        }
        case 4:  // eval runs what is deferred, and raises what fails
          EXPECT_EQ(thrown_message<EvalError>([&] { s.eval(); }),
                    thrown_message<EvalError>([&] { oracle.eval(); }))
              << program->engine_name();
          expect_pull(s, r);
          break;
        case 5:
          expect_pull(s, r);  // only the smaller cone this round
          break;
      }
      failures += thrown_message<EvalError>([&] { oracle.pull_word(q); }) != "(nothing thrown)";
    }
    EXPECT_GT(failures, 30u) << "in_range's failure must be exercised";
  }
  // PushPull defers only a write that makes every step stale anyway: here
  // a change of x leaves the steps of `a` (t's alone) clean; one of t does
  // not.
  const std::string split =
      "input x\ninput t\na := in_range(hash(t), 0, 18446744073709551615)\n"
      "b := hash(x + t) + a\n";
  auto program = compile(split, options_for({Engine::Native, Provenance::PushPull, ""}));
  const slots::SlotProgram& sp = *ProgramInternals::slot_program(*program);
  EXPECT_EQ(sp.coordinate_stales_every_step, (std::vector<uint8_t>{0, 1}));
  EXPECT_TRUE(sp.cone_takes_every_step(program->output_index("b").value()));
  auto oracle =
      compile(split, options_for({Engine::Interpreter, Provenance::Auto, ""}))->new_state();
  State s = program->new_state();
  for (uint64_t i = 0; i < 40; ++i) {
    const uint64_t coordinates[] = {i, i / 4};  // t changes every fourth write
    s.set_inputs(coordinates);
    oracle.set_inputs(coordinates);
    ASSERT_EQ(s.pull_word(s.output_index("b")), oracle.pull_word(oracle.output_index("b"))) << i;
  }
}

TEST(Engines, AutoSelectsRawForSmallSingleInputGraphs) {
  auto p = compile("input x\nv := hash(x)\n");
  EXPECT_EQ(p->engine_name(), "native (Raw)");
}

TEST(Engines, PullWordRefusesStringsAndNone) {
  for (const Config& c : kConfigs) {
    auto p = compile("input x\nextern e: u64\ns := \"{x}\"\nn := e + x\nf := unit_interval(x)\n",
                     options_for(c));
    State st = p->new_state();
    st.set_inputs({1});
    EXPECT_THROW(st.pull_word(st.output_index("s")), WriteError) << c.name;
    EXPECT_THROW(st.pull_word(st.output_index("n")), WriteError) << c.name;
    EXPECT_THROW(st.pull_word(99), WriteError) << c.name;
    EXPECT_EQ(st.pull_word(st.output_index("f")), std::bit_cast<uint64_t>(0x1p-64)) << c.name;
    st.set_input("e", Value::u64(4));
    EXPECT_EQ(st.pull_word(st.output_index("n")), 5u) << c.name;
  }
}

TEST(Engines, EveryNaNIsTheCanonicalNaN) {
  const uint64_t canonical = 0x7ff8000000000000ULL;
  for (const Config& c : kConfigs) {
    auto p = compile(
        "input x\nextern e: f64 = 1.0\nn := sqrt(-1.0 - to_f64(x))\nm := (e - e) * n\n"
        "z := tan(ln(n)) + atan(n)\ne2 := e + 0.0\n",
        options_for(c));
    State st = p->new_state();
    st.set_inputs({3});
    st.set_input(
        "e",
        Value::f64(std::bit_cast<double>(0xfff8000000000123ULL)));  // a negative NaN with payload
    for (const char* name : {"n", "m", "z", "e2"}) {
      EXPECT_EQ(std::bit_cast<uint64_t>(st.pull(name).as_f64()), canonical)
          << c.name << " " << name;
    }
  }
}

TEST(Engines, ClonesAreIndependentOnEveryEngine) {
  for (const Config& c : kConfigs) {
    auto p =
        compile("input a\nextern e: str = \"x\"\nv := \"{e}-{a}\"\nh := hash(a)\n", options_for(c));
    State s = p->new_state();
    s.set_inputs({1});
    ASSERT_EQ(s.pull("v").as_str(), "x-1");
    State clone = s;
    clone.set_input("e", Value::str("y"));
    clone.set_inputs({2});
    EXPECT_EQ(clone.pull("v").as_str(), "y-2") << c.name;
    EXPECT_EQ(clone.pull("h").as_u64(), pd_hash(2)) << c.name;
    EXPECT_EQ(s.pull("v").as_str(), "x-1") << c.name;
    EXPECT_EQ(s.pull("h").as_u64(), pd_hash(1)) << c.name;
  }
}

TEST(Engines, NativeStatesOnManyThreads) {
  auto p = compile_file(bench::kLadderFile);
  std::atomic<int> wrong{0};
  tbb::parallel_for(0, 64, [&](int t) {
    State s = p->new_state();
    for (uint64_t cycle = 0; cycle < 500; ++cycle) {
      s.set_inputs({cycle * 64 + t, 7, 9});
      if (s.pull("event_token").as_u64() !=
          bench::ladder_baseline(cycle * 64 + t, 7, 9).event_token)
        ++wrong;
    }
  });
  EXPECT_EQ(wrong.load(), 0);
}

TEST(Engines, LadderIsOneNativeSegment) {
  auto p = ladder(kConfigs[6]);
  const plan::StatePlan& plan = ProgramInternals::slot_program(*p)->plan;
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_EQ(plan.steps[0].kind, plan::StepKind::Segment);
  EXPECT_EQ(plan.steps[0].nodes.size(), 11u);
}

TEST(Engines, FallibleNodesAreSegmentsOfTheirOwn) {
  auto p = compile("input x\na := hash(x)\nb := in_range(a, 0, 10)\nc := a + 1\nd := mod(c, 7)\n");
  const plan::StatePlan& plan = ProgramInternals::slot_program(*p)->plan;
  for (const plan::Step& s : plan.steps) {
    for (uint32_t n : s.nodes) {
      if (ProgramInternals::graph(*p).nodes[n].label == "in_range") {
        EXPECT_EQ(s.nodes.size(), 1u);
      }
    }
  }
  State st = p->new_state();
  st.set_inputs({3});
  EXPECT_EQ(st.pull("d").as_u64(), (pd_hash(3) + 1) % 7);  // does not run the failing in_range
  EXPECT_THROW(st.pull("b"), EvalError);
}

// Numeric programs in Raw mode take writes inline and skip round bookkeeping;
// they must still agree with the interpreter on values, failures (with the
// written coordinates), unchanged writes, clones and str constants.
TEST(Engines, ExpressStatesAgreeWithTheInterpreter) {
  const std::string source =
      "input x: u64\ninput y: u64\nlabel := \"fixed\"\n"
      "h := hash(x + y)\nq := in_range(mod(h, 10), 0, 7)\nr := unit_interval(h) * 2.0\n";
  CompileOptions raw;
  for (Engine engine : {Engine::Closures, Engine::Native}) {
    raw.engine = engine;
    raw.provenance = Provenance::Raw;
    auto fast = compile(source, raw);
    ASSERT_TRUE(ProgramInternals::slot_program(*fast)->express);
    CompileOptions reference;
    reference.engine = Engine::Interpreter;
    auto oracle = compile(source, reference);
    State a = fast->new_state(), b = oracle->new_state();
    const size_t q = a.output_index("q"), r = a.output_index("r");
    size_t failures = 0;
    for (uint64_t i = 0; i < 300; ++i) {
      const uint64_t x = i / 3, y = i % 2;  // every third write repeats x
      a.set_inputs({x, y});
      b.set_inputs({x, y});
      EXPECT_EQ(a.pull_word(r), b.pull_word(r));
      std::string fast_error, oracle_error;
      uint64_t fast_q = 0, oracle_q = 0;
      try {
        fast_q = a.pull_word(q);
      } catch (const EvalError& e) {
        fast_error = e.what();
      }
      try {
        oracle_q = b.pull_word(q);
      } catch (const EvalError& e) {
        oracle_error = e.what();
      }
      ASSERT_EQ(fast_error, oracle_error) << "x=" << x << " y=" << y;
      failures += !fast_error.empty();
      ASSERT_EQ(fast_q, oracle_q);
      State copy = a;
      a.set_inputs({x + 1, y});
      EXPECT_EQ(copy.pull_word(r), b.pull_word(r)) << "a clone keeps its own inputs";
    }
    EXPECT_GT(failures, 10u) << "the division by zero must be exercised";
    EXPECT_EQ(a.pull("label").as_str(), "fixed");
    EXPECT_THROW(a.pull_word(a.output_index("label")), WriteError);
    EXPECT_THROW(a.set_inputs({1}), WriteError);
  }
}

// A moved-from state owns nothing: every operation throws WriteError and
// none reads the new owner's buffers (ASan checks the last pull_word after
// the new owner is gone). Assigning a state to it revives it.
TEST(Engines, MovedFromStatesRefuseEveryOperation) {
  for (const Config& c : kConfigs) {
    auto program = ladder(c);
    State from = program->new_state();
    from.set_inputs({1, 2, 3});
    const uint64_t want = from.pull_word(0);
    std::optional<State> owner(std::move(from));
    EXPECT_EQ(owner->pull_word(0), want) << c.name;
    EXPECT_THROW(from.pull_word(0), WriteError) << c.name;
    EXPECT_THROW(from.pull("account_id"), WriteError) << c.name;
    EXPECT_THROW(from.pull_at(0), WriteError) << c.name;
    EXPECT_THROW(from.set_inputs({1, 2, 3}), WriteError) << c.name;
    EXPECT_THROW(from.set_input("nope", Value::u64(1)), WriteError) << c.name;
    EXPECT_THROW(from.engine(), WriteError) << c.name;
    EXPECT_THROW(from.eval(), WriteError) << c.name;
    EXPECT_THROW(State copy(from), WriteError) << c.name;
    State other = program->new_state();
    EXPECT_THROW(other = from, WriteError) << c.name;
    owner.reset();
    EXPECT_THROW(from.pull_word(0), WriteError) << c.name;
    from = program->new_state();
    from.set_inputs({1, 2, 3});
    EXPECT_EQ(from.pull_word(0), want) << c.name;
  }
}

}  // namespace
}  // namespace polyrt::test

namespace polyrt {
namespace {

// pull_ref reads an output in place: a str output is the engine's own Value
// (no copy), valid until the next call; every engine gives what pull gives.
TEST(PullRef, ReadsInPlaceOnEveryEngine) {
  const char* source =
      "input x\nextern tag: str = \"t\"\nname := \"user-{x}-{tag}-0123456789abcdef\"\n"
      "n := hash(x)\nmaybe := default_or(tag, \"none\")\n";
  for (Engine engine : {Engine::Interpreter, Engine::Closures, Engine::Native}) {
    CompileOptions options;
    options.engine = engine;
    State s = compile(source, options)->new_state();
    s.set_inputs({42});
    const Value& name = s.pull_ref(0);
    EXPECT_EQ(name.as_str(), "user-42-t-0123456789abcdef");
    const char* first = name.as_str().data();
    EXPECT_EQ(s.pull_ref(0).as_str().data(), first) << "a str pull_ref is the stored value";
    EXPECT_EQ(s.pull_ref(1).as_u64(), s.pull("n").as_u64());
    s.set_inputs({43});
    EXPECT_EQ(s.pull_ref(0).as_str(), "user-43-t-0123456789abcdef");
    EXPECT_THROW(s.pull_ref(9), WriteError);
  }
}

}  // namespace
}  // namespace polyrt
