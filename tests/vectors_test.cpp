// The vector types (value.hpp, value/vector_values.hpp) and their nodes
// (nodes/nodes_vector.cpp): polydat's generators and scalar f32 math, its
// list nodes, text both ways, every engine and the batch tier agreeing, the
// writers (JSON arrays in text rows, 2-d npy arrays), static dimensions, and
// the errors bad input gets.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "polyrt/batch.hpp"
#include "tests/test_support.hpp"
#include "value/vector_values.hpp"

namespace polyrt::test {
namespace {

// SplitMix64's output at state x + the golden gamma: polydat's hash.
uint64_t splitmix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

std::vector<float> f32_elements(const Value& v) {
  EXPECT_EQ(v.type(), Type::VecF32);
  std::vector<float> out(vector_size(Type::VecF32, v.as_vector()));
  std::memcpy(out.data(), v.as_vector().data(), v.as_vector().size());
  return out;
}

// A vec_f32 literal's text holding exactly these f32s.
std::string f32_text(const std::vector<float>& values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s%.9g", i ? ", " : "", (double)values[i]);
    text += buf;
  }
  return text + "]";
}

Value pull(const std::string& source, const std::string& name, uint64_t cycle = 0) {
  State s = compile(source)->new_state();
  s.set_inputs({cycle});
  return s.pull(name);
}

TEST(Vectors, HashVecIsPolydatsSplitMixMapping) {
  const Value v = pull("input c\nv := hash_vec(7, 16)\n", "v");
  const std::vector<float> got = f32_elements(v);
  ASSERT_EQ(got.size(), 16u);
  for (uint64_t i = 0; i < 16; ++i) {
    const uint64_t h = splitmix(7 + i * 0x9E3779B97F4A7C15ull);
    EXPECT_EQ(got[i], (float)((double)h / 18446744073709551616.0 * 2.0 - 1.0)) << i;
    EXPECT_TRUE(got[i] >= -1.0f && got[i] <= 1.0f);
  }
  EXPECT_FALSE(v.same_as(pull("input c\nv := hash_vec(8, 16)\n", "v")));
  EXPECT_EQ(pull("input c\nv := hash_vec(c, 0)\n", "v").to_string(), "[]");
}

TEST(Vectors, Xxhash3VecMatchesXxh3OfSeedAndIndex) {
  // XXH3-64 of the 16 bytes (0, i) little-endian, from the xxhash package.
  EXPECT_EQ(pull("input c\nv := xxhash3_vec(c, 3)\n", "v").to_string(),
            "[0.6300786,-0.8985693,-0.29754236]");
}

TEST(Vectors, MathFollowsPolydatsScalarReference) {
  const std::string program =
      "input c\na := hash_vec(c, 1029)\nb := hash_vec(c + 1, 1029)\n"
      "s := vec_add(a, b)\nd := vec_dot(a, b)\nl := vec_l2(a, b)\ncs := vec_cosine(a, a)\n"
      "k := vec_scale(a, 2.0)\nn := vec_norm(a)\n";
  State state = compile(program)->new_state();
  state.set_inputs({5});
  const std::vector<float> a = f32_elements(state.pull("a")), b = f32_elements(state.pull("b"));
  const std::vector<float> s = f32_elements(state.pull("s")), k = f32_elements(state.pull("k"));
  float dot = -0.0f, l2 = -0.0f;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(s[i], a[i] + b[i]) << i;
    EXPECT_EQ(k[i], a[i] * 2.0f) << i;
    const float p = a[i] * b[i];
    dot += p;
    const float d = a[i] - b[i];
    const float dd = d * d;
    l2 += dd;
  }
  EXPECT_EQ(state.pull("d").as_f64(), (double)dot);
  EXPECT_EQ(state.pull("l").as_f64(), std::sqrt((double)l2));
  EXPECT_NEAR(state.pull("cs").as_f64(), 1.0, 1e-6);
  double magnitude = 0;
  for (float x : f32_elements(state.pull("n"))) magnitude += (double)x * x;
  EXPECT_NEAR(std::sqrt(magnitude), 1.0, 1e-4);
  // A zero vector passes through vec_norm; its cosine is 0.
  EXPECT_EQ(pull("input c\nz := vec_norm(str_to_vec_f32(\"[0, 0, 0]\"))\n", "z").to_string(),
            "[0,0,0]");
  EXPECT_EQ(pull("input c\nz := vec_cosine(str_to_vec_f32(\"[0, 0]\"), "
                 "str_to_vec_f32(\"[1, 2]\"))\n",
                 "z")
                .as_f64(),
            0.0);
}

