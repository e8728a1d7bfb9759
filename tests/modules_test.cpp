// Modules: definitions, calls, inlining, lookup on the module path and in the
// embedded standard library, and the diagnostics that name the call chain.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>

#include "tests/differential/differential.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

// Every per-state engine gives `with_modules` the values of `inlined` (the
// same program written out by hand) for every output `inlined` has.
void expect_same_values(const std::string& with_modules, const std::string& inlined,
                        CompileOptions options = {}) {
  constexpr uint64_t kCoordinates = 300;
  auto want_program = compile(inlined);
  for (const difftest::EngineConfig& c : difftest::kEngineConfigs) {
    options.engine = c.engine;
    options.provenance = c.provenance;
    auto got_program = compile(with_modules, options);
    State got = got_program->new_state();
    State want = want_program->new_state();
    for (uint64_t x = 0; x < kCoordinates; ++x) {
      got.set_inputs({x});
      want.set_inputs({x});
      for (const std::string& name : want_program->output_names()) {
        ASSERT_TRUE(got.pull(name).same_as(want.pull(name)))
            << c.name << " " << name << " at " << x;
      }
    }
  }
}

std::string module_error(const std::string& source, const CompileOptions& options = {}) {
  return thrown_message<CompileError>([&] { compile(source, options); });
}

TEST(Modules, CallsInlineToTheSameValuesAsTheBody) {
  expect_same_values(R"(
    input x
    bounded(input: u64, max: u64) -> (value: u64, half: f64) := {
        h := hash(input)
        value := mod(h, max)
        half := to_f64(value) / 2.0
    }
    (a, a_half) := bounded(x, 10)
    (b, b_half) := bounded(max: 1000, input: x + 1)
  )",
                     R"(
    input x
    a := mod(hash(x), 10)
    a_half := to_f64(a) / 2.0
    b := mod(hash(x + 1), 1000)
    b_half := to_f64(b) / 2.0
  )");
}

TEST(Modules, ModulesCallModulesAndUseCallsInExpressions) {
  expect_same_values(R"(
    input x
    scaled(v: u64, by: f64) -> (out: f64) := {
        out := to_f64(v) * by
    }
    noisy(seed: u64, span: u64, by: f64) -> (out: f64, key: u64) := {
        key := mod(hash(seed), span)
        out := scaled(key, by) + scaled(seed, 0.5)
    }
    (n, k) := noisy(x, 100, 2)
    total := scaled(k, 1.5) + n
  )",
                     R"(
    input x
    k := mod(hash(x), 100)
    n := to_f64(k) * 2.0 + to_f64(x) * 0.5
    total := to_f64(k) * 1.5 + n
  )");
}

TEST(Modules, AProgramModuleShadowsTheNodeOfItsName) {
  expect_same_values(R"(
    input x
    hash_range(input: u64, max: u64) -> (value: u64) := {
        value := mod(input, max)
    }
    v := hash_range(x, 7)
  )",
                     "input x\nv := x % 7\n");
}

TEST(Modules, LiteralArgumentsFillConstantArgumentsAndTakeTheParameterType) {
  // `mean` is f64: the integer literal 5 arrives as 5.0 in icd_normal's
  // constant argument.
  expect_same_values(R"(
    input x
    sample(input: u64, mean: f64, sd: f64) -> (v: f64) := {
        v := icd_normal(unit_interval(hash(input)), mean, sd)
    }
    s := sample(x, 5, 1.5)
    t := sample(x, -2, 0.5)
  )",
                     R"(
    input x
    s := dist_normal(unit_interval(hash(x)), 5.0, 1.5)
    t := dist_normal(unit_interval(hash(x)), -2.0, 0.5)
  )");
}

TEST(Modules, ConstAndVolatileBindingsKeepTheirModifiers) {
  auto p = compile(R"(
    input x
    extern salt: u64 = 3
    keyed(v: u64, s: u64) -> (out: u64) := {
        const base := hash(s)
        out := v + base
    }
    y := keyed(x, salt)
  )");
  State s = p->new_state();
  s.set_inputs({1});
  const uint64_t before = s.pull("y").as_u64();
  s.set_input("salt", Value::u64(4));
  s.set_inputs({1});
  EXPECT_EQ(s.pull("y").as_u64(), before);  // the const was evaluated once
  EXPECT_NE(module_error(R"(
    input x
    keyed(v: u64) -> (out: u64) := {
        const base := hash(v)
        out := base
    }
    y := keyed(x)
  )")
                .find("reads the coordinate"),
            std::string::npos);
}

