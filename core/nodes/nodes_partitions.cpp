// polydat's partition nodes: partitions() resolves a spec into a
// partition_list, partition_at and subdivide make partitions, and the
// projections (cardinality, start_of, mod_in, at, ...) turn one into
// ordinals. A partition value is carried as the JSON object polydat renders
// it as (a list as an array of them), so every writer shows it as polydat
// does. Projections of a partition known at compile time become native
// arithmetic (ConstantInputForm); the others are host steps.
#include <algorithm>
#include <charconv>
#include <string>
#include <string_view>

#include "nodes/partition_lists.hpp"
#include "nodes/partition_spec.hpp"
#include "nodes/registry.hpp"
#include "polyrt/cancellation.hpp"
#include "polyrt/error.hpp"
#include "rtlib/rtlib.h"
#include "rtlib/text.hpp"

namespace polyrt::nodes {

namespace {

using P = PortType;
using partitions::Partition;

constexpr std::string_view kFamily = "partitions";

// --- The JSON text of partition values ---------------------------------
// serde_json's form of polydat's to_json_value: members sorted by key,
// percentages as serde_json prints an f64.

void append_member(std::string& out, std::string_view key, uint64_t v) {
  out += '"';
  out += key;
  out += "\":";
  out += std::to_string(v);
}

void append_member(std::string& out, std::string_view key, double v) {
  char buf[rt::kF64ShortestText];
  out += '"';
  out += key;
  out += "\":";
  out.append(buf, rt::write_f64_json(buf, v));
}

void append_partition(std::string& out, const Partition& p) {
  out += '{';
  append_member(out, "base_extent", p.base_extent);
  out += ',';
  append_member(out, "cardinality", p.cardinality());
  out += ',';
  append_member(out, "count", p.count);
  out += ',';
  append_member(out, "end_ord", p.end_ord);
  out += ',';
  append_member(out, "end_pct", p.end_pct);
  out += ',';
  append_member(out, "idx", p.idx);
  out += ',';
  append_member(out, "start_ord", p.start_ord);
  out += ',';
  append_member(out, "start_pct", p.start_pct);
  out += '}';
}

Value partition_value(const Partition& p) {
  std::string text;
  append_partition(text, p);
  return Value::of_payload(Type::Partition, std::move(text));
}

Value list_value(const std::vector<Partition>& parts) {
  std::string text = "[";
  for (size_t i = 0; i < parts.size(); ++i) {
    // Up to 2^20 partitions' text: a stop must not wait for all of it.
    if (i % 4096 == 0) throw_if_cancelled("listing partitions");
    if (i) text += ',';
    append_partition(text, parts[i]);
  }
  text += ']';
  return Value::of_payload(Type::PartitionList, std::move(text));
}

// Reads the text append_partition writes, from `at`; the values only ever
// come from these nodes, so anything else is an internal error.
class PartitionReader {
 public:
  PartitionReader(std::string_view text, size_t at) : text_(text), at_(at) {}

  Partition read() {
    Partition p;
    expect("{");
    p.base_extent = u64("base_extent");
    expect(",");
    const uint64_t cardinality = u64("cardinality");
    expect(",");
    p.count = u64("count");
    expect(",");
    p.end_ord = u64("end_ord");
    expect(",");
    p.end_pct = f64("end_pct");
    expect(",");
    p.idx = u64("idx");
    expect(",");
    p.start_ord = u64("start_ord");
    expect(",");
    p.start_pct = f64("start_pct");
    expect("}");
    if (p.cardinality() != cardinality) broken();
    return p;
  }

 private:
  [[noreturn]] void broken() const {
    internal_error("a partition value's text is malformed at byte " + std::to_string(at_));
  }
  void expect(std::string_view s) {
    if (text_.substr(at_, s.size()) != s) broken();
    at_ += s.size();
  }
  void key(std::string_view k) {
    expect("\"");
    expect(k);
    expect("\":");
  }
  template <typename T>
  T number(std::string_view k) {
    key(k);
    T v{};
    const auto [end, ec] = std::from_chars(text_.data() + at_, text_.data() + text_.size(), v);
    if (ec != std::errc()) broken();
    at_ = (size_t)(end - text_.data());
    return v;
  }
  uint64_t u64(std::string_view k) { return number<uint64_t>(k); }
  double f64(std::string_view k) { return number<double>(k); }

