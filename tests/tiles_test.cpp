// polydat's tiles (expand/tiles.hpp): templates with typed holes, branches,
// projections and splices, rendered byte for byte as polydat's renderer
// does (its renderer tests' and its tutorial's documented outputs, in
// programs of our own), the same on every engine and the batch tier; and
// what bad templates get.
#include <gtest/gtest.h>

#include "polyrt/batch.hpp"
#include "rtlib/text.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

// The text of `name` at cycle `c`, which every engine must agree on.
std::string render(const std::string& program, uint64_t c, const std::string& name) {
  const std::vector<std::string> got = values_everywhere(program, c, {name});
  EXPECT_EQ(got[0].substr(0, 4), "str ") << got[0];
  return got[0].substr(4);
}

TEST(Tiles, HolesEncodeByTypeAndPlace) {
  const std::string p = R"p(input cycle: u64
who := "row-{cycle}"
tile line : text := "id=${cycle} who=${who} twice=${cycle * 2} raw=${who!}"
quoted := "say \"hi\""
high := u64_gt(cycle, 3)
third := to_f64(cycle) / 3.0
tile doc : json := {"id": ${cycle}, "q": ${quoted}, "inside": "v-${quoted}", "third": ${third | .2}, "high": ${high: bool}, "fixed": {"a": [1, 2]}}
tile typed : json := {"text": ${cycle: str}, "number": ${cycle}}
pair := "x,y"
tile row : csv := "${cycle},${pair},bare"
)p";
  EXPECT_EQ(render(p, 7, "line"), "id=7 who=row-7 twice=14 raw=row-7");
  EXPECT_EQ(
      render(p, 5, "doc"),
      R"({"id": 5, "q": "say \"hi\"", "inside": "v-say \"hi\"", "third": 1.67, "high": true, "fixed": {"a": [1, 2]}})");
  EXPECT_EQ(render(p, 9, "typed"), R"({"text": "9", "number": 9})");
  EXPECT_EQ(render(p, 1, "row"), R"(1,"x,y",bare)");
}

TEST(Tiles, FormatsApplyBeforeEncoding) {
  const std::string p = R"p(input cycle: u64
tile t : text := "${cycle | 04} ${cycle | x} ${cycle | X} ${to_f64(cycle) / 4.0 | .3} [${cycle | 6}] [${cycle | <6}] [${cycle | >6}]"
word := "ab"
tile s : json := {"w": ${word: str | 04}, "in": "${word | <4}"}
f := to_f64(cycle) + 0.5
tile n : text := "${f} ${to_f64(cycle)} ${f | .0} ${cycle | .2} ${f | x}"
)p";
  EXPECT_EQ(render(p, 255, "t"), "0255 ff FF 63.750 [   255] [255   ] [   255]");
  EXPECT_EQ(render(p, 255, "s"), R"({"w": "00ab", "in": "ab  "})");
  // An f64's shortest Debug form; .N rounds half to even on the binary value.
  EXPECT_EQ(render(p, 2, "n"), "2.5 2.0 2 2.00 2.5");
  EXPECT_EQ(render(p, 3, "n"), "3.5 3.0 4 3.00 3.5");
}

TEST(Tiles, EncodingCornerCases) {
  // One string holding a quote, a comma and a newline through each encoder.
  const std::string p = R"p(input cycle: u64
line := printf("a {} b, c{}d", "\"", "\n")
tile j : json := {"s": ${line}, "in": "x-${line}-y", "n": ${cycle: str}}
tile c : csv := "${line},${cycle},${cycle | 04}"
tile t := "[${line}]"
tile raw : json := {"raw": "${line!}"}
ctl := printf("{}{}", "tab\there", url_decode("%08%0C%01"))
tile k : json := {"c": ${ctl}}
)p";
  EXPECT_EQ(render(p, 1, "j"), R"({"s": "a \" b, c\nd", "in": "x-a \" b, c\nd-y", "n": "1"})");
  EXPECT_EQ(render(p, 1, "c"), "\"a \"\" b, c\nd\",1,0001");
  EXPECT_EQ(render(p, 1, "t"), "[a \" b, c\nd]");
  EXPECT_EQ(render(p, 1, "raw"), "{\"raw\": \"a \" b, c\nd\"}");
  // polydat's tiles escape only \" \\ \n \r \t by letter; other controls as \u00xx.
  EXPECT_EQ(render(p, 1, "k"), R"({"c": "tab\there\u0008\u000c\u0001"})");
}

