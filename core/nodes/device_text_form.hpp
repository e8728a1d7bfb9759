// How a string node's text is written by a GPU kernel (the GPU tier's device
// text): the rtlib function that writes one row's text, the tables it reads,
// and the most bytes a row can take, which the plan reserves per row; or how
// a kernel computes a node's word from texts (a Word form: a reduction of two
// vectors, a comparison of two strings). A node without one stays a host step
// on the GPU.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "polyrt/value.hpp"

namespace polyrt::nodes {

struct Prepared;

enum class DeviceTextKind : uint8_t {
  // uint64_t symbol(char* out, args...): the text of `args`, its length
  // returned.
  Call,
  // The Display forms of every input, one after another (str_concat).
  Concat,
  // printf's format (a ParsedFormat in the prepared extra): its literals and
  // each input per its placeholder's spec.
  Format,
  // A JSON object of the inputs as JSON values, under the keys that are the
  // node's parameters, in their order (__json_object).
  JsonObject,
  // A JSON array of the inputs as JSON values (json_array).
  JsonArray,
  // double or uint64_t symbol(args...) (no `out`): the node's one output
  // word (an f64's NaN made the canonical one), computed from its arguments
  // as a Call's are passed; no text, no bound.
  Word,
};

// An argument of a Call form after `out`: an input's word, a text input's
// bytes and length (two arguments; a constant or a device-made text of any
// text type), a constant argument's word, or the address of one of the
// form's blobs (module content on every target, so cached code stays valid).
// (A Word form takes the same arguments without `out`.)
struct DeviceTextArg {
  enum Kind : uint8_t { Input, InputText, Param, Blob } kind;
  uint8_t index = 0;
};
constexpr DeviceTextArg text_input(uint8_t i) {
  return {DeviceTextArg::Input, i};
}
constexpr DeviceTextArg text_input_text(uint8_t i) {
  return {DeviceTextArg::InputText, i};
}
constexpr DeviceTextArg text_param(uint8_t i) {
  return {DeviceTextArg::Param, i};
}
constexpr DeviceTextArg text_blob(uint8_t i) {
  return {DeviceTextArg::Blob, i};
}

// The inputs of Concat and Format forms a kernel can write: integers (in
// decimal or a radix), f64s (Display; Debug without fixed decimals), bools
// and str (a constant or a device-made text).
struct DeviceTextForm {
  DeviceTextKind kind = DeviceTextKind::Call;
  std::string_view symbol;          // Call
  std::vector<DeviceTextArg> args;  // Call
  // Call: the tables it reads, as bytes laid out as the rtlib function reads
  // them (8-byte aligned), from the constant arguments and the prepared data.
  std::vector<std::string> (*blobs)(const std::vector<Value>& params,
                                    const Prepared* prepared) = nullptr;
  // The most bytes of one row's text; `input_bounds` gives, per input, the
  // most bytes of its Display text (Concat, Format), of its JSON value
  // (JsonObject, JsonArray), or of its text (a Call's InputText; else 0).
  size_t (*bound)(const std::vector<Value>& params, const Prepared* prepared,
                  std::span<const size_t> input_bounds) = nullptr;
  // Why the node, with these constant arguments, is not written by a kernel
  // (empty: it is); none: every call is.
  std::string (*refused)(const std::vector<Value>& params, const Prepared* prepared) = nullptr;
  // Its text inputs are vectors that must have one dimension, fixed by the
  // program (ir::vector_dimensions): the node fails on rows where they
  // differ, and a kernel cannot fail, so elsewhere it is a host step.
  bool same_fixed_dimension = false;
};

// A Concat form's bound: its inputs' Display bounds summed.
inline size_t concat_bound(const std::vector<Value>&, const Prepared*,
                           std::span<const size_t> input_bounds) {
  size_t bound = 0;
  for (size_t b : input_bounds) bound += b;
  return bound;
}

// A blob of plain data (words, or structs laid out alike on the host and
// nvptx64: both little-endian, with the same alignments).
template <typename T>
std::string blob_of(const std::vector<T>& items) {
  return std::string(reinterpret_cast<const char*>(items.data()), items.size() * sizeof(T));
}

}  // namespace polyrt::nodes