TEST(Vectors, LidMleClosedFormAndDegenerateCases) {
  // polydat's tests: r_j = e^j for j = 0..9 gives 9 / 45 = 0.2.
  std::vector<float> distances;
  for (int j = 0; j < 10; ++j) distances.push_back(std::exp((float)j));
  const auto lid = [](const std::string& text, const std::string& k) {
    return pull("input c\nx := lid_mle(str_to_vec_f32(\"" + text + "\"), " + k + ")\n", "x")
        .as_f64();
  };
  EXPECT_NEAR(lid(f32_text(distances), "10.0"), 0.2, 1e-4);
  EXPECT_EQ(lid("[1.0]", "10.0"), 0.0);
  EXPECT_EQ(lid("[0, 0, 0]", "3.0"), 0.0);
  const float e = 2.718281828f;
  EXPECT_NEAR(lid(f32_text({0.0f, e, e * e}), "3.0"), 1.0, 1e-4);
  EXPECT_EQ(lid(f32_text(distances), "-1.0"), 0.0);  // k saturates to 0, as Rust's cast
}

// polydat's boundary adapter: a text where a vector port wants a vector is
// read as the JSON array it holds (its documented vec_norm / lid_mle calls).
TEST(Vectors, AVectorPortReadsATextAsItsArray) {
  EXPECT_EQ(pull("input c\nz := vec_norm(\"[3.0, 4.0]\")\n", "z").to_string(), "[0.6,0.8]");
  EXPECT_NEAR(pull("input c\nx := lid_mle(\"[1.0, 2.718281828, 7.389056]\", 3.0)\n", "x").as_f64(),
              pull("input c\nx := lid_mle(str_to_vec_f32(\"[1.0, 2.718281828, 7.389056]\"), "
                   "3.0)\n",
                   "x")
                  .as_f64(),
              0.0);
  const std::string program =
      "input c\nt := printf(\"[{}, 2]\", c % 5)\nd := vec_dot(hash_vec(c, 2), t)\n"
      "l := vec_len_i64(str_to_vec_i64(\"[1, 2, 3]\"))\n";
  for (uint64_t x : {0ull, 3ull, 123456789ull}) values_everywhere(program, x, {"d", "l"});
  // A text that holds no array fails its row, naming the node and the text.
  try {
    pull("input c\nz := vec_norm(printf(\"[{}\", c))\n", "z");
    ADD_FAILURE() << "a text holding no array was read";
  } catch (const EvalError& e) {
    expect_contains(e.what(), {"str_to_vec_f32", "cannot read \"[0\""});
  }
}

TEST(Vectors, ListNodesOfIntegerVectors) {
  const std::string program =
      "input c\nv := str_to_vec_i32(\"[5, -3, 5, 9]\")\nw := str_to_vec_i32(\"[9, 5, 7]\")\n"
      "e := str_to_vec_i64(\"[]\")\n"
      "len := vec_len_i32(v)\nat := vec_at_i32(v, 1)\npast := vec_at_i32(v, 4)\n"
      "hi := vec_max_i32(v)\nlo := vec_min_i32(v)\nnone := vec_max_i64(e)\n"
      "has := vec_contains_i32(v, 9)\nwide := vec_contains_i32(v, 4294967301 as i64)\n"
      "pos := vec_position_i32(v, 5)\nmiss := vec_position_i32(v, 4)\n"
      "below := vec_count_below_i32(v, 6)\nboth := vec_intersect_count_i32(v, w)\n"
      "same := vec_set_eq_i32(v, str_to_vec_i32(\"[9, -3, 5]\"))\n"
      "diff := vec_set_eq_i32(v, w)\n";
  const std::vector<std::string> got =
      values_everywhere(program, 0,
                        {"len", "at", "past", "hi", "lo", "none", "has", "wide", "pos", "miss",
                         "below", "both", "same", "diff"});
  const std::vector<std::string> want = {"u64 4", "i64 -3", "i64 0", "i64 9", "i64 -3",
                                         "i64 0", "u64 1",  "u64 0", "u64 0", "u64 4",
                                         "u64 3", "u64 2",  "u64 1", "u64 0"};
  EXPECT_EQ(got, want);
}