TEST(Tiles, BranchesSelectAndTrimTheirPadding) {
  const std::string p = R"p(input cycle: u64
large := u64_gt(cycle, 10)
tile t : text := "n=${cycle} @if large { big } @else { small } end"
tile j : json := {"c": ${cycle}, "alert": @if mod(cycle, 2) { { "level": "high", "at": ${cycle} } } @else { null }}
label := if cycle == 0 { "" } else { if cycle == 1 { "false" } else { "yes" } }
tile s := "[@if label {on} @else {off}] [@if cycle {set}]"
)p";
  EXPECT_EQ(render(p, 20, "t"), "n=20 big end");
  EXPECT_EQ(render(p, 2, "t"), "n=2 small end");
  EXPECT_EQ(render(p, 3, "j"), R"({"c": 3, "alert": { "level": "high", "at": 3 }})");
  EXPECT_EQ(render(p, 4, "j"), R"({"c": 4, "alert": null})");
  // A str is true unless empty, "0" or "false".
  EXPECT_EQ(render(p, 0, "s"), "[off] []");
  EXPECT_EQ(render(p, 1, "s"), "[off] [set]");
  EXPECT_EQ(render(p, 2, "s"), "[on] [set]");
}

TEST(Tiles, ProjectionsUnrollOverTheirTuples) {
  const std::string p = R"p(input cycle: u64
base := cycle * 100
tile t : json := {"points": [@for s in 0..3 {{"n": ${s}, "v": ${base + s}}}]}
sweep := for k in 1..3, side in l,r
tile g : text := "@for sweep sep \"; \" {${k}:${side}}"
tile inside : json := {"list": "@for w in x,y sep \"|\" {${w}}"}
tile pad : text := "[@for k in 1..3 sep \"-\" { ${k} }] @for k in 1..5 where {k} > 3 {${k}}"
tile empty : json := {"none": [@for k in 1..1 { ${k} }], "ys": [@for k in 0..3 sep " | " { ${k + cycle} }]}
tile runs := "@for k in 0..3 {${k}}|@for k in 0..3 sep \", \" {${k}}"
tile cells : csv := "@for k in 0..3 {${k + cycle}}"
tile at := "@for s in 0..3 sep \",\" {${cycle + s}}"
ks := for k in 1..7
tile nested : json := {"rows": [ @for r in 0..2 { {"r": ${r}, "cells": [ @for c in 0..3 { ${base + r * 10 + c} } ]} } ], "big": [ @for ks where {k} > 4 { ${k} } ], "sampled": [ @for k in 1..100 order halton/4 { ${k} } ], "pick": [ @for g in hash_range(cycle, 1000) { ${g} } ]}
)p";
  EXPECT_EQ(render(p, 2, "t"),
            R"({"points": [{"n": 0, "v": 200},{"n": 1, "v": 201},{"n": 2, "v": 202}]})");
  EXPECT_EQ(render(p, 0, "g"), "1:l; 1:r; 2:l; 2:r");
  EXPECT_EQ(render(p, 0, "inside"), R"({"list": "x|y"})");
  EXPECT_EQ(render(p, 0, "pad"), "[1-2] 4");
  // A json tile is checked with one repetition per projection: separators
  // of the author's choosing are the author's.
  EXPECT_EQ(render(p, 1, "empty"), R"({"none": [], "ys": [1 | 2 | 3]})");
  EXPECT_EQ(render(p, 1, "runs"), "012|0, 1, 2");
  EXPECT_EQ(render(p, 1, "cells"), "1,2,3");
  EXPECT_EQ(render(p, 10, "at"), "10,11,12");
  EXPECT_EQ(
      render(p, 1, "nested"),
      R"({"rows": [ {"r": 0, "cells": [ 100,101,102 ]},{"r": 1, "cells": [ 110,111,112 ]} ], "big": [ 5,6 ], "sampled": [ 50,25,75,13 ], "pick": [ 465 ]})");
}

