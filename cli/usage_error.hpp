// Bad command-line usage of the polyrt command: a missing or malformed
// flag, flags that cannot go together. The command exits 2 for it (as for
// an OutputError), 1 for the library's other errors.
#pragma once

#include "polyrt/error.hpp"

namespace polyrt::cli {

class UsageError : public Error {
 public:
  using Error::Error;
};

}  // namespace polyrt::cli
