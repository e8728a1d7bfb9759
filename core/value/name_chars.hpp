// What a name is in polyrt's languages (programs, comprehensions, templates):
// an ASCII letter or '_', then letters, digits and '_'. Written out rather
// than asked of <cctype>, whose answer follows the process's locale.
#pragma once

namespace polyrt {

inline bool ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
inline bool ident_char(char c) {
  return ident_start(c) || (c >= '0' && c <= '9');
}

}  // namespace polyrt