TEST(Tiles, SplicesTilesAsWiresAndConstants) {
  const std::string p = R"p(input cycle: u64
tile inner : json := {"n": ${cycle}, "twice": ${cycle * 2}}
tile outer : json := {"a": ${inner}, "b": ${inner}, "ok": true}
tile stmt := "INSERT INTO docs VALUES (${cycle}, '${outer!}')"
tile plain : text := "a \"b\""
tile carried : json := {"body": ${plain}}
word := "ok"
tile doc : json := {"w": ${word}, "xs": [@for i in 0..2 { ${i} }]}
tile wrapped : text := "INSERT ${cycle} '${doc!}'"
quoted := "INSERT doc '{inner}'"
upper := str_upper(inner)
tile fixed : json := {"schema": 3}
)p";
  EXPECT_EQ(render(p, 5, "outer"),
            R"({"a": {"n": 5, "twice": 10}, "b": {"n": 5, "twice": 10}, "ok": true})");
  EXPECT_EQ(
      render(p, 5, "stmt"),
      R"(INSERT INTO docs VALUES (5, '{"a": {"n": 5, "twice": 10}, "b": {"n": 5, "twice": 10}, "ok": true}'))");
  // Across encodings a tile is a str wire: quoted in a JSON value.
  EXPECT_EQ(render(p, 5, "carried"), R"({"body": "a \"b\""})");
  EXPECT_EQ(render(p, 3, "wrapped"), R"(INSERT 3 '{"w": "ok", "xs": [0,1]}')");
  EXPECT_EQ(render(p, 3, "quoted"), R"(INSERT doc '{"n": 3, "twice": 6}')");
  EXPECT_EQ(render(p, 3, "upper"), R"({"N": 3, "TWICE": 6})");
  // A tile without holes is a constant.
  const CommandResult plan = run_polyrt("plan " + write_program(temp_dir(), "t.polydat", p));
  ASSERT_EQ(plan.status, 0) << plan.err;
  EXPECT_NE(plan.out.find("fixed (str, constant)"), std::string::npos) << plan.out;
}

TEST(Tiles, DelimitersEscapesLayoutAndBodyForms) {
  const std::string p =
      "input cycle: u64\n"
      "tile page (delims \"<%\" \"%>\", sigil \"#\") := \"${keep} {{ x }} <%cycle%> "
      "#if cycle { live } #else { zero }\"\n"
      "tile lit := \"cost ${${amount} is ${cycle}, {braces}\"\n"
      "    tile block : json := {\n"
      "        \"a\": ${cycle},\n"
      "            \"b\": { \"deep\": ${cycle} }\n"
      "    }\n"
      "tile here := <<<\n"
      "INSERT ${cycle} 'x'\n"
      ">>>\n"
      "raw := <<<\n{not} \"interpolated\"\n>>>\n"
      "page2 := polytile(\"text\", \"<%cycle%> {{ k }} #if cycle { on } #else { off }\", "
      "open: \"<%\", close: \"%>\", sigil: \"#\")\n"
      "doc := polytile(\"json\", <<<\n{\"n\": ${cycle}}\n>>>)\n";
  EXPECT_EQ(render(p, 0, "page"), "${keep} {{ x }} 0 zero");
  EXPECT_EQ(render(p, 3, "page"), "${keep} {{ x }} 3 live");
  EXPECT_EQ(render(p, 3, "lit"), "cost ${amount} is 3, {braces}");
  EXPECT_EQ(render(p, 3, "block"), "{\n    \"a\": 3,\n        \"b\": { \"deep\": 3 }\n}");
  EXPECT_EQ(render(p, 3, "here"), "INSERT 3 'x'");
  EXPECT_EQ(render(p, 3, "raw"), "{not} \"interpolated\"");
  EXPECT_EQ(render(p, 3, "page2"), "3 {{ k }} on");
  EXPECT_EQ(render(p, 3, "doc"), "{\"n\": 3}");
}

