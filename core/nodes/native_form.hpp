// How a node's rtlib function is called on slot words. One description serves
// the closure tier (a kit generated from the function's C++ type calls the
// natively compiled function) and the native tier (codegen emits a call to the
// same function in the embedded bitcode, where it inlines).
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "polyrt/error.hpp"

namespace polyrt::nodes {

enum class NativeArgKind : uint8_t {
  Input,     // the slot word of wire input `index` (u64, f64 bits or bool 0/1)
  Param,     // constant argument `index`
  F64Table,  // pointer to the node's prepared f64 table
  U64Table,  // pointer to the node's prepared u64 table
  F64Count,  // size of the prepared f64 table
  U64Count,  // size of the prepared u64 table
  Outputs,   // pointer to the node's first output slot (status and void functions)
};

struct NativeArg {
  NativeArgKind kind;
  uint8_t index = 0;
};

constexpr NativeArg in(uint8_t i) {
  return {NativeArgKind::Input, i};
}
constexpr NativeArg param(uint8_t i) {
  return {NativeArgKind::Param, i};
}
constexpr NativeArg f64_table() {
  return {NativeArgKind::F64Table};
}
constexpr NativeArg u64_table() {
  return {NativeArgKind::U64Table};
}
constexpr NativeArg f64_count() {
  return {NativeArgKind::F64Count};
}
constexpr NativeArg u64_count() {
  return {NativeArgKind::U64Count};
}
constexpr NativeArg outputs() {
  return {NativeArgKind::Outputs};
}

constexpr size_t kMaxNativeArgs = 6;

// The one NaN every f64 node output carries, on every engine. Compilers and
// CPUs disagree on NaN sign and payload (x86 produces negative NaNs, constant
// folding positive ones, LLVM keeps neither stable), so each engine rewrites
// any NaN a node produces to this one: f64 results stay bit-identical.
constexpr uint64_t kCanonicalNanBits = 0x7ff8000000000000ULL;

// The words a kit reads (one per non-Outputs argument) and where it writes.
struct KitArgs {
  const uint64_t* words[kMaxNativeArgs];
  uint64_t* out;
};

// Returns 0, or nonzero when the node failed (fallible functions only).
using Kit = int32_t (*)(const KitArgs&);

struct NativeForm {
  std::string_view symbol;  // the rtlib function, as named in the bitcode
  Kit kit = nullptr;
  std::vector<NativeArg> args;
  bool fallible = false;  // the function returns a status
};

namespace kit_detail {

template <typename T>
T from_word(uint64_t w) {
  if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<double>(w);
  } else if constexpr (std::is_pointer_v<T>) {
    return reinterpret_cast<T>(static_cast<uintptr_t>(w));
  } else {
    return static_cast<T>(w);
  }
}

template <typename T>
uint64_t to_word(T v) {
  if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<uint64_t>(v != v ? std::bit_cast<double>(kCanonicalNanBits) : v);
  } else {
    return static_cast<uint64_t>(v);
  }
}

template <typename T>
T arg(const KitArgs& a, size_t i) {
  if constexpr (std::is_same_v<T, uint64_t*>) {
    return a.out;
  } else {
    return from_word<T>(*a.words[i]);
  }
}

template <auto Fn, typename R, typename... A, size_t... I>
int32_t invoke(const KitArgs& a, R (*)(A...), std::index_sequence<I...>) {
  if constexpr (std::is_same_v<R, int32_t>) {
    return Fn(arg<A>(a, I)...);
  } else if constexpr (std::is_void_v<R>) {
    Fn(arg<A>(a, I)...);
    return 0;
  } else {
    *a.out = to_word(Fn(arg<A>(a, I)...));
    return 0;
  }
}

template <auto Fn, typename R, typename... A>
constexpr size_t arity(R (*)(A...)) {
  return sizeof...(A);
}

template <auto Fn, typename R, typename... A>
constexpr bool returns_status(R (*)(A...)) {
  return std::is_same_v<R, int32_t>;
}

template <auto Fn>
int32_t kit(const KitArgs& a) {
  return invoke<Fn>(a, Fn, std::make_index_sequence<arity<Fn>(Fn)>{});
}

}  // namespace kit_detail

// Throws an internal error when `args` does not describe every parameter of Fn
// (a registry bug, caught when the registry is built).
template <auto Fn>
NativeForm native(std::string_view symbol, std::vector<NativeArg> args) {
  static_assert(kit_detail::arity<Fn>(Fn) <= kMaxNativeArgs);
  if (args.size() != kit_detail::arity<Fn>(Fn)) {
    internal_error("native form of " + std::string(symbol) + " maps " +
                   std::to_string(args.size()) + " arguments, the function takes " +
                   std::to_string(kit_detail::arity<Fn>(Fn)));
  }
  return NativeForm{symbol, &kit_detail::kit<Fn>, std::move(args),
                    kit_detail::returns_status<Fn>(Fn)};
}

}  // namespace polyrt::nodes

// PD_NATIVE(pd_hash, in(0)): the native form of rtlib function pd_hash.
#define PD_NATIVE(fn, ...) ::polyrt::nodes::native<fn>(#fn, {__VA_ARGS__})
