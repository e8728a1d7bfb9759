// The interface every per-state engine implements; State forwards to it.
#pragma once

#include <memory>
#include <span>
#include <string>

#include "polyrt/polyrt.hpp"

namespace polyrt {

class StateEngine {
 public:
  virtual ~StateEngine() = default;
  virtual std::unique_ptr<StateEngine> clone() const = 0;
  virtual void set_inputs(std::span<const uint64_t> coordinates) = 0;
  virtual void set_extern(size_t index, const Value& value) = 0;
  virtual Value pull_at(size_t output) = 0;
  virtual void eval() = 0;
  virtual void invalidate_all() = 0;
  virtual void set_log_sink(LogSink sink) = 0;
  virtual std::string engine_name() const = 0;
  virtual const Program& program() const = 0;
};

namespace interp {
// The P1 interpreter: the semantic oracle. Throws EvalError when a const fails.
std::unique_ptr<StateEngine> make_interpreter(std::shared_ptr<const Program> program);
}  // namespace interp

}  // namespace polyrt
