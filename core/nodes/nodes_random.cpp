// polydat's nondeterministic random nodes (random_range, random_f64,
// random_bytes, random_string, random_bool), for prototypes that want noise
// and no reproducibility: they take no input, draw from a generator per
// thread seeded from the system's entropy, give other values on every run,
// and are volatile (never folded, drawn again at each evaluation). The batch
// tier refuses them (NodeDef::batch_refusal): its promise is the same bytes
// on every run and device.
#include <chrono>
#include <random>
#include <string>

#include "nodes/registry.hpp"
#include "nodes/spec_parsing.hpp"
#include "rtlib/string_ops.hpp"

namespace polyrt::nodes {

namespace {

using P = PortType;

// The longest text or byte string one draw makes (as char_buf's length).
constexpr uint64_t kMaxDrawLength = uint64_t(1) << 20;

constexpr std::string_view kBatchRefusal =
    "it draws other values on every run, and the batch tier's rows are the same bytes on every "
    "run and device";

// xorshift64, as polydat's generator; its state is never 0.
uint64_t next_draw() {
  thread_local uint64_t state = [] {
    std::random_device entropy;
    const uint64_t seed = ((uint64_t)entropy() << 32 | entropy()) ^
                          (uint64_t)std::chrono::steady_clock::now().time_since_epoch().count();
    return seed ? seed : 0x9E3779B97F4A7C15ULL;
  }();
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

std::shared_ptr<const Prepared> draw_length(const std::vector<Value>& p, size_t index) {
  const uint64_t length = p[index].as_u64();
  if (length > kMaxDrawLength) {
    throw ParamError{index, "a draw of " + std::to_string(length) + " is above " +
                                std::to_string(kMaxDrawLength)};
  }
  return nullptr;
}

NodeDef random_node(NodeDef def) {
  def.family = "nondeterministic random";
  def.purity = Purity::Nondeterministic;
  def.batch_refusal = kBatchRefusal;
  return def;
}

}  // namespace

void register_random_nodes(Registry& r) {
  r.add(random_node(
      {.name = "random_range",
       .args = {konst("min", P::U64, Value::u64(0)), konst("max", P::U64, Value::u64(100))},
       .results = {Type::U64},
       .summary = "A random u64 in [min, max) (min when max <= min), another at each "
                  "evaluation and on every run.",
       .eval = [](Call& c) {
         const uint64_t min = c.param_u64(0), max = c.param_u64(1);
         c.set_u64(min + next_draw() % (max > min ? max - min : 1));
       }}));
  r.add(random_node(
      {.name = "random_f64",
       .args = {konst("min", P::F64, Value::f64(0.0)), konst("max", P::F64, Value::f64(1.0))},
       .results = {Type::F64},
       .summary = "A random f64 in [min, max], another at each evaluation and on every run.",
       .eval = [](Call& c) {
         const double unit = (double)next_draw() / 18446744073709551615.0;
         c.set_f64(c.param_f64(0) + unit * (c.param_f64(1) - c.param_f64(0)));
       }}));
  r.add(random_node({.name = "random_bytes",
                     .args = {konst("size", P::U64, Value::u64(8))},
                     .results = {Type::Bytes},
                     .summary = "size random bytes (at most 1048576), others at each evaluation "
                                "and on every run.",
                     .prepare = [](const std::vector<Value>& p) { return draw_length(p, 0); },
                     .eval =
                         [](Call& c) {
                           const uint64_t size = c.param_u64(0);
                           std::string bytes;
                           bytes.reserve(size);
                           while (bytes.size() < size) {
                             const uint64_t word = next_draw();
                             for (int b = 0; b < 8 && bytes.size() < size; ++b) {
                               bytes.push_back((char)(word >> (8 * b)));
                             }
                           }
                           c.set(Value::bytes(std::move(bytes)));
                         }}));
  r.add(random_node({.name = "random_string",
                     .args = {konst("charset", P::Str, Value::str("A-Za-z0-9")),
                              konst("length", P::U64, Value::u64(8))},
                     .results = {Type::Str},
                     .summary =
                         "length random characters (at most 1048576) of charset (ranges such as "
                         "\"A-Za-z0-9\" and single characters; \"\" gives \"\"), others at each "
                         "evaluation and on every run.",
                     .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
                       draw_length(p, 1);
                       auto charset = std::make_shared<Prepared>();
                       if (!p[0].as_str().empty())
                         charset->strs = rt::expand_charset(p[0].as_str());
                       return charset;
                     },
                     .eval =
                         [](Call& c) {
                           const std::vector<std::string>& chars = c.prepared().strs;
                           std::string text;
                           for (uint64_t i = 0; !chars.empty() && i < c.param_u64(1); ++i) {
                             text += chars[next_draw() % chars.size()];
                           }
                           c.set_str(std::move(text));
                         }}));
  r.add(random_node(
      {.name = "random_bool",
       .args = {konst("probability", P::F64, Value::f64(0.5))},
       .results = {Type::Bool},
       .summary = "true with probability (clamped to [0, 1]), drawn again at each evaluation "
                  "and on every run.",
       .prepare = prepare_probability_threshold,
       .eval = [](Call& c) { c.set(Value::boolean(next_draw() < c.prepared().u64s[0])); }}));
}

}  // namespace polyrt::nodes