// polytile_json: a JSON document whose strings are holes and whose arrays
// and keys led by "@for ..."/"@if ..." are directives, as the json tile
// polydat writes for it.
TEST(Tiles, StructuralJsonTemplates) {
  const std::string p = R"p(input cycle: u64
labels := for t in a,b
loud := u64_gt(cycle, 0)
doc := polytile_json(<<<
{
  "id": "${cycle}",
  "label": "row-${cycle}",
  "samples": [ "@for s in 0..2", { "n": "${s}", "twice": "${s * 2}" } ],
  "audit": [ "@if loud", { "by": "ops" }, "@else", null ],
  "tags": { "@for labels": { "${t}": true } }
}
>>>)
line := polytile("text", "cycle ${cycle}: ${doc!}")
points := polytile_json('{"id": "${cycle}", "label": "row-${cycle}", "points": ["@for s in 0..2", {"n": "${s}", "v": "${cycle + s}"}]}')
mixed := polytile_json('{"x": 1.5, "@for k in 0..2": {"k${k}": "${k}"}, "s": "${cycle: str}", "q": "a\"b ${cycle} $${${"}')
lead := polytile_json('{"@if loud": {"on": true}, "@else": {"on": false}, "n": null}')
none := polytile_json('{"a": 1, "@for k in 1..1": {"k": "${k}"}}')
)p";
  EXPECT_EQ(
      render(p, 0, "doc"),
      R"({"id": 0, "label": "row-0", "samples": [{"n": 0, "twice": 0},{"n": 1, "twice": 2}], "audit": [null], "tags": {"a": true,"b": true}})");
  EXPECT_EQ(
      render(p, 1, "line"),
      R"(cycle 1: {"id": 1, "label": "row-1", "samples": [{"n": 0, "twice": 0},{"n": 1, "twice": 2}], "audit": [{"by": "ops"}], "tags": {"a": true,"b": true}})");
  EXPECT_EQ(render(p, 4, "points"),
            R"({"id": 4, "label": "row-4", "points": [{"n": 0, "v": 4},{"n": 1, "v": 5}]})");
  // A directive after a member carries its comma into each repetition.
  EXPECT_EQ(render(p, 3, "mixed"), R"({"x": 1.5, "k0": 0, "k1": 1, "s": "3", "q": "a\"b 3 $${"})");
  // A leading directive carries its comma last; a directive's padding is
  // not its body, so no space follows it.
  EXPECT_EQ(render(p, 0, "lead"), R"({"on": false,"n": null})");
  EXPECT_EQ(render(p, 2, "lead"), R"({"on": true,"n": null})");
  EXPECT_EQ(render(p, 0, "none"), R"({"a": 1})");
  expect_contains(compile_error("input c\nd := polytile_json('{\"a\": \"@for s in 0..2\"}')\n"),
                  {"tile 'd': the structural template: directive string `@for s in 0..2` outside "
                   "a directive position"});
  expect_contains(compile_error("input c\nd := polytile_json('{\"a\": \"x @if c {y}\"}')\n"),
                  {"contains a directive; in the structural form directives are arrays and "
                   "object keys"});
  expect_contains(compile_error("input c\nd := polytile_json('[\"@else\", 1]')\n"),
                  {"`@else` without a leading `@if`"});
  expect_contains(compile_error("input c\nd := polytile_json('{\"@for k in 0..2\": 3}')\n"),
                  {"must be an object of members"});
  expect_contains(compile_error("input c\nd := polytile_json('{\"a\": }')\n"),
                  {"tile 'd': the structural template: expected a JSON value"});
}