TEST(Vectors, TextJsonAndTilesShowArrays) {
  const std::string program =
      "input c\nv := str_to_vec_f64(\" [1.5, -0.25, \\\"NaN\\\", 1e+300] \")\n"
      "i := str_to_vec_u64(\"[18446744073709551615, 0]\")\nj := v as json\nt := v as str\n"
      "p := printf(\"v={}\", i)\nij := i as json\n"
      "tile doc: json := {\"v\": ${v}, \"i\": ${i}, \"s\": \"${i}\"}\n";
  const std::vector<std::string> got =
      values_everywhere(program, 0, {"v", "j", "t", "p", "ij", "doc"});
  EXPECT_EQ(got[0], "vec_f64 [1.5,-0.25,NaN,1e+300]");
  EXPECT_EQ(got[1], "json [1.5,-0.25,null,1e300]");
  EXPECT_EQ(got[2], "str [1.5,-0.25,NaN,1e+300]");
  EXPECT_EQ(got[3], "str v=[18446744073709551615,0]");
  EXPECT_EQ(got[4], "json [18446744073709551615,0]");
  EXPECT_EQ(got[5],
            "str {\"v\": [1.5,-0.25,\"NaN\",1e+300], \"i\": [18446744073709551615,0], \"s\": "
            "\"[18446744073709551615,0]\"}");
}

// An f32 element is a JSON number in serde_json's form, as an f64 element
// is: "-0.0" and "2.0", not to_chars' "-0" and "2" (polydat's serde_json
// writes a vec_f32 that way).
TEST(Vectors, F32ElementsAreJsonNumbersLikeF64Ones) {
  const std::string program =
      "input c\nw := str_to_vec_f32(\"[-0.0, 1.5, 2, 0.000001, 0.1]\")\nj := w as json\n"
      "d := str_to_vec_f64(\"[-0.0, 1.5, 2, 0.000001]\") as json\n";
  const std::vector<std::string> got = values_everywhere(program, 0, {"j", "d"});
  EXPECT_EQ(got[0], "json [-0.0,1.5,2.0,1e-6,0.1]");
  EXPECT_EQ(got[1], "json [-0.0,1.5,2.0,1e-6]");
}

TEST(Vectors, TheBatchTierAgreesWithTheEngines) {
  const std::string program =
      "input c\na := hash_vec(c, 8)\nb := xxhash3_vec(hash(c), 8)\nd := vec_dot(a, b)\n"
      "n := vec_norm(vec_add(a, b))\nv := str_to_vec_u64(printf(\"[{}, {}]\", c, hash(c)))\n";
  BatchOptions options;
  options.chunk_rows = 300;
  const auto columns = BatchEvaluator(compile(program), options).evaluate(0, 1000);
  State state = compile(program, CompileOptions{.engine = Engine::Interpreter})->new_state();
  for (uint64_t r = 0; r < 1000; ++r) {
    state.set_inputs({r});
    for (const Column& column : columns) {
      const Value want = state.pull(column.name);
      if (is_vector(column.type)) {
        ASSERT_EQ(column.text(r), want.as_vector()) << column.name << " row " << r;
      } else {
        ASSERT_EQ(column.words[r], word_of(want)) << column.name << " row " << r;
      }
    }
  }
  for (uint64_t x : {0ull, 77ull, 123456789ull}) {
    values_everywhere(program, x, {"a", "b", "d", "n", "v"});
  }
}