  std::string_view text_;
  size_t at_;
};

Partition partition_of(const Value& v) {
  return PartitionReader(v.text(), 0).read();
}

// A list's entries are objects without nested braces: entry i starts at the
// i-th '{'.
size_t list_size(const std::string& text) {
  return (size_t)std::count(text.begin(), text.end(), '{');
}

Partition list_entry(const std::string& text, size_t i) {
  size_t at = 0;
  for (size_t k = 0; k <= i; ++k) at = text.find('{', at + (k ? 1 : 0));
  return PartitionReader(text, at).read();
}

}  // namespace

uint64_t partition_base_extent(const Value& partition) {
  return partition_of(partition).base_extent;
}

Value reprojected_partition(const Value& partition, uint64_t extent) {
  return partition_value(partitions::reproject(partition_of(partition), extent));
}

// Each entry's text is a partition value's (both are append_partition's).
std::vector<Value> partition_list_elements(const Value& list) {
  const std::string& text = list.text();
  std::vector<Value> out;
  out.reserve(list_size(text));
  for (size_t open = text.find('{'); open != std::string::npos; open = text.find('{', open)) {
    throw_if_cancelled("peeling a partition list");
    const size_t close = text.find('}', open);
    if (close == std::string::npos) internal_error("a partition list's text is malformed");
    out.push_back(Value::of_payload(Type::Partition, text.substr(open, close + 1 - open)));
    open = close;
  }
  return out;
}

namespace {

template <typename F>
auto spec_step(F&& f) {
  try {
    return f();
  } catch (const partitions::SpecError& e) {
    throw NodeFailure{e.message};
  }
}

// --- Ordinals inside a partition -----------------------------------------

template <uint64_t (*field)(const Partition&)>
void eval_field(Call& c) {
  c.set_u64(field(partition_of(c.input(0))));
}

uint64_t cardinality_of(const Partition& p) {
  return p.cardinality();
}
uint64_t start_of(const Partition& p) {
  return p.start_ord;
}
uint64_t end_of(const Partition& p) {
  return p.end_ord;
}
uint64_t idx_of(const Partition& p) {
  return p.idx;
}
uint64_t count_of(const Partition& p) {
  return p.count;
}

std::string at_failure(uint64_t i, uint64_t idx, uint64_t card) {
  return "index " + std::to_string(i) + " is out of range for partition #" + std::to_string(idx) +
         " of " + std::to_string(card) + " ordinals";
}

void eval_at(Call& c, uint64_t i, uint64_t start, uint64_t card, uint64_t idx) {
  uint64_t out;
  if (pd_at(i, start, card, &out) != PD_OK) throw NodeFailure{at_failure(i, idx, card)};
  c.set_u64(out);
}

// A projection's rtlib function applied to the value at `value_port` and
// the partition at `partition_port`, read per row.
template <uint64_t (*fn)(uint64_t, uint64_t, uint64_t), size_t value_port, size_t partition_port>
void eval_projection(Call& c) {
  const Partition p = partition_of(c.input(partition_port));
  c.set_u64(fn(c.u64(value_port), p.start_ord, p.cardinality()));
}

// The same with the partition's numbers as constants (start, cardinality,
// idx): the native node a projection of a constant partition becomes.
template <uint64_t (*fn)(uint64_t, uint64_t, uint64_t)>
void eval_native_projection(Call& c) {
  c.set_u64(fn(c.u64(0), c.param_u64(0), c.param_u64(1)));
}

NodeDef native_projection(std::string_view name, std::string_view input, std::string_view summary,
                          void (*eval)(Call&), NativeForm native) {
  return {.name = name,
          .family = "internal",
          .args = {wire(input, P::U64), konst("start", P::U64), konst("cardinality", P::U64),
                   konst("idx", P::U64)},
          .results = {Type::U64},
          .summary = summary,
          .eval = eval,
          .native = std::move(native)};
}

const NodeDef& mod_in_native() {
  static const NodeDef def = native_projection(
      "__mod_in", "n", "mod_in of a partition known at compile time.",
      eval_native_projection<pd_mod_in>, PD_NATIVE(pd_mod_in, in(0), param(0), param(1)));
  return def;
}

const NodeDef& clamp_in_native() {
  static const NodeDef def = native_projection(
      "__clamp_in", "n", "clamp_in of a partition known at compile time.",
      eval_native_projection<pd_clamp_in>, PD_NATIVE(pd_clamp_in, in(0), param(0), param(1)));
  return def;
}

const NodeDef& random_in_native() {
  static const NodeDef def = native_projection(
      "__random_in", "seed", "random_in of a partition known at compile time.",
      eval_native_projection<pd_random_in>, PD_NATIVE(pd_random_in, in(0), param(0), param(1)));
  return def;
}

const NodeDef& at_native() {
  static const NodeDef def = [] {
    NodeDef d = native_projection(
        "__at", "i", "at of a partition known at compile time.",
        [](Call& c) { eval_at(c, c.u64(0), c.param_u64(0), c.param_u64(1), c.param_u64(2)); },
        PD_NATIVE(pd_at, in(0), param(0), param(1), outputs()));
    d.can_fail = true;
    d.failure = "i is not below the partition's cardinality";
    return d;
  }();
  return def;
}

// The constant arguments of a native projection: the partition's start,
// cardinality and index (for at's message).
std::vector<Value> projection_params(const Value& partition) {
  const Partition p = partition_of(partition);
  return {Value::u64(p.start_ord), Value::u64(p.cardinality()), Value::u64(p.idx)};
}

}  // namespace

void register_partition_nodes(Registry& r) {
  r.add({.name = "partitions",
         .family = kFamily,
         .args = {wire("spec", P::Str), konst("extent", P::U64, Value::u64(100))},
         .results = {Type::PartitionList},
         .can_fail = true,
         .summary = "The partitions of [0, extent) that a partition spec describes: a range "
                    "(`25%..75%`), a list of sizes (`20%,30%,*`, with `...`, `*/N`, `*/recipe`, "
                    "`xN` and `~gap`) or a recipe (`linear:4`, `fib:5`, `zipf:1.2,10`, ...), "
                    "optionally `in` a window and in an order (`smallest_first`, "
                    "`largest_first`, `random`); see docs/language.md.",
         .failure = "the spec does not parse, or does not resolve over the extent",
         .eval = [](Call& c) {
           const uint64_t extent = c.param_u64(0);
           c.set(spec_step(
               [&] { return list_value(resolve(partitions::parse(c.str(0)), 0, extent)); }));
         }});
  r.add({.name = "partition_count",
         .family = kFamily,
         .args = {wire("list", P::PartitionList)},
         .results = {Type::U64},
         .summary = "The number of partitions in list.",
         .eval = [](Call& c) { c.set_u64(list_size(c.input(0).text())); }});
  r.add({.name = "partition_at",
         .family = kFamily,
         .args = {wire("list", P::PartitionList), wire("i", P::U64)},
         .results = {Type::Partition},
         .can_fail = true,
         .summary = "The partition at position i of list (its visiting order).",
         .failure = "i is not below the list's length",
         .eval = [](Call& c) {
           const std::string& text = c.input(0).text();
           const uint64_t n = list_size(text), i = c.u64(1);
           if (i >= n) {
             throw NodeFailure{"index " + std::to_string(i) + " is out of range for a list of " +
                               std::to_string(n) + " partition" + (n == 1 ? "" : "s")};
           }
           c.set(partition_value(list_entry(text, i)));
         }});
  r.add({.name = "subdivide",
         .family = kFamily,
         .args = {wire("partition", P::Partition), wire("n", P::U64)},
         .results = {Type::PartitionList},
         .can_fail = true,
         .summary = "partition split into n contiguous sub-partitions whose sizes differ by at "
                    "most one ordinal (as `*/N` splits), indexed from 0, with percentages "
                    "interpolated over the parent's.",
         .failure = "n is 0 or above the partition's cardinality",
         .eval = [](Call& c) {
           const Partition p = partition_of(c.input(0));
           c.set(spec_step([&] { return list_value(partitions::subdivide(p, c.u64(1))); }));
         }});

  const auto field = [&](std::string_view name, std::string_view summary, void (*eval)(Call&)) {
    r.add({.name = name,
           .family = kFamily,
           .args = {wire("partition", P::Partition)},
           .results = {Type::U64},
           .summary = summary,
           .eval = eval});
  };
  field("cardinality", "The number of ordinals in partition: end_of - start_of.",
        eval_field<cardinality_of>);
  field("start_of", "The partition's first ordinal.", eval_field<start_of>);
  field("end_of", "The ordinal just past the partition (its end is exclusive).",
        eval_field<end_of>);
  field("idx_of",
        "The partition's position in the list it was made in (its generation order, "
        "which a spec's order never changes).",
        eval_field<idx_of>);
  field("count_of", "How many partitions the list it was made in has.", eval_field<count_of>);

  r.add({.name = "mod_in",
         .family = kFamily,
         .args = {wire("n", P::U64), wire("partition", P::Partition)},
         .results = {Type::U64},
         .summary = "n wrapped into the partition: start_of + n mod cardinality (start_of when "
                    "the partition is empty).",
         .eval = eval_projection<pd_mod_in, 0, 1>,
         .constant_input_form = ConstantInputForm{1, mod_in_native, projection_params}});
  r.add({.name = "clamp_in",
         .family = kFamily,
         .args = {wire("n", P::U64), wire("partition", P::Partition)},
         .results = {Type::U64},
         .summary = "n saturated into the partition: at least start_of, at most end_of - 1 "
                    "(start_of when the partition is empty).",
         .eval = eval_projection<pd_clamp_in, 0, 1>,
         .constant_input_form = ConstantInputForm{1, clamp_in_native, projection_params}});
  r.add({.name = "random_in",
         .family = kFamily,
         .args = {wire("partition", P::Partition), wire("seed", P::U64)},
         .results = {Type::U64},
         .summary = "An ordinal of the partition picked by seed: start_of + hash(seed) mod "
                    "cardinality (start_of when the partition is empty).",
         .eval = eval_projection<pd_random_in, 1, 0>,
         .constant_input_form = ConstantInputForm{0, random_in_native, projection_params}});
  r.add({.name = "at",
         .family = kFamily,
         .args = {wire("partition", P::Partition), wire("i", P::U64)},
         .results = {Type::U64},
         .can_fail = true,
         .summary = "The partition's ordinal number i: start_of + i.",
         .failure = "i is not below the partition's cardinality",
         .eval =
             [](Call& c) {
               const Partition p = partition_of(c.input(0));
               eval_at(c, c.u64(1), p.start_ord, p.cardinality(), p.idx);
             },
         .constant_input_form = ConstantInputForm{0, at_native, projection_params}});
}

}  // namespace polyrt::nodes
