// How a string node's text is written by a GPU kernel (the GPU tier's device
// text): the rtlib function that writes one row's text, and the most bytes a
// row can take, which the plan reserves per row. A node without one stays a
// host step on the GPU.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "nodes/native_form.hpp"
#include "polyrt/value.hpp"

namespace polyrt::nodes {

struct Prepared;

enum class DeviceTextKind : uint8_t {
  // uint64_t symbol(char* out, args...): the text of `args` (Input and Param
  // words only), its length returned.
  Call,
  // The entry of a table pick: pd_text_pick over the node's constant
  // arguments as a table.
  Pick,
  // The Display forms of every input, one after another (str_concat).
  Concat,
  // printf's format (a ParsedFormat in the prepared extra): its literals and
  // each input per its placeholder's spec.
  Format,
};

// The inputs of Concat and Format forms a kernel can write: integers (in
// decimal or a radix), bools and str (a constant or a device-made text).
// Per input, the most bytes of its Display text (0 for other forms' inputs).
struct DeviceTextForm {
  DeviceTextKind kind = DeviceTextKind::Call;
  std::string_view symbol;      // Call
  std::vector<NativeArg> args;  // Call: after `out`
  // The most bytes of one row's text.
  size_t (*bound)(const std::vector<Value>& params, const Prepared* prepared,
                  std::span<const size_t> input_bounds) = nullptr;
};

}  // namespace polyrt::nodes
