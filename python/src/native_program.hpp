// The compiled program as the bindings hold it.
#pragma once

#include <memory>

#include "polyrt/polyrt.hpp"

namespace polyrt::python {

struct NativeProgram {
  std::shared_ptr<const Program> program;
};

}  // namespace polyrt::python