TEST(Modules, HiddenBindingsAreNotOutputs) {
  auto p = compile(R"(
    input x
    m(a: u64) -> (b: u64) := {
        inner := a + 1
        b := inner * 2
    }
    y := m(x + 5)
  )");
  EXPECT_EQ(p->output_names(), std::vector<std::string>{"y"});
  State s = p->new_state();
  s.set_inputs({1});
  EXPECT_EQ(s.pull("y").as_u64(), 14u);
}

TEST(Modules, DiagnosticsNameTheCallChain) {
  const std::string lib = R"(
    input x
    inner(v: u64, n: u64) -> (out: u64) := {
        out := mod(v, n)
    }
    outer(v: u64, n: u64) -> (out: u64) := {
        out := inner(v, n)
    }
  )";
  const std::string msg = module_error(lib + "y := outer(x, x + 1)\n");
  expect_contains(msg, {"<source>:4:23: error: argument 'modulus' of 'mod' must be a literal",
                        "parameter 'n' of module 'inner'",
                        "in module 'inner' (defined at <source>:3:5), called at <source>:7:16",
                        "in module 'outer' (defined at <source>:6:5), called at <source>:9:8"});
  // The expression at the call is named too.
  expect_contains(msg, {"passes as an expression at <source>:7:25"});
}

TEST(Modules, BadCallsAreCompileErrors) {
  const std::string m =
      "input x\nm(a: u64, b: f64) -> (o: f64, p: u64) := {\n o := b\n p := a\n}\n";
  expect_contains(module_error(m + "(y, z) := m(x)\n"), {"missing argument 'b' of module 'm'"});
  expect_contains(module_error(m + "(y, z) := m(x, 1.0, 2.0)\n"),
                  {"too many arguments to module 'm' (it takes 2)"});
  expect_contains(module_error(m + "(y, z) := m(x, bb: 1.0)\n"),
                  {"module 'm' has no parameter named 'bb'", "did you mean 'b'?"});
  expect_contains(module_error(m + "(y, z) := m(x, a: 1, b: 1.0)\n"),
                  {"parameter 'a' is given twice"});
  expect_contains(module_error(m + "(y, z) := m(1.5, 1.0)\n"),
                  {"parameter 'a' of module 'm' is declared u64"});
  expect_contains(module_error(m + "(y, z) := m(x, \"s\")\n"),
                  {"parameter 'b' of module 'm' is declared f64"});
  expect_contains(module_error(m + "(y, z) := m(x as i32, 1.0)\n"),
                  {"parameter 'a' of module 'm' is declared u64 but gets i32",
                   "convert with '... as u64' (checked"});
  expect_contains(module_error(m + "(y, z, w) := m(x, 1.0)\n"),
                  {"module 'm' has 2 output(s) but 3 names are bound"});
  expect_contains(module_error(m + "y := m(x, 1.0)\n"),
                  {"module 'm' has 2 outputs; bind them with (a, b, ...) := m(...)"});
}

