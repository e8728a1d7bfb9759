// Names joined for messages: "a, b, c".
#pragma once

#include <string>
#include <vector>

namespace polyrt {

inline std::string name_list(const std::vector<std::string>& names) {
  std::string list;
  for (size_t i = 0; i < names.size(); ++i) list += (i ? ", " : "") + names[i];
  return list;
}

}  // namespace polyrt
