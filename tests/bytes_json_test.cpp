// The bytes and json types: digests and encodings against published test
// vectors, the JSON parser and printer, the nodes and conversions on every
// engine, and how the row writers show them.
#include <gtest/gtest.h>

#include "polyrt/batch.hpp"
#include "polyrt/polyrt.hpp"
#include "rtlib/byte_encodings.hpp"
#include "rtlib/digests.hpp"
#include "rtlib/json_text.hpp"
#include "tests/test_support.hpp"

namespace polyrt {
namespace {

using test::expect_contains;
using test::values_everywhere;

TEST(Bytes, DigestsMatchThePublishedVectors) {
  EXPECT_EQ(rt::hex_text(rt::sha256("")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(rt::hex_text(rt::sha256("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(rt::hex_text(rt::sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(rt::hex_text(rt::sha256(std::string(1000000, 'a'))),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  // Around the padding's block boundaries (from Python's hashlib).
  const struct {
    size_t n;
    const char* sha256;
    const char* md5;
  } lengths[] = {{55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318",
                  "ef1772b6dff9a122358552954ad0df65"},
                 {63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34",
                  "b06521f39153d618550606be297466d5"},
                 {64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb",
                  "014842d480b571495a4a0363793f7367"},
                 {119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb",
                  "8a7bd0732ed6a28ce75f6dabc90e1613"},
                 {120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c",
                  "5f61c0ccad4cac44c75ff505e1f1e537"}};
  for (const auto& l : lengths) {
    EXPECT_EQ(rt::hex_text(rt::sha256(std::string(l.n, 'a'))), l.sha256) << l.n;
    EXPECT_EQ(rt::hex_text(rt::md5(std::string(l.n, 'a'))), l.md5) << l.n;
  }
  EXPECT_EQ(rt::hex_text(rt::md5("")), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(rt::hex_text(rt::md5("abc")), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(rt::hex_text(rt::md5("The quick brown fox jumps over the lazy dog")),
            "9e107d9d372bb6826bd81d3542a419d6");
}

TEST(Bytes, EncodingsMatchRfc4648) {
  const char* plain[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
  const char* base64[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
  const char* base32[] = {
      "", "MY======", "MZXQ====", "MZXW6===", "MZXW6YQ=", "MZXW6YTB", "MZXW6YTBOI======"};
  for (int i = 0; i < 7; ++i) {
    EXPECT_EQ(rt::to_base64(plain[i]), base64[i]);
    EXPECT_EQ(rt::from_base64(base64[i]), plain[i]);
    EXPECT_EQ(rt::to_base32(plain[i]), base32[i]);
    EXPECT_EQ(rt::from_base32(base32[i]), plain[i]);
  }
  for (const char* bad : {"Zg=", "Zh==", "Z===", "Zg==Zg==", "Zm9*", "=Zm9"}) {
    EXPECT_EQ(rt::from_base64(bad), "") << bad;
  }
  EXPECT_EQ(rt::hex_text(std::string("\x00\xff\x10", 3)), "00ff10");
  EXPECT_EQ(rt::from_hex("00FFx1 10fa"), std::string("\x00\xff\x0f", 3));  // x1, " 1", a: skipped
}

std::string canonical(const std::string& text) {
  std::string error;
  auto v = rt::parse_json(text, error);
  return v ? rt::json_text(*v) : "error: " + error;
}

TEST(Json, ParsesAndPrintsCompactWithSortedKeys) {
  EXPECT_EQ(canonical(" { \"b\" : [1, 2.50, \"x\\u00e9\\n\"], \"a\": null, \"b\": true } "),
            "{\"a\":null,\"b\":true}");
  EXPECT_EQ(
      canonical("[1e2, -0.5, 18446744073709551615, 18446744073709551616, -9223372036854775808]"),
      "[100.0,-0.5,18446744073709551615,1.8446744073709552e19,-9223372036854775808]");
  EXPECT_EQ(canonical("\"\\ud83d\\ude00 \\/\\\"\\u0001\""), "\"\xf0\x9f\x98\x80 /\\\"\\u0001\"");
  expect_contains(canonical("{\"a\" 1}"), {"error: ':' expected at offset 5"});
  expect_contains(canonical("[01]"), {"a bad number"});
  expect_contains(canonical("\"\\ud800\""), {"an unpaired surrogate"});
  // serde_json's recursion limit: 127 levels nest, a 128th is refused.
  EXPECT_EQ(canonical(std::string(127, '[') + std::string(127, ']')),
            std::string(127, '[') + std::string(127, ']'));
  expect_contains(canonical(std::string(128, '[') + std::string(128, ']')),
                  {"nested more than 127 levels deep"});
  std::string objects;
  for (int k = 0; k < 128; ++k) objects += "{\"a\":";
  expect_contains(canonical(objects + "1" + std::string(128, '}')),
                  {"nested more than 127 levels deep"});
  // serde_json reads -0 as the double -0.0 (no integer is negative zero).
  EXPECT_EQ(canonical("[-0, 0, -0.0, -0e0]"), "[-0.0,0,-0.0,-0.0]");
  expect_contains(canonical("1 2"), {"text after the value"});
  expect_contains(canonical("[1e400]"), {"a number out of the f64 range"});
  // A byte that is not UTF-8 is the lone surrogate \udcXX both ways.
  EXPECT_EQ(rt::json_quoted(std::string("a\xff\xc3\xa9", 4)), "\"a\\udcff\xc3\xa9\"");
  std::string error;
  EXPECT_EQ(rt::parse_json("\"a\\udcff\"", error)->scalar, std::string("a\xff"));
  expect_contains(canonical("\"\\udc10\""), {"an unpaired surrogate"});
}

TEST(Bytes, NodesAndConversionsOnEveryEngine) {
  const std::string source =
      "input x\nextern key: bytes = \"00ff\"\n"
      "k := key\nle := (x + 258) as u16 as bytes\nword := u64_to_bytes(x)\n"
      "f := 1.5 as f32 as bytes\ntext := \"h\u00e9\" as bytes\n"
      "d := to_hex(sha256(\"abc\" as bytes))\ncut := byte_slice(bytes_from_hash(x, 20), 16, 8)\n"
      "b64 := to_base64(md5(x))\nshown := \"{key}\"\n";
  const auto got =
      values_everywhere(source, 1, {"k", "le", "word", "f", "text", "d", "cut", "b64", "shown"});
  EXPECT_EQ(got[0], "bytes 00ff");
  EXPECT_EQ(got[1], "bytes 0301");
  EXPECT_EQ(got[2], "bytes 0100000000000000");
  EXPECT_EQ(got[3], "bytes 0000c03f");
  EXPECT_EQ(got[4], "bytes 68c3a9");
  EXPECT_EQ(got[5], "str ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(got[6].size(), std::string("bytes ").size() + 8);  // 4 of the 20 bytes remain
  EXPECT_EQ(got[8], "str 00ff");
  expect_contains(test::compile_error("extern key: bytes = \"0g\"\ny := key\n"),
                  {"cannot read \"0g\" as bytes (expected pairs of hex digits"});
  expect_contains(test::compile_error("input x\ny := to_json(x) as bytes\n"),
                  {"no conversion from json to bytes"});
}

// json_with, and json_object of json_with parts (objects of them too), are
// written directly (graph/passes.cpp) with json_object's meaning: keys
// sorted, a later part's member replacing an earlier one's, members merged
// from object parts, values as to_json converts them.
TEST(Json, ObjectsOfMembersKeepJsonObjectsMeaning) {
  const std::string source =
      "input x\n"
      "a := json_object(json_with(\"b\", x), json_with(\"a\", \"q\\\"\\n\" + x), "
      "json_with(\"b\", x * 2))\n"
      "merged := json_object(a, json_with(\"z\", sqrt(-1.0)), json_with(\"f\", 1.5 as f32), "
      "json_with(\"n\", x as i8 - 3), json_with(\"t\", x > 0), json_with(\"é\", 0.000001))\n"
      "one := json_with(\"k\", 1e16)\n"
      "text := merged as str\n";
  const auto got = values_everywhere(source, 1, {"a", "merged", "one", "text"});
  const std::vector<std::string> want = {
      R"(json {"a":"q\"\n1","b":2})",
      R"(json {"a":"q\"\n1","b":2,"f":1.5,"n":-2,"t":1,"z":null,"é":1e-6})", R"(json {"k":1e16})",
      R"(str {"a":"q\"\n1","b":2,"f":1.5,"n":-2,"t":1,"z":null,"é":1e-6})"};
  EXPECT_EQ(got, want);
}

TEST(Json, NodesAndConversionsOnEveryEngine) {
  const std::string source =
      "input x\nextern doc: json = '{{\"z\": [1, 2.50], \"a\": \"s\"}}'\n"
      "n := to_json(x)\nf := to_json(0.00001) + \"|\" + to_json(0.000001) + \"|\" + "
      "to_json(1e16) + \"|\" + to_json(100.0) + \"|\" + to_json(sqrt(-1.0))\n"
      "o := json_object(json_with(\"id\", x), doc, json_with(\"a\", x > 0))\n"
      "arr := json_array(x as i8 - 3, \"q\\\"\", 1.5 as f32, \"\u00e9\" as bytes)\n"
      "m := json_merge(doc, json_with(\"z\", 0))\nfield := json_field(doc, \"z\")\n"
      "missing := json_field(n, \"z\")\nparsed := '[1, 2]' as json\nbad := '{{' as json\n"
      "loose := str_to_json('nope')\ntext := json_to_str(o)\n";
  const auto got = values_everywhere(
      source, 1, {"n", "f", "o", "arr", "m", "field", "missing", "parsed", "bad", "loose", "text"});
  const std::vector<std::string> want = {
      "json 1",
      "str 0.00001|1e-6|1e16|100.0|null",
      "json {\"a\":1,\"id\":1,\"z\":[1,2.5]}",
      "json [-2,\"q\\\"\",1.5,\"w6k=\"]",
      "json {\"a\":\"s\",\"z\":0}",
      "json [1,2.5]",
      "json null",
      "json [1,2]",
      "json {\"error\":\"invalid JSON\",\"message\":\"a key expected at offset 1\",\"raw\":\"{\"}",
      "json null",
      "str {\"a\":1,\"id\":1,\"z\":[1,2.5]}"};
  EXPECT_EQ(got, want);
}

TEST(Json, RowFormatsEmbedJsonAndShowBytesAsHex) {
  const std::string dir = test::temp_dir();
  const std::string program = test::write_program(
      dir, "j.polydat", "input x\no := json_with(\"k\", x)\nb := u64_to_bytes(x) \n");
  auto jsonl = test::run_polyrt("run " + program + " --cycles 1..3 --format jsonl");
  EXPECT_EQ(jsonl.out,
            "{\"o\":{\"k\":1},\"b\":\"0100000000000000\"}\n"
            "{\"o\":{\"k\":2},\"b\":\"0200000000000000\"}\n");
  auto csv = test::run_polyrt("run " + program + " --cycles 1..2 --format csv");
  EXPECT_EQ(csv.out, "o,b\n\"{\"\"k\"\":1}\",0100000000000000\n");
  auto npy = test::run_polyrt("run " + program + " --cycles 1..2 --format npy --out " + dir + "/n");
  EXPECT_NE(npy.status, 0);
  expect_contains(npy.err, {"output 'o' is a json"});
}

// printf's columnar form makes room for a bytes argument's hex text, twice
// its length (it made room for the length alone: long bytes overran the
// column). The batch tier's text equals the interpreter's, row by row.
TEST(Bytes, PrintfOfLongBytesInTheBatchTier) {
  const char* source = "input x\nb := bytes_from_hash(x, 3000)\nt := \"<{b}>\"\n";
  BatchOptions options;
  options.outputs = {"t"};
  options.coordinates = {0};
  options.chunk_rows = 64;
  const auto columns = BatchEvaluator(compile(source), options).evaluate(0, 200);
  State state = compile(source, CompileOptions{.engine = Engine::Interpreter})->new_state();
  for (uint64_t r = 0; r < 200; ++r) {
    state.set_inputs({r});
    const std::string want = state.pull("t").as_str();
    ASSERT_EQ(want.size(), 6002u);
    ASSERT_EQ(columns[0].text(r), want) << r;
  }
}

}  // namespace
}  // namespace polyrt