TEST(Modules, BadDefinitionsAreCompileErrors) {
  expect_contains(
      module_error("input x\nm(a: u64) -> (o: u64) := {\n o := a\n}\n"
                   "m(a: u64) -> (o: u64) := {\n o := a\n}\ny := m(x)\n"),
      {"<source>:5:1: error: module 'm' is already defined", "first defined at <source>:2:1"});
  expect_contains(module_error("input x\nm(a: u64) -> (o: u64, q: u64) := {\n o := a\n}\n"
                               "(y, z) := m(x)\n"),
                  {"module 'm' declares output 'q' but its body does not bind it"});
  expect_contains(module_error("input x\nm(a: u64) -> (o: u64) := {\n o := to_f64(a)\n}\n"
                               "y := m(x)\n"),
                  {"output 'o' of module 'm' is declared u64 but gets f64"});
  expect_contains(
      module_error("input x\nm(a: u64) -> (o: u64) := {\n inner := a\n o := innr + 1\n}\n"
                   "y := m(x)\n"),
      {"unknown name 'innr' in module 'm'", "did you mean 'inner'?"});
  expect_contains(module_error("input x\nm(a: u64) -> (o: u64) := {\n a := 1\n o := a\n}\n"
                               "y := m(x)\n"),
                  {"'a' is a parameter of module 'm'; its body cannot bind it"});
  expect_contains(module_error("input x\nm(a: u64) -> (o: u64) := {\n extern e: u64\n o := a\n}\n"
                               "y := m(x)\n"),
                  {"a module body cannot declare an extern"});
  expect_contains(module_error("input x\nm(a: u64) -> (o: u64) := {\n input q\n o := a\n}\n"
                               "y := m(x)\n"),
                  {"module 'm' declares input 'q', which is not one of its parameters"});
  expect_contains(module_error("m(a: u64) -> (o: u64) := {\n n(b: u64) -> (c: u64) := {\n"
                               " c := b\n }\n o := a\n}\n"),
                  {"module definitions cannot be nested"});
  expect_contains(module_error("m(a: u64) -> () := {\n}\n"), {"module 'm' declares no output"});
  // A module nothing calls is still checked for what can be known without a call.
  expect_contains(module_error("m(a: u64) -> (o: u64) := {\n o := hsh(a)\n}\n"),
                  {"<source>:2:7: error: unknown function 'hsh'", "did you mean 'hash'?"});
  expect_contains(module_error("m(a: u64) -> (o: u64, q: u64) := {\n o := a\n}\n"),
                  {"module 'm' declares output 'q' but its body does not bind it"});
  expect_contains(module_error("m(a: u64, a: u64) -> (o: u64) := {\n o := a\n}\n"),
                  {"duplicate parameter 'a'"});
  expect_contains(module_error("m(a: u64) -> (o: u64) := {\n o := a\n"),
                  {"the body of module 'm' is not closed with '}'"});
  expect_contains(module_error("hash(x)\n"),
                  {"found a call of 'hash'", "a bare call is not a statement"});
  expect_contains(module_error("m(a: u64) o := a\n"), {"expected '->'"});
}

TEST(Modules, RecursionAndRunawayInliningAreRefused) {
  expect_contains(module_error("input x\nping(v: u64) -> (o: u64) := {\n o := pong(v)\n}\n"
                               "pong(v: u64) -> (o: u64) := {\n o := ping(v)\n}\ny := ping(x)\n"),
                  {"module 'ping' calls itself: ping -> pong -> ping", "cannot recurse"});
  // Each level calls the one below twice: 2^30 copies of the innermost body.
  std::string doubling = "input x\nm0(v: u64) -> (o: u64) := {\n o := v + 1\n}\n";
  for (int i = 1; i <= 30; ++i) {
    const std::string me = "m" + std::to_string(i), below = "m" + std::to_string(i - 1);
    doubling += me + "(v: u64) -> (o: u64) := {\n o := " + below + "(v) + " + below + "(v)\n}\n";
  }
  expect_contains(module_error(doubling + "y := m30(x)\n"),
                  {"module inlining made more than 262144 statements"});
  // A chain of 5000 modules, each calling the next: refused, not a stack overflow.
  std::string chain = "input x\nm5000(v: u64) -> (o: u64) := {\n o := v\n}\n";
  for (int i = 4999; i >= 0; --i) {
    chain += "m" + std::to_string(i) + "(v: u64) -> (o: u64) := {\n o := m" +
             std::to_string(i + 1) + "(v)\n}\n";
  }
  expect_contains(module_error(chain + "y := m0(x)\n"), {"module calls nest more than 256 deep"});
}

TEST(Modules, AFailureAtRunTimeNamesTheCallChain) {
  auto p = compile(R"(
    input x
    risky(v: u64) -> (o: u64) := {
        o := mod_wire(v, v - v)
    }
    y := risky(x)
  )");
  State s = p->new_state();
  s.set_inputs({3});
  expect_contains(
      thrown_message<EvalError>([&] { s.pull("y"); }),
      {"in binding 'risky#1.o' at <source>:4:14 failed: mod_wire by zero",
       "in module 'risky' (defined at <source>:3:5), called at <source>:6:10", "feeds outputs: y"});
}