TEST(Vectors, RowsAndNpyArrays) {
  const std::string dir = temp_dir();
  const std::string path =
      write_program(dir, "vectors.polydat",
                    "input c\na := hash_vec(c, 2)\nv := str_to_vec_i32(printf(\"[{}]\", c))\n"
                    "r := str_to_vec_i32(if(c == 1, \"[1, 2]\", \"[3]\"))\n");
  const CommandResult csv = run_polyrt("run " + path + " --cycles 0..2 --outputs a,v");
  ASSERT_EQ(csv.status, 0) << csv.err;
  EXPECT_EQ(csv.out,
            "a,v\n\"[0.7666216,-0.13694401]\",\"[0]\"\n"
            "\"[0.13312314,0.49156353]\",\"[1]\"\n");
  const CommandResult jsonl =
      run_polyrt("run " + path + " --cycles 1..2 --outputs a,v --format jsonl");
  EXPECT_EQ(jsonl.out, "{\"a\":[0.13312314,0.49156353],\"v\":[1]}\n");

  const std::string npy = dir + "/npy";
  const CommandResult ok =
      run_polyrt("run " + path + " --cycles 0..1000 --outputs a,v --format npy --out " + npy);
  ASSERT_EQ(ok.status, 0) << ok.err;
  std::string dict;
  const std::vector<uint8_t> data = read_npy(npy + "/a.npy", dict);
  expect_contains(dict, {"'descr': '<f4'", "'shape': (1000, 2)"});
  ASSERT_EQ(data.size(), 1000u * 2 * 4);
  State state = compile_file(path)->new_state();
  state.set_inputs({999});
  EXPECT_EQ(std::string(data.end() - 8, data.end()), state.pull("a").as_vector());
  read_npy(npy + "/v.npy", dict);
  expect_contains(dict, {"'descr': '<i4'", "'shape': (1000, 1)"});

  // Rows of different dimensions cannot be one 2-d array: refused, no directory.
  const std::string ragged = dir + "/ragged";
  const CommandResult bad =
      run_polyrt("run " + path + " --cycles 0..3 --outputs r --format npy --out " + ragged);
  EXPECT_NE(bad.status, 0);
  expect_contains(bad.err, {"npy output 'r'", "has 2 elements where others have 1",
                            "a 2-d npy array needs one dimension"});
  EXPECT_FALSE(exists(ragged));
}

TEST(Vectors, TheExampleWritesAnEmbeddingMatrix) {
  const std::string example = std::string(POLYRT_SOURCE_DIR) + "/examples/embeddings.polydat";
  const std::string npy = temp_dir() + "/embeddings";
  const CommandResult run = run_polyrt(
      "run " + example + " --cycles 0..500 --outputs embedding --format npy --out " + npy);
  ASSERT_EQ(run.status, 0) << run.err;
  std::string dict;
  const std::vector<uint8_t> data = read_npy(npy + "/embedding.npy", dict);
  expect_contains(dict, {"'descr': '<f4'", "'shape': (500, 64)"});
  ASSERT_EQ(data.size(), 500u * 64 * 4);
  for (size_t row = 0; row < 500; row += 99) {  // unit vectors
    double sum = 0;
    for (size_t i = 0; i < 64; ++i) {
      float x;
      std::memcpy(&x, data.data() + (row * 64 + i) * 4, 4);
      sum += (double)x * x;
    }
    EXPECT_NEAR(sum, 1.0, 1e-5) << row;
  }
  const auto program = compile_file(example);
  EXPECT_EQ(program->output_dimension(program->require_output("embedding")), 64u);
}

// Chunks of values too large for memory are the caller's error, named, with
// no output left behind (the address space capped at 3 GB; whichever chunk
// runs out first is named; not under ASan,
// whose shadow memory needs more: SANITIZE_SKIP).
// A vector whose size varies by row is not chunked by its size (below).
TEST(Vectors, ChunksTooLargeForMemoryAreRefusedNotInternalErrors) {
  const std::string dir = temp_dir();
  const std::string path =
      write_program(dir, "huge.polydat", "input c\ne := hash_vec(c, 1000000 + c % 2)\n");
  const CommandResult run =
      run_polyrt_with("ulimit -v 3000000;",
                      "run " + path + " --cycles 0..100000 --format npy --out " + dir + "/out");
  EXPECT_EQ(run.status, 1) << run.err;
  expect_contains(run.err,
                  {"out of memory evaluating rows ", "make them smaller or the chunks shorter"});
  EXPECT_FALSE(exists(dir + "/out"));
}

// Chunks of fixed-size vectors are shortened to 64 MiB of them: 8192 rows
// of hash_vec(c, 65536) were 4 GiB a chunk, and 1000 rows failed under 2 GB.
TEST(Vectors, ChunksOfLargeVectorsAreShortened) {
  const auto program = compile("input c\nv := hash_vec(c, 65536)\nh := hash(c)\n");
  uint64_t longest = 0, rows = 0;
  BatchEvaluator(program, {}).stream(0, 1000, [&](const ColumnChunk& chunk) {
    longest = std::max(longest, chunk.rows);
    rows += chunk.rows;
  });
  EXPECT_EQ(rows, 1000u);
  EXPECT_EQ(longest, (uint64_t{64} << 20) / (65536 * 4));  // 256 rows
  BatchOptions given;
  given.chunk_rows = 500;  // the caller's choice stands
  longest = 0;
  BatchEvaluator(program, given).stream(0, 1000, [&](const ColumnChunk& chunk) {
    longest = std::max(longest, chunk.rows);
  });
  EXPECT_EQ(longest, 500u);
}