TEST(Tiles, TheOlderHeaderIsAcceptedWithAWarning) {
  const auto program = compile("input cycle: u64\ntile t : json {\"n\": ${cycle}}\n");
  ASSERT_EQ(program->warnings().size(), 1u);
  expect_contains(program->warnings()[0], {"older header without ':='"});
  State s = program->new_state();
  s.set_inputs({4});
  EXPECT_EQ(s.pull("t").as_str(), "{\"n\": 4}");
}

TEST(Tiles, TilesInModulesAndTraversalBodies) {
  const std::string p = R"p(input cycle: u64
label(n: u64, tag: str) -> (out: str) := {
    tile t : json := {"n": ${n}, "twice": ${n * 2}, "tag": ${tag}}
    out := t
}
a := label(n: cycle, tag: "first")
b := label(n: cycle + 100, tag: "second")
)p";
  EXPECT_EQ(render(p, 2, "a"), R"({"n": 2, "twice": 4, "tag": "first"})");
  EXPECT_EQ(render(p, 2, "b"), R"({"n": 102, "twice": 204, "tag": "second"})");
}

// A projection over a constant vector node unrolls its elements, each of
// its element type (an f32 in its f32 digits, a negative i32); a per-row
// vector or a partition element is refused, naming why.
TEST(Tiles, ProjectionsOverConstantVectorsUnrollTheirElements) {
  EXPECT_EQ(
      render("input c\ntile t : json := {\"v\": [@for x in hash_vec(7, 2) sep \",\" { ${x} }]}\n",
             0, "t"),
      "{\"v\": [-0.2203405,-0.9664234]}");
  EXPECT_EQ(render("input c\ntile t := \"@for x in str_to_vec_i32(\\\"[-3, 4]\\\") sep \\\",\\\" { "
                   "${x} }\"\n",
                   0, "t"),
            "-3,4");
  expect_contains(compile_error("input c\ntile t := \"@for x in hash_vec(c, 2) { ${x} }\"\n"),
                  {"reads `{c}`, a wire outside the comprehension"});
  expect_contains(
      compile_error(
          "input c\ntile t := \"@for p in partitions(\\\"*/2\\\", 10) { ${start_of(p)} }\"\n"),
      {"its element 'p' is a partition, which a tile's projection cannot unroll"});
}