// ---- the module path ----------------------------------------------------------

struct LibraryFiles {
  std::string dir = temp_dir();
  std::string lib_a = dir + "/a";
  std::string lib_b = dir + "/b";
  LibraryFiles() {
    mkdir(lib_a.c_str(), 0755);
    mkdir(lib_b.c_str(), 0755);
    // A file named after its module, one holding several modules, one that
    // does not parse, and a plain program whose binding is exported.
    write_program(lib_a, "triple.polydat", "triple(v: u64) -> (o: u64) := {\n o := v * 3\n}\n");
    write_program(lib_a, "misc.polydat",
                  "quad(v: u64) -> (o: u64) := {\n o := v * 4\n}\n"
                  "shout(s: str) -> (o: str) := {\n o := str_upper(s)\n}\n");
    write_program(lib_a, "broken.polydat", "this is not polydat (\n");
    write_program(lib_b, "triple.polydat", "triple(v: u64) -> (o: u64) := {\n o := v * 333\n}\n");
    write_program(lib_b, "keys.polydat",
                  "input cycle\nspan := 7\nslot := mod(hash(cycle), 100) + offset\n");
  }
};

uint64_t value_of(const std::shared_ptr<const Program>& p, const std::string& name, uint64_t x) {
  State s = p->new_state();
  s.set_inputs({x});
  return s.pull(name).as_u64();
}

TEST(Modules, LibraryPathsAreSearchedInOrder) {
  LibraryFiles files;
  CompileOptions options;
  options.library_paths = {files.lib_a, files.lib_b};
  auto p = compile("input x\nt := triple(x)\nq := quad(x)\n", options);
  EXPECT_EQ(value_of(p, "t", 5), 15u);  // lib_a's triple comes first
  EXPECT_EQ(value_of(p, "q", 5), 20u);  // found in a file not named after it
  options.library_paths = {files.lib_b, files.lib_a};
  EXPECT_EQ(value_of(compile("input x\nt := triple(x)\n", options), "t", 5), 1665u);
}

TEST(Modules, AProgramFileFindsModulesBesideIt) {
  LibraryFiles files;
  const std::string path = write_program(files.lib_a, "main.polydat", "input x\nt := triple(x)\n");
  EXPECT_EQ(value_of(compile_file(path), "t", 2), 6u);
}

TEST(Modules, TheEnvironmentVariableExtendsThePath) {
  LibraryFiles files;
  ASSERT_EQ(setenv(kLibraryPathVariable, ("::" + files.lib_b).c_str(), 1), 0);
  EXPECT_EQ(value_of(compile("input x\nt := triple(x)\n"), "t", 1), 333u);
  CompileOptions first;
  first.library_paths = {files.lib_a};  // the options come before the variable
  EXPECT_EQ(value_of(compile("input x\nt := triple(x)\n", first), "t", 1), 3u);
  unsetenv(kLibraryPathVariable);
}

TEST(Modules, AFileExportsItsBindingsAsModules) {
  LibraryFiles files;
  CompileOptions options;
  options.library_paths = {files.lib_b};
  // slot's free names (cycle, offset) are its parameters, in name order.
  expect_same_values("input x\ns := slot(x, 5)\nt := slot(offset: 1, cycle: x + 1)\n",
                     "input x\ns := mod(hash(x), 100) + 5\nt := mod(hash(x + 1), 100) + 1\n",
                     options);
}

TEST(Modules, AnAnonymousModuleIsNamedAfterItsFile) {
  LibraryFiles files;
  write_program(files.lib_a, "entity.polydat",
                "(e: u64) -> (h: u64, code: u64) := {\n h := hash(e)\n code := h % 100\n}\n");
  CompileOptions options;
  options.library_paths = {files.lib_a};
  expect_same_values("input x\n(h, c) := entity(x)\n", "input x\nh := hash(x)\nc := h % 100\n",
                     options);
  // `(a, b) := ...` is still destructuring.
  EXPECT_NO_THROW(compile("input x\n(a, b) := mixed_radix(x, 10, 0)\n"));
}

