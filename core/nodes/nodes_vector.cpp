// Nodes of the vector types (polydat's vector_math and vector_set
// families): synthetic f32 embeddings from a seed, element-wise f32 math and
// its reductions, integer vectors read as lists, and vectors read from text.
// Host steps on the CPU tiers, one body each: the f32 sums run in element
// order (polydat's scalar reference), so every engine gives the same bits.
// The generators with a constant dim and the element-wise nodes are also
// written by GPU kernels, and the reductions and lid_mle computed there,
// through the same functions (rtlib/vector_writers.h); those of two vectors
// only when the program fixes both to one dimension, as a kernel cannot fail.
#include <algorithm>
#include <bit>
#include <cmath>
#include <set>
#include <string>
#include <string_view>

#include "nodes/column_call.hpp"
#include "nodes/registry.hpp"
#include "rtlib/rtlib.h"
#include "rtlib/splitmix.h"
#include "rtlib/vector_writers.h"
#include "value/vector_values.hpp"

namespace polyrt::nodes {

namespace {

using P = PortType;

// The most elements a generated vector has: hash_vec(seed, dim) checks dim
// against it per row, so that a wire dim cannot ask for gigabytes.
constexpr uint64_t kMaxVectorElements = uint64_t(1) << 20;

// A vector's f32 elements where they lie (memcpy loads and stores: a
// payload, in a Value or a column, has no alignment). Every f32 node body
// reads and writes through these, on Values and on chunk columns alike.
struct F32View {
  const char* bytes = nullptr;
  size_t size = 0;
  float operator[](size_t i) const { return rt::f32_at(bytes, i); }
};

F32View view_of(std::string_view payload) {
  return {payload.data(), payload.size() / 4};
}

// A vec_f32 of n elements that `write(out)` fills.
template <typename Write>
Value f32_vector(size_t n, const Write& write) {
  std::string payload(4 * n, '\0');
  write(payload.data());
  return Value::vector(Type::VecF32, std::move(payload));
}

// A call's two vec_f32 operands; the row fails when their lengths differ
// (silently cutting the longer would corrupt a distance).
std::pair<F32View, F32View> operands(const Call& c, std::string_view node) {
  const F32View a = view_of(c.input(0).as_vector()), b = view_of(c.input(1).as_vector());
  if (a.size != b.size) {
    throw NodeFailure{std::string(node) + ": operand lengths differ (" + std::to_string(a.size) +
                      " vs " + std::to_string(b.size) + ")"};
  }
  return {a, b};
}

float dot(F32View a, F32View b) {
  return rt::dot_f32(a.bytes, b.bytes, a.size);
}

double l2(F32View a, F32View b) {
  return rt::l2_distance(a.bytes, b.bytes, a.size);
}

double cosine(F32View a, F32View b) {
  return rt::cosine_similarity(a.bytes, b.bytes, a.size);
}

void write_sum(F32View a, F32View b, char* out) {
  rt::write_sum_f32(a.bytes, b.bytes, a.size, out);
}

void write_scaled(F32View a, float k, char* out) {
  rt::write_scaled_f32(a.bytes, a.size, k, out);
}

void write_norm(F32View a, char* out) {
  rt::write_unit_f32(a.bytes, a.size, out);
}

// Cloned for x86-64-v4, whose u64-to-f64 conversion is one instruction
// (vcvtuqq2pd); both clones round alike, so the bits are the same.
[[gnu::target_clones("default", "arch=x86-64-v4")]] void write_hash_vec(uint64_t seed, uint64_t dim,
                                                                        char* out) {
  rt::write_hash_vec(seed, dim, out);
}

void write_xxhash3_vec(uint64_t seed, uint64_t dim, char* out) {
  rt::write_xxhash3_vec(seed, dim, out);
}

void check_dim(uint64_t dim, std::string_view node) {
  if (dim > kMaxVectorElements) {
    throw NodeFailure{std::string(node) + ": dim " + std::to_string(dim) +
                      " is above the largest vector, " + std::to_string(kMaxVectorElements) +
                      " elements"};
  }
}

double lid_mle(F32View distances, double k) {
  return rt::lid_mle(distances.bytes, distances.size, k);
}

// ---- Columnar forms: the same bodies over a chunk's columns ----

// The f64 word a node writes: its one NaN (Call::set_f64's).
uint64_t f64_word(double d) {
  return d != d ? kCanonicalNanBits : std::bit_cast<uint64_t>(d);
}

F32View row_view(const ColumnInput& in, uint64_t row) {
  return view_of(in.text(row));
}

// Rows of a generator of dim_of(row) elements: every dim checked first (a
// failing row leaves the chunk to the row form, which names it), then
// written in place.
template <void (*Write)(uint64_t, uint64_t, char*), typename Dim>
void generate_rows(const ColumnCall& c, const Dim& dim_of) {
  const ColumnInput& seed = c.inputs[0];
  for (uint64_t r = 0; r < c.rows; ++r) {
    if (dim_of(r) > kMaxVectorElements) throw ColumnarFallback{};
  }
  char* out =
      c.outputs[0].text->append_unwritten(c.rows, [&](uint64_t r) { return 4 * dim_of(r); });
  for (uint64_t r = 0; r < c.rows; ++r) {
    Write(seed.word(r), dim_of(r), out);
    out += 4 * dim_of(r);
  }
}

// A generator's row: dim elements from seed, checked against the largest.
template <void (*Write)(uint64_t, uint64_t, char*)>
void set_generated(Call& c, uint64_t dim, std::string_view node) {
  check_dim(dim, node);
  c.set(f32_vector(dim, [&](char* out) { Write(c.u64(0), dim, out); }));
}

// A generator's dim a wire.
template <void (*Write)(uint64_t, uint64_t, char*)>
void generate_columns(const ColumnCall& c) {
  generate_rows<Write>(c, [&](uint64_t r) { return c.inputs[1].word(r); });
}

// A generator with a dim known at compile time (its ConstantInputForm): the
// same elements; a GPU kernel writes them too (`symbol`), 4 * dim bytes a row.
struct GeneratorOfDim {
  std::string_view name;    // the node's, "__<generator>_dim"
  std::string_view node;    // the generator's, as failures name it
  std::string_view symbol;  // its device text
  void (*write)(uint64_t seed, uint64_t dim, char* out);
};

template <const GeneratorOfDim& G>
const NodeDef& generator_of_dim() {
  static const NodeDef def{
      .name = G.name,
      .family = "vectors",
      .keyed_by_seed = true,
      .args = {wire("seed", P::U64), konst("dim", P::U64)},
      .results = {Type::VecF32},
      .can_fail = true,
      .summary = "A vector generator of a dim known at compile time.",
      .failure = "dim is above 2^20",
      .eval = [](Call& c) { set_generated<G.write>(c, c.param_u64(0), G.node); },
      .columnar =
          [](const ColumnCall& c) {
            const uint64_t dim = c.params[0].as_u64();
            generate_rows<G.write>(c, [dim](uint64_t) { return dim; });
          },
      .columnar_falls_back = true,
      .device_text = DeviceTextForm{.symbol = G.symbol,
                                    .args = {text_input(0), text_param(0)},
                                    .bound = [](const std::vector<Value>& p, const Prepared*,
                                                std::span<const size_t>) -> size_t {
                                      return 4 * p[0].as_u64();
                                    }},
      .vector_dimension = VectorDimension::FirstParamValue};
  return def;
}

constexpr GeneratorOfDim kHashVecOfDim{"__hash_vec_dim", "hash_vec", "pd_vec_hash", write_hash_vec};
constexpr GeneratorOfDim kXxhash3VecOfDim{"__xxhash3_vec_dim", "xxhash3_vec", "pd_vec_xxhash3",
                                          write_xxhash3_vec};

// A generator's ConstantInputForm: a constant dim (input 1) becomes G's
// constant argument.
template <const GeneratorOfDim& G>
ConstantInputForm constant_dim_form() {
  return ConstantInputForm{1, generator_of_dim<G>,
                           [](const Value& dim) { return std::vector<Value>{dim}; }};
}

// A device form's bound that is its first input's (a vector mapped to one of
// its length).
size_t first_input_bound(const std::vector<Value>&, const Prepared*,
                         std::span<const size_t> input_bounds) {
  return input_bounds[0];
}

// Every row's two vectors have one length; else the row form runs, which
// finds the failing row.
void require_equal_lengths(const ColumnCall& c) {
  for (uint64_t r = 0; r < c.rows; ++r) {
    if (c.inputs[0].text(r).size() != c.inputs[1].text(r).size()) throw ColumnarFallback{};
  }
}

// Two vectors per row of one length, reduced to an f64.
template <double (*Reduce)(F32View, F32View)>
void reduce_columns(const ColumnCall& c) {
  require_equal_lengths(c);
  for (uint64_t r = 0; r < c.rows; ++r) {
    c.outputs[0].words[r] = f64_word(Reduce(row_view(c.inputs[0], r), row_view(c.inputs[1], r)));
  }
}

// A vector per row, mapped to one of its length.
template <typename Write>
void map_columns(const ColumnCall& c, const Write& write) {
  const ColumnInput& a = c.inputs[0];
  char* out =
      c.outputs[0].text->append_unwritten(c.rows, [&](uint64_t r) { return a.text(r).size(); });
  for (uint64_t r = 0; r < c.rows; ++r) {
    write(r, row_view(a, r), out);
    out += a.text(r).size();
  }
}

double dot_f64(F32View a, F32View b) {
  return dot(a, b);
}

// An integer vector's elements as i64 (vec_i32 widened).
std::vector<int64_t> integers(const Value& v) {
  const Type type = v.type();
  const std::string& payload = v.as_vector();
  std::vector<int64_t> out(vector_size(type, payload));
  for (size_t i = 0; i < out.size(); ++i) {
    out[i] = (int64_t)vector_element_word(type, payload, i);
  }
  return out;
}

// The element type's range holds x (a vec_i32 never holds an i64 past it).
bool in_element_range(Type vector, int64_t x) {
  return vector != Type::VecI32 || (x >= INT32_MIN && x <= INT32_MAX);
}

void register_math_nodes(Registry& r) {
  // A reduction of two vec_f32 to an f64 (the lengths must match).
  const auto reduction = [&](std::string_view name, std::string_view summary, void (*eval)(Call&),
                             void (*columnar)(const ColumnCall&), std::string_view symbol) {
    r.add({.name = name,
           .family = "vectors",
           .args = {wire("a", P::VecF32), wire("b", P::VecF32)},
           .results = {Type::F64},
           .can_fail = true,
           .summary = summary,
           .failure = "the operands' lengths differ",
           .eval = eval,
           .columnar = columnar,
           .columnar_falls_back = true,
           .device_text = DeviceTextForm{.kind = DeviceTextKind::Word,
                                         .symbol = symbol,
                                         .args = {text_input_text(0), text_input_text(1)},
                                         .same_fixed_dimension = true}});
  };
  const auto generator = [&](std::string_view name, std::string_view summary, void (*eval)(Call&),
                             void (*columnar)(const ColumnCall&), ConstantInputForm constant_dim) {
    r.add({.name = name,
           .family = "vectors",
           .keyed_by_seed = true,
           .args = {wire("seed", P::U64), wire("dim", P::U64)},
           .results = {Type::VecF32},
           .can_fail = true,
           .summary = summary,
           .failure = "dim is above 2^20",
           .eval = eval,
           .columnar = columnar,
           .columnar_falls_back = true,
           .constant_input_form = constant_dim,
           .vector_dimension = VectorDimension::SecondInputValue});
  };
  generator(
      "hash_vec",
      "A vec_f32 of dim elements: element i is hash(seed + i * 0x9E3779B97F4A7C15) as "
      "h / 2^64 * 2 - 1 (in f64, then rounded to f32), in [-1, 1]. Synthetic embeddings "
      "that replay from their seed.",
      [](Call& c) { set_generated<write_hash_vec>(c, c.u64(1), "hash_vec"); },
      generate_columns<write_hash_vec>, constant_dim_form<kHashVecOfDim>());
  generator(
      "xxhash3_vec",
      "A vec_f32 of dim elements: element i is XXH3-64 of the 16 bytes seed, i "
      "(little-endian), mapped as hash_vec maps its hashes.",
      [](Call& c) { set_generated<write_xxhash3_vec>(c, c.u64(1), "xxhash3_vec"); },
      generate_columns<write_xxhash3_vec>, constant_dim_form<kXxhash3VecOfDim>());
  r.add({.name = "vec_add",
         .family = "vectors",
         .args = {wire("a", P::VecF32), wire("b", P::VecF32)},
         .results = {Type::VecF32},
         .can_fail = true,
         .summary = "a + b, element by element (f32).",
         .failure = "the operands' lengths differ",
         .eval =
             [](Call& c) {
               const auto [a, b] = operands(c, "vec_add");
               c.set(f32_vector(a.size, [&](char* out) { write_sum(a, b, out); }));
             },
         .columnar =
             [](const ColumnCall& c) {
               require_equal_lengths(c);
               map_columns(c, [&](uint64_t r, F32View a, char* out) {
                 write_sum(a, row_view(c.inputs[1], r), out);
               });
             },
         .columnar_falls_back = true,
         .device_text = DeviceTextForm{.symbol = "pd_vec_add",
                                       .args = {text_input_text(0), text_input_text(1)},
                                       .bound = first_input_bound,
                                       .same_fixed_dimension = true},
         .vector_dimension = VectorDimension::OfFirstInput});
  r.add({.name = "vec_scale",
         .family = "vectors",
         .args = {wire("a", P::VecF32), wire("k", P::F64)},
         .results = {Type::VecF32},
         .summary = "Every element of a times k rounded to f32 (the product in f32).",
         .eval =
             [](Call& c) {
               const F32View a = view_of(c.input(0).as_vector());
               c.set(f32_vector(a.size, [&](char* out) { write_scaled(a, (float)c.f64(1), out); }));
             },
         .columnar =
             [](const ColumnCall& c) {
               map_columns(c, [&](uint64_t r, F32View a, char* out) {
                 write_scaled(a, (float)std::bit_cast<double>(c.inputs[1].word(r)), out);
               });
             },
         .device_text = DeviceTextForm{.symbol = "pd_vec_scale",
                                       .args = {text_input_text(0), text_input(1)},
                                       .bound = first_input_bound},
         .vector_dimension = VectorDimension::OfFirstInput});
  reduction(
      "vec_dot",
      "The dot product of a and b: the f32 products summed in f32, in element order, "
      "widened to f64.",
      [](Call& c) {
        const auto [a, b] = operands(c, "vec_dot");
        c.set_f64(dot(a, b));
      },
      reduce_columns<dot_f64>, "pd_vec_dot");
  reduction(
      "vec_l2",
      "The Euclidean distance between a and b: the square root (in f64) of the f32 sum of "
      "squared f32 differences.",
      [](Call& c) {
        const auto [a, b] = operands(c, "vec_l2");
        c.set_f64(l2(a, b));
      },
      reduce_columns<l2>, "pd_vec_l2");
  reduction(
      "vec_cosine",
      "The cosine similarity dot(a, b) / (|a| |b|), the norms the f64 square roots of the "
      "f32 dots; 0 when either norm is 0.",
      [](Call& c) {
        const auto [a, b] = operands(c, "vec_cosine");
        c.set_f64(cosine(a, b));
      },
      reduce_columns<cosine>, "pd_vec_cosine");
  r.add({.name = "vec_norm",
         .family = "vectors",
         .args = {wire("a", P::VecF32)},
         .results = {Type::VecF32},
         .summary = "a scaled to unit length: every element times 1 / |a| rounded to f32 (|a| "
                    "the f64 square root of the f32 dot); a zero vector as it is.",
         .eval =
             [](Call& c) {
               const F32View a = view_of(c.input(0).as_vector());
               c.set(f32_vector(a.size, [&](char* out) { write_norm(a, out); }));
             },
         .columnar =
             [](const ColumnCall& c) {
               map_columns(c, [](uint64_t, F32View a, char* out) { write_norm(a, out); });
             },
         .device_text =
             DeviceTextForm{
                 .symbol = "pd_vec_unit", .args = {text_input_text(0)}, .bound = first_input_bound},
         .vector_dimension = VectorDimension::OfFirstInput});
  r.add({.name = "lid_mle",
         .family = "vectors",
         .args = {wire("distances", P::VecF32), wire("k", P::F64)},
         .results = {Type::F64},
         .summary = "The Levina-Bickel estimate of local intrinsic dimension from ascending "
                    "neighbour distances r_1..r_k (k cut to the length): m / sum ln(r_k / r_j) "
                    "over the m positive r_j before r_k; 0 when degenerate (k < 2, r_k <= 0, "
                    "no term or no spread).",
         .eval = [](Call& c) { c.set_f64(lid_mle(view_of(c.input(0).as_vector()), c.f64(1))); },
         .columnar =
             [](const ColumnCall& c) {
               for (uint64_t r = 0; r < c.rows; ++r) {
                 c.outputs[0].words[r] = f64_word(
                     lid_mle(row_view(c.inputs[0], r), std::bit_cast<double>(c.inputs[1].word(r))));
               }
             },
         .device_text = DeviceTextForm{.kind = DeviceTextKind::Word,
                                       .symbol = "pd_vec_lid_mle",
                                       .args = {text_input_text(0), text_input(1)}}});
}

// The list nodes of polydat's vector_set, for vec_i32 and vec_i64 (no silent
// widening of one to the other: each has its own name).
void register_list_nodes(Registry& r, PortType port, std::string_view suffix) {
  const auto name = [&](std::string_view stem) {
    return r.keep(std::string(stem) + std::string(suffix));
  };
  const auto list_node = [&](std::string_view stem, std::vector<ArgSpec> extra, Type result,
                             std::string_view summary, void (*eval)(Call&)) {
    std::vector<ArgSpec> args = {wire("v", port)};
    for (ArgSpec& a : extra) args.push_back(a);
    r.add({.name = name(stem),
           .family = "vectors",
           .args = std::move(args),
           .results = {result},
           .summary = summary,
           .eval = eval});
  };
  list_node("vec_len", {}, Type::U64, "How many elements v holds.", [](Call& c) {
    const Value& v = c.input(0);
    c.set_u64(vector_size(v.type(), v.as_vector()));
  });
  list_node("vec_at", {wire("i", P::U64)}, Type::I64, "Element i of v; 0 past its end.",
            [](Call& c) {
              const std::vector<int64_t> v = integers(c.input(0));
              const uint64_t i = c.u64(1);
              c.set(Value::i64(i < v.size() ? v[i] : 0));
            });
  list_node("vec_max", {}, Type::I64, "The largest element of v; 0 when it is empty.", [](Call& c) {
    const std::vector<int64_t> v = integers(c.input(0));
    c.set(Value::i64(v.empty() ? 0 : *std::max_element(v.begin(), v.end())));
  });
  list_node("vec_min", {}, Type::I64, "The smallest element of v; 0 when it is empty.",
            [](Call& c) {
              const std::vector<int64_t> v = integers(c.input(0));
              c.set(Value::i64(v.empty() ? 0 : *std::min_element(v.begin(), v.end())));
            });
  list_node("vec_contains", {wire("x", P::I64)}, Type::U64, "1 when x is an element of v, else 0.",
            [](Call& c) {
              const std::vector<int64_t> v = integers(c.input(0));
              const int64_t x = c.input(1).as_i64();
              c.set_u64(in_element_range(c.input(0).type(), x) &&
                        std::find(v.begin(), v.end(), x) != v.end());
            });
  list_node("vec_position", {wire("x", P::I64)}, Type::U64,
            "The index of the first x in v; v's length when x is not in it.", [](Call& c) {
              const std::vector<int64_t> v = integers(c.input(0));
              const int64_t x = c.input(1).as_i64();
              const auto at = in_element_range(c.input(0).type(), x)
                                  ? std::find(v.begin(), v.end(), x)
                                  : v.end();
              c.set_u64((uint64_t)(at - v.begin()));
            });
  list_node(
      "vec_count_below", {wire("x", P::I64)}, Type::U64, "How many elements of v are less than x.",
      [](Call& c) {
        const std::vector<int64_t> v = integers(c.input(0));
        const int64_t x = c.input(1).as_i64();
        c.set_u64((uint64_t)std::count_if(v.begin(), v.end(), [x](int64_t e) { return e < x; }));
      });
  list_node("vec_intersect_count", {wire("b", port)}, Type::U64,
            "How many distinct values are elements of both v and b.", [](Call& c) {
              const std::vector<int64_t> a = integers(c.input(0)), b = integers(c.input(1));
              const std::set<int64_t> in_a(a.begin(), a.end()), in_b(b.begin(), b.end());
              c.set_u64((uint64_t)std::count_if(in_a.begin(), in_a.end(),
                                                [&](int64_t e) { return in_b.count(e) > 0; }));
            });
  list_node(
      "vec_set_eq", {wire("b", port)}, Type::U64,
      "1 when v and b hold the same set of values (any order, any repetition), else 0.",
      [](Call& c) {
        const std::vector<int64_t> a = integers(c.input(0)), b = integers(c.input(1));
        c.set_u64(std::set<int64_t>(a.begin(), a.end()) == std::set<int64_t>(b.begin(), b.end()));
      });
}

template <Type Vector>
void str_to_vector(Call& c) {
  std::string error;
  auto payload = parse_vector_text(c.str(0), Vector, error);
  if (!payload) {
    throw NodeFailure{"str_to_" + std::string(type_name(Vector)) + ": cannot read \"" +
                      c.str(0).substr(0, 80) + (c.str(0).size() > 80 ? "..." : "") +
                      "\": " + error};
  }
  c.set(Value::vector(Vector, std::move(*payload)));
}

void register_conversion_nodes(Registry& r) {
  const auto conversion = [&](std::string_view name, Type result, void (*eval)(Call&)) {
    r.add({.name = name,
           .family = "vectors",
           .args = {wire("text", P::Str)},
           .results = {result},
           .can_fail = true,
           .summary = "A JSON array of numbers as a vector (whitespace allowed; a float is the "
                      "nearest f64, for vec_f32 then the nearest f32, as polydat reads it; "
                      "\"NaN\", \"inf\" and \"-inf\" read as themselves; integers checked "
                      "against the element type's range).",
           .failure = "the text is not a JSON array of numbers of the element type",
           .eval = eval});
  };
  conversion("str_to_vec_f32", Type::VecF32, str_to_vector<Type::VecF32>);
  conversion("str_to_vec_f64", Type::VecF64, str_to_vector<Type::VecF64>);
  conversion("str_to_vec_i32", Type::VecI32, str_to_vector<Type::VecI32>);
  conversion("str_to_vec_i64", Type::VecI64, str_to_vector<Type::VecI64>);
  conversion("str_to_vec_u64", Type::VecU64, str_to_vector<Type::VecU64>);
}

}  // namespace

void register_vector_nodes(Registry& r) {
  register_math_nodes(r);
  register_list_nodes(r, P::VecI32, "_i32");
  register_list_nodes(r, P::VecI64, "_i64");
  register_conversion_nodes(r);
}

}  // namespace polyrt::nodes