TEST(Vectors, StaticDimensions) {
  const auto program = compile(
      "input c\nextern q: vec_f32 = \"[1, 2]\"\na := hash_vec(c, 768)\nn := vec_norm(vec_add(a, "
      "a))\n"
      "k := str_to_vec_f32(\"[1, 2, 3]\")\nw := hash_vec(c, c)\nl := "
      "str_to_vec_i32(printf(\"[{}]\", c))\n"
      "e := q\nd := vec_dot(a, a)\n");
  const auto dim = [&](const char* name) {
    return program->output_dimension(program->require_output(name));
  };
  EXPECT_EQ(dim("a"), 768u);
  EXPECT_EQ(dim("n"), 768u);
  EXPECT_EQ(dim("k"), 3u);
  EXPECT_EQ(dim("w"), std::nullopt);
  EXPECT_EQ(dim("l"), std::nullopt);
  EXPECT_EQ(dim("e"), std::nullopt);  // an extern may be set to any length
  EXPECT_EQ(dim("d"), std::nullopt);  // not a vector
}

TEST(Vectors, BadInputGetsClearErrors) {
  expect_contains(thrown_message<Error>(
                      [] { pull("input c\nx := vec_add(hash_vec(c, 4), hash_vec(c, 3))\n", "x"); }),
                  {"vec_add: operand lengths differ (4 vs 3)"});
  expect_contains(thrown_message<Error>([] { pull("input c\nx := hash_vec(c, 1 << 21)\n", "x"); }),
                  {"hash_vec: dim 2097152 is above the largest vector, 1048576 elements"});
  expect_contains(
      thrown_message<Error>([] { pull("input c\nx := str_to_vec_i32(\"[1, 2.5]\")\n", "x"); }),
      {"str_to_vec_i32: cannot read \"[1, 2.5]\"", "element 1 (2.5)",
       "an integer in -2147483648..2147483647"});
  expect_contains(
      thrown_message<Error>([] { pull("input c\nx := str_to_vec_f32(\"[1e400]\")\n", "x"); }),
      {"str_to_vec_f32: cannot read \"[1e400]\": a number out of the f64 range"});
  // Past f32's range (but not f64's): infinite, as polydat's `as f32`.
  EXPECT_EQ(pull("input c\nx := str_to_vec_f32(\"[1e39, -1e39]\")\n", "x").to_string(),
            "[inf,-inf]");
  expect_contains(thrown_message<Error>([] { pull("input c\nx := str_to_vec_f64(\"3\")\n", "x"); }),
                  {"not a JSON array"});
  expect_contains(
      compile_error("input c\nx := hash_vec(c, 4) as u64\n"),
      {"no conversion from vec_f32 to u64", "a vector converts to str, bytes and json"});
  expect_contains(compile_error("input c\nx := vec_dot(hash_vec(c, 2), str_to_vec_i64(\"[1]\"))\n"),
                  {"argument 'b' of 'vec_dot' expects vec_f32, got vec_i64"});
  expect_contains(compile_error("input c\nextern q: vec_f32 = \"[1, x]\"\n"),
                  {"cannot read \"[1, x]\" as vec_f32"});
  expect_contains(compile_error("input c\nextern q: vec_i8\n"),
                  {"polydat's type 'vec_i8' is not supported by polyrt yet"});
  State s = compile("input c\nextern q: vec_i32 = \"[1]\"\nx := vec_len_i32(q)\n")->new_state();
  s.set_input("q", parse_value("[4, 5, 6]", Type::VecI32, "extern q"));
  s.set_inputs({0});
  EXPECT_EQ(s.pull("x").as_u64(), 3u);
  expect_contains(
      thrown_message<WriteError>([] { parse_value("[1, 3000000000]", Type::VecI32, "extern q"); }),
      {"cannot read \"[1, 3000000000]\" as vec_i32 for extern q", "element 1 (3000000000)"});
}

}  // namespace
}  // namespace polyrt::test