TEST(Modules, LookupFailuresSayWhy) {
  LibraryFiles files;
  CompileOptions options;
  options.library_paths = {files.lib_a};
  expect_contains(module_error("input x\nt := tripel(x)\n", options),
                  {"unknown function 'tripel'", "files on the module path that could not be used",
                   "broken.polydat (it does not parse: line 1)"});
  write_program(files.lib_a, "oops.polydat", "oops(v: u64) -> (o: u64) := {\n o := v +\n}\n");
  expect_contains(module_error("input x\nt := oops(x)\n", options),
                  {"oops.polydat:3:1: error:",
                   "while looking for module 'oops' called at "
                   "<source>:2:6"});
  options.library_paths = {files.dir + "/missing"};
  expect_contains(module_error("input x\nt := nothing_here(x)\n", options),
                  {"cannot read the module directory", "(from the library paths)"});
  // A name that resolves to a node never touches the path.
  EXPECT_NO_THROW(compile("input x\nv := hash(x)\n", options));
}

// ---- the standard library -----------------------------------------------------

TEST(Modules, TheStandardLibraryMatchesItsDefinitions) {
  expect_same_values(
      R"(
    input x
    id := hashed_id(x, 1000)
    off := hash_range_offset(input: x, base: 10000, range: 500)
    pad := padded_id(x, 1000000, 8)
    hex := hex_id(x, 65536)
    n := normal_sample(x, 10, 2)
    e := exponential_sample(x, 0.5)
    u := uniform_sample(x, -1, 1)
    z := zipf_sample(x, 100, 1.1)
    b := bounded_normal_int(x, 35, 12, 18, 90)
    g := gaussian_latency(x, 5, 1.2)
    el := exponential_latency(x, 0.1)
    saw := sawtooth(x, 16)
    key := alpha_numeric(x, 12)
    ts := monotonic_ts(x, 1710000000000, 1000)
    jt := jittered_ts(input: x, base_epoch: 1710000000000, interval_ms: 1000, jitter_ms: 200)
  )",
      R"(
    input x
    id := mod(hash(x), 1000)
    off := mod(hash(x), 500) + 10000
    pad := zero_pad_u64(mod(hash(x), 1000000), 8)
    hex := format_u64(mod(hash(x), 65536), 16)
    n := dist_normal(unit_interval(hash(x)), 10.0, 2.0)
    e := dist_exponential(unit_interval(hash(x)), 0.5)
    u := lerp(unit_interval(hash(x)), -1.0, 1.0)
    z := round_to_u64(dist_zipf(unit_interval(hash(x)), 100, 1.1))
    b := round_to_u64(clamp_f64(dist_normal(unit_interval(hash(x)), 35.0, 12.0), 18.0, 90.0))
    g := clamp_f64(dist_normal(unit_interval(hash(x)), 5.0, 1.2), 0.1, 999999.0)
    el := clamp_f64(dist_exponential(unit_interval(hash(x)), 0.1), 0.1, 999999.0)
    saw := to_f64(x % 16) / 16.0
    key := combinations(hash(x), "0-9A-Za-z", 12)
    ts := x * 1000 + 1710000000000
    jt := x * 1000 + 1710000000000 + hash(x) % 200
  )");
}

