// A batch as the bindings hold it.
#pragma once

#include <atomic>
#include <memory>

#include "polyrt/batch.hpp"
#include "polyrt/polyrt.hpp"

namespace polyrt::python {

struct NativeBatch {
  std::shared_ptr<const Program> program;
  // Raised by Ctrl-C: stops the calls running on this batch.
  std::unique_ptr<std::atomic<bool>> stop;
  std::unique_ptr<BatchEvaluator> evaluator;
  BatchOptions options;  // what made the evaluator (stats makes its own)
};

}  // namespace polyrt::python