// Found by the front end's fuzzer: a projection whose comprehension's
// canonical text does not parse again. The tile compiler parsed that text a
// second time and read the failed parse as a comprehension (undefined
// behaviour: ASan saw a bad free); it now uses the comprehension as parsed.
TEST(Tiles, AProjectionIsUsedAsParsedNotParsedAgain) {
  EXPECT_EQ(render(R"p(s:=c
tile o{{}""{""{}""{}}""{}@for e in({{""{}""""{(( 0 ))}}}]{}}
)p",
                   0, "o"),
            R"p({{}""{""{}""{}}""{}})p");
}

// A tile header's options ending in an unterminated string with a
// backslash last read past the text (the fuzzer's std::out_of_range, an
// abort): now a parse error like any other unterminated string.
TEST(Tiles, AnOptionStringCutShortIsAParseError) {
  for (const char* source :
       {"tile t (\"\\", "tile t (\"abc", "tile t ('\\", "tile t : csv (\"\\"}) {
    EXPECT_THROW(compile(source), Error) << source;
  }
}

TEST(Tiles, TheBatchTierWritesTheSameText) {
  const std::string p = R"p(input cycle: u64
id := mod(hash(cycle), 1000000)
name := one_of(hash(cycle + 1), "ann", "bo \"b\"", "c,d", "")
score := unit_interval(hash(cycle)) * 100.0
hot := u64_gt(mod(cycle, 3), 1)
tile doc : json := {"id": ${id}, "name": ${name}, "in": "n-${name}", "score": ${score | .1}, "s": ${score}, "hot": ${hot: bool}, "tags": [@for k in 0..2 { ${k + id} }], "state": @if hot { "hot" } @else { "cold" }}
tile row : csv := "${id},${name},${score | 08},${name | >6}"
)p";
  BatchOptions options;
  options.outputs = {"doc", "row"};
  options.coordinates = {0};
  options.chunk_rows = 1000;
  const auto columns = BatchEvaluator(compile(p), options).evaluate(0, 3000);
  State state = compile(p, CompileOptions{.engine = Engine::Interpreter})->new_state();
  for (uint64_t r = 0; r < 3000; ++r) {
    state.set_inputs({r});
    ASSERT_EQ(columns[0].text(r), state.pull("doc").as_str()) << r;
    ASSERT_EQ(columns[1].text(r), state.pull("row").as_str()) << r;
  }
}

// Where printf writes a hole's value as its encoder would, the tile's
// printf reads the value itself (graph/passes.cpp), escaping a str by its
// placeholder's spec: no encoder is left in the plan of a document of plain
// holes, and a branch's condition of a number is native.
TEST(Tiles, PlainHolesAreWrittenByTheTilesPrintf) {
  const std::string p = R"p(input cycle: u64
name := one_of(cycle, "a\"b", "c,d")
score := to_f64(cycle) / 8.0
tile doc : json := {"n": ${cycle}, "name": ${name}, "in": "x${name}", "s": ${score}, "f": ${score | .2}, "h": "${cycle | x}", "z": "${cycle | 06}", "even": @if cycle % 2 { false } @else { true }}
tile row : csv := "${name},${cycle | 4}"
)p";
  const CommandResult plan =
      run_polyrt("plan " + write_program(temp_dir(), "t.polydat", p) + " --engine batch");
  ASSERT_EQ(plan.status, 0) << plan.err;
  EXPECT_EQ(plan.out.find("__tile_encode"), std::string::npos) << plan.out;
  EXPECT_EQ(plan.out.find("host [__tile_truth"), std::string::npos) << plan.out;
  EXPECT_EQ(
      render(p, 29, "doc"),
      R"({"n": 29, "name": "a\"b", "in": "xa\"b", "s": 3.625, "f": 3.62, "h": "1d", "z": "000029", "even": false})");
  EXPECT_EQ(render(p, 28, "row"), "\"a\"\"b\",  28");
  // The escapes are the compiler's: a program's printf does not take them.
  expect_contains(compile_error("input x\nv := printf(\"{:!q}\", \"a\")\n"),
                  {"unsupported format spec '{:!q}'"});
  std::vector<rt::FormatSegment> segments;
  std::string error;
  for (const char* format : {"a{{b}}{}c{:!q}{:!s}{:!c}", "{:08.3}|{:x}|{:X}|{:5}|{:.0}|{:b}{:o}"}) {
    ASSERT_TRUE(rt::parse_format(format, segments, error, true)) << error;
    EXPECT_EQ(rt::format_text(segments), format);
  }
}

// `--format text` writes a tile's documents as they are, one per line.
TEST(Tiles, TheCommandWritesDocumentsAsTheyAre) {
  const std::string examples = std::string(POLYRT_SOURCE_DIR) + "/examples/documents.polydat";
  const CommandResult text =
      run_polyrt("run " + examples + " --cycles 5..9 --outputs order --format text");
  ASSERT_EQ(text.status, 0) << text.err;
  State s = compile_file(examples)->new_state();
  std::string expected;
  for (uint64_t c = 5; c < 9; ++c) {
    s.set_inputs({c});
    expected += s.pull("order").as_str() + "\n";
  }
  EXPECT_EQ(text.out, expected);
  const CommandResult two = run_polyrt("run " + examples + " --cycles 0..2 --format text");
  EXPECT_NE(two.status, 0);
  expect_contains(two.err, {"--format text writes the rows of one text output as they are"});
}

TEST(Tiles, BadTemplatesAreCompileErrorsNamingTheTileAndTheRule) {
  // A name in a hole is read as anywhere else: a near miss of a known name
  // is an error (an unknown one would be an inferred coordinate).
  expect_contains(compile_error("input cycle: u64\ntile t : text := \"${cycel}\"\n"),
                  {"t.polydat:2:21: error: unknown name 'cycel'", "did you mean 'cycle'?"});
  expect_contains(compile_error("input c\ntile t : text := \"a ${c\"\n"),
                  {"t.polydat:2:21: error: tile 't': '${' opens a hole that no '}' closes"});
  expect_contains(compile_error("input c\ntile t : json := {\"a\": ${c: text}}\n"),
                  {"tile 't': hole `${c: text}` declares an unknown type 'text'",
                   "str, bool, u64, i64 or f64"});
  expect_contains(compile_error("input c\ntile t : text := \"${c | q}\"\n"),
                  {"tile 't': hole `${c | q}` has an unknown format 'q'"});
  expect_contains(compile_error("input c\ns := \"{c}\"\ntile t : json := {\"n\": ${s: u64}}\n"),
                  {"tile 't': hole `${s: u64}`: no conversion from the wire type str to the "
                   "declared type u64; write the conversion explicitly in the expression"});
  expect_contains(compile_error("input cycle\ntile t : json (strict) := {\"f\": ${cycle: f64}}\n"),
                  {"strict mode rejects the implicit u64 -> f64 adapter"});
  expect_contains(compile_error("input cycle\ntile t : json := {\"n\": ${cycle} \"x\": 1}\n"),
                  {"tile 't': the json body is not valid JSON once every hole is a placeholder",
                   "the skeleton reads: {\"n\": 0 \"x\": 1}"});
  expect_contains(compile_error("input c\nlimit := c\ntile t := \"@for k in 1..9 where {k} < "
                                "{limit} {${k}}\"\n"),
                  {"tile 't': projection `for k in 1..9 where {k} < {limit}` reads `{limit}`, a "
                   "wire outside the comprehension"});
  expect_contains(compile_error("input c\ntile t := \"@for x in 0.0..1.0 {${x}}\"\n"),
                  {"tile 't': projection `for x in 0.0..1.0`"});
  expect_contains(
      compile_error("input c\ntile t : json := {\"a\": [@for x in json_array(c, c) { ${x} }]}\n"),
      {"'json_array' gives a json per row, whose items would be the tuples"});
  expect_contains(compile_error("input c\ntile t := \"@for k in 0..100001 {${k}}\"\n"),
                  {"unroll to more than 10000 repetitions"});
  expect_contains(compile_error("input c\ntile t := \"a @else { b }\"\n"),
                  {"tile 't': @else without an @if before it"});
  expect_contains(compile_error("input c\ntile t := \"@if c x\"\n"), {"tile 't': @if has no body"});
  expect_contains(compile_error("input c\ntile t : json := {\"a\": [1]\n"),
                  {"this '{' has no matching '}'"});
  expect_contains(compile_error("input c\ntile t : yaml := \"a\"\n"),
                  {"unknown tile encoding 'yaml'"});
  expect_contains(compile_error("input c\ntile t (colour \"x\") := \"a\"\n"),
                  {"unknown tile option 'colour'"});
  expect_contains(compile_error("input c\nx := <<<\nno end\n"), {"unterminated heredoc"});
  // Splices that reach themselves are a cycle of bindings.
  expect_contains(compile_error("input c\ntile a := \"x${b}\"\ntile b := \"y${a}\"\n"),
                  {"t.polydat:2:6: error: dependency cycle: a -> b -> a"});
  std::string deep = "input c\ntile t := \"";
  for (int k = 0; k < 100000; ++k) deep += "@if c {";
  deep += "x" + std::string(100000, '}') + "\"\n";
  expect_contains(compile_error(deep), {"tile 't': its directives nest more than 64 deep"});
}

// Templates of random pieces of tile syntax compile or are CompileErrors:
// never another exception, a crash or a hang.
TEST(Tiles, RandomTemplatesAreProgramsOrCompileErrors) {
  const char* pieces[] = {"${",
                          "}",
                          "${c}",
                          "${c | .2}",
                          "${c: str}",
                          "${c!}",
                          "${${",
                          "@if c {",
                          "@else {",
                          "@for k in 0..3 {",
                          "@for k in 0..3 sep \",\" {",
                          "{",
                          "[",
                          "]",
                          "\"",
                          "\\\"",
                          ", ",
                          ": ",
                          "0",
                          "${k}",
                          "<<<",
                          ">>>",
                          "@",
                          "$",
                          "x",
                          " ",
                          "\n",
                          "@for g in hash(c) {",
                          "${c | q}"};
  uint64_t state = 42;
  const auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 33;
  };
  const char* encodings[] = {"json", "text", "csv"};
  for (int round = 0; round < 2000; ++round) {
    std::string body;
    const uint64_t count = next() % 12;
    for (uint64_t k = 0; k < count; ++k) body += pieces[next() % std::size(pieces)];
    const std::string encoding = encodings[next() % 3];
    for (const std::string& form : {"{" + body + "}", "<<<" + body + ">>>"}) {
      const std::string program = "input c\ntile t : " + encoding + " := " + form + "\nv := 1\n";
      try {
        compile(program, CompileOptions{.engine = Engine::Interpreter});
      } catch (const CompileError&) {
      } catch (const std::exception& e) {
        ADD_FAILURE() << program << "\n" << e.what();
      }
    }
  }
}

}  // namespace
// A tile splicing the one before it twice doubles its text each time: 40
// of them once took gigabytes and ended in std::bad_alloc (exit 3). Past 16
// MiB of spliced text it is a compile error naming the limit.
TEST(Tiles, SplicesThatDoubleAreRefusedPastTheLimit) {
  std::string program = "input cycle\ntile t0 := \"a${cycle}\"\n";
  for (int n = 1; n <= 40; ++n) {
    program += "tile t" + std::to_string(n) + " := \"${t" + std::to_string(n - 1) + "}${t" +
               std::to_string(n - 1) + "}\"\n";
  }
  expect_contains(compile_error(program),
                  {"tile 't24'", "its splices of earlier tiles make its text longer than 16 MiB"});
  const CommandResult r = run_polyrt("check " + write_program(temp_dir(), "t.polydat", program));
  EXPECT_EQ(r.status, 1) << r.err;
}

// A json tile must be JSON whichever arm an @if takes: one without @else
// whose member's comma stays outside once rendered `{"a": 1,  }` when false.
TEST(Tiles, JsonBranchesMustParseEitherWay) {
  expect_contains(
      compile_error(
          "input cycle\ntile doc: json := {\"a\": 1, @if cycle % 2 == 0 { \"b\": 2 } }\n"),
      {"t.polydat:2:28",
       "tile 'doc': its json is not valid JSON when this @if takes its missing "
       "@else",
       "a comma before a member goes in the branch"});
  expect_contains(compile_error("input cycle\ntile doc: json := {\"a\": @if cycle % 2 == 0 { 1 } "
                                "@else { } }\n"),
                  {"when this @if takes its other arm"});
  const auto program =
      compile("input cycle\ntile doc: json := {\"a\": 1 @if cycle % 2 == 0 { , \"b\": 2 } }\n");
  State s = program->new_state();
  s.set_inputs({1});
  EXPECT_EQ(s.pull("doc").as_str(), "{\"a\": 1  }");
  // In a projection, the arms of the first repetition are checked.
  EXPECT_NO_THROW(
      compile("input cycle\ntile doc: json := [@for k in 0..3 { {\"k\": ${k} "
              "@if cycle > 1 { , \"x\": 1 } } }]\n"));
}

}  // namespace polyrt::test