// polydat's fourier modules: the series it sums, in its order (against the
// C library's sin, so within an ulp or two: polyrt's sin is its own), and
// their exact points.
TEST(Modules, FourierWavesArePolydatsSeries) {
  const auto p = compile(
      "input x\ns := sine_wave(x, 12)\nc := cosine_wave(x, 12)\nu := sine_unit(x, 12)\n"
      "q := square_wave(x, 12)\nt := triangle_wave(x, 12)\n");
  State state = p->new_state();
  const auto near = [](double got, double want) {
    return std::fabs(got - want) <= 4e-16 * std::max(1.0, std::fabs(want));
  };
  for (uint64_t x = 0; x < 30; ++x) {
    state.set_inputs({x});
    const double phase = (double)(x % 12) / 12.0;
    const double h1 = std::sin(phase * 6.283185307179586);
    const double h3 = std::sin(phase * 18.84955592153876);
    const double h5 = std::sin(phase * 31.41592653589793);
    const double h7 = std::sin(phase * 43.982297150257104);
    const double h9 = std::sin(phase * 56.548667764616276);
    const double square =
        ((((h1 + h3 * 0.3333333333333333) + h5 * 0.2) + h7 * 0.14285714285714285) +
         h9 * 0.1111111111111111) *
        1.2732395447351628;
    const double triangle =
        (((h1 + h3 * -0.1111111111111111) + h5 * 0.04) + h7 * -0.020408163265306124) *
        0.8105694691387022;
    EXPECT_PRED2(near, state.pull("s").as_f64(), h1) << x;
    EXPECT_PRED2(near, state.pull("c").as_f64(), std::cos(phase * 6.283185307179586)) << x;
    EXPECT_PRED2(near, state.pull("u").as_f64(), 0.5 + h1 * 0.5) << x;
    EXPECT_PRED2(near, state.pull("q").as_f64(), square) << x;
    EXPECT_PRED2(near, state.pull("t").as_f64(), triangle) << x;
  }
  state.set_inputs({3});
  EXPECT_EQ(state.pull("s").as_f64(), 1.0);
  EXPECT_EQ(state.pull("u").as_f64(), 1.0);
  state.set_inputs({12});
  EXPECT_EQ(state.pull("s").as_f64(), 0.0);
  EXPECT_EQ(state.pull("c").as_f64(), 1.0);
}

TEST(Modules, StandardPermutationsAreOneToOne) {
  auto p = compile(
      "input x\ns := shuffled_id(x, 1000)\ne0 := euler_circuit(x, 1000, 42, 0)\n"
      "e1 := euler_circuit(x, 1000, 42, 1)\n");
  for (const char* name : {"s", "e0", "e1"}) {
    std::set<uint64_t> seen;
    for (uint64_t x = 0; x < 1000; ++x) seen.insert(value_of(p, name, x));
    EXPECT_EQ(seen.size(), 1000u) << name;
    EXPECT_LT(*seen.rbegin(), 1000u) << name;
  }
  State s = p->new_state();
  size_t same = 0;
  for (uint64_t x = 0; x < 1000; ++x) {
    s.set_inputs({x});
    same += s.pull("e0").same_as(s.pull("e1"));
  }
  EXPECT_LT(same, 20u);  // the streams are different permutations
}

TEST(Modules, ServiceModelsAreDeterministicAndShaped) {
  auto p = compile(
      "input x\n(lat, err) := service_model(x, 2.0, 50.0, 0.1, 0.05)\n"
      "bi := bimodal_latency(x, 2.0, 0.5, 50.0, 5.0, 0.1)\n"
      "one := service_latency(x, 5.0, 1.0)\n");
  State s = p->new_state();
  size_t slow = 0, errors = 0;
  for (uint64_t x = 0; x < 20000; ++x) {
    s.set_inputs({x});
    const double lat = s.pull("lat").as_f64();
    ASSERT_GE(lat, 0.1);
    ASSERT_EQ(lat, s.pull("bi").as_f64());  // the same model with its defaults spelled out
    slow += lat > 20.0;
    errors += s.pull("err").as_u64();
  }
  EXPECT_NEAR(slow / 20000.0, 0.1, 0.01);
  EXPECT_NEAR(errors / 20000.0, 0.05, 0.01);
}

// The example of modules gives the same rows on every per-state engine and
// the batch tier (which inlining hands the same graph).
TEST(Modules, TheRequestsExampleRunsAlikeOnEveryTier) {
  const std::string file = std::string(POLYRT_SOURCE_DIR) + "/examples/requests.polydat";
  const CommandResult batch = run_polyrt("run " + file + " --cycles 0..3000");
  ASSERT_EQ(batch.status, 0) << batch.err;
  for (const char* engine : {"interpreter", "closures", "native"}) {
    const CommandResult one = run_polyrt("run " + file + " --cycles 0..3000 --engine " + engine);
    EXPECT_EQ(one.out, batch.out) << engine;
  }
  EXPECT_EQ(std::count(batch.out.begin(), batch.out.end(), '\n'), 3001);
}

}  // namespace
}  // namespace polyrt::test
