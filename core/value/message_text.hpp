// Values quoted in error messages are bounded: a failing row whose input is
// a 5 MB string or a 171 MB partition list must give a message a person can
// read (and an MPI rank can send), not the whole value. The start and the end
// of a long text are kept, cut at character boundaries, with how much was
// left out between them.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace polyrt {

// At most about `limit` bytes of `text`: itself when it fits, else its
// start, " … (N bytes omitted) … " and its end.
std::string text_for_message(std::string_view text, size_t limit = 256);

}  // namespace polyrt
