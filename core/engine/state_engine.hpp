// The interface every per-state engine implements; State forwards to it.
// It sits below the engines (interp/, slots/) and above the graph they run:
// an engine gets the checked graph, never the Program's internals, and holds
// the Program only as the opaque owner State::program() hands back.
#pragma once

#include <bit>
#include <cstdio>
#include <memory>
#include <span>
#include <string>

#include "polyrt/polyrt.hpp"

namespace polyrt {

class StateEngine {
 public:
  explicit StateEngine(size_t coordinate_count) {
    lane_.coordinates = coordinate_count;
    lane_.pull_miss = [](StateEngine* engine, size_t output) { return engine->pull_word(output); };
  }
  virtual ~StateEngine() = default;
  virtual std::unique_ptr<StateEngine> clone() const = 0;
  virtual void set_inputs(std::span<const uint64_t> coordinates) = 0;
  virtual void set_extern(size_t index, const Value& value) = 0;
  virtual Value pull_at(size_t output) = 0;
  // The output's value by reference, valid until the next call on this
  // engine: a str output is not copied. The default holds pull_at's result;
  // engines that keep their values as Values return the stored one.
  virtual const Value& pull_ref(size_t output) {
    pulled_ = pull_at(output);
    return pulled_;
  }
  // The default goes through pull_at; engines with slot buffers read the word.
  virtual uint64_t pull_word(size_t output) {
    check_word_output(output);
    const Value v = pull_at(output);
    const std::string& name = program().output_names()[output];
    if (v.is_none()) throw WriteError("output '" + name + "' is None; pull_word needs a value");
    if (is_payload(v.type())) {
      throw WriteError("output '" + name + "' is a " + std::string(type_name(v.type())) +
                       "; use pull");
    }
    return word_of(v);
  }
  // Throws WriteError unless `output` is a scalar output of the program.
  void check_word_output(size_t output) const {
    const Program& p = program();
    if (output >= p.output_names().size()) {
      throw WriteError("output index " + std::to_string(output) +
                       " is out of range (the program has " +
                       std::to_string(p.output_names().size()) + " outputs)");
    }
    if (is_payload(p.output_type(output))) {
      throw WriteError("output '" + p.output_names()[output] + "' is a " +
                       std::string(type_name(p.output_type(output))) +
                       "; pull_word reads scalar outputs");
    }
  }
  virtual void eval() = 0;
  virtual void invalidate_all() = 0;
  // Side-channel lines go to stderr until the host sets a sink.
  void set_log_sink(LogSink sink) { sink_ = std::move(sink); }
  virtual std::string engine_name() const = 0;
  virtual const Program& program() const = 0;
  detail::PullLane& pull_lane() { return lane_; }

 protected:
  detail::PullLane lane_;  // engines without a word cache leave it empty
  Value pulled_;           // what pull_ref returned when it had to build a Value

  LogSink sink_ = [](std::string_view line) {
    std::fprintf(stderr, "%.*s\n", (int)line.size(), line.data());
  };
};

}  // namespace polyrt
