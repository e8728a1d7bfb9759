#include "value/message_text.hpp"

namespace polyrt {

namespace {

bool continuation_byte(char c) {
  return ((unsigned char)c & 0xC0) == 0x80;
}

}  // namespace

std::string text_for_message(std::string_view text, size_t limit) {
  if (text.size() <= limit) return std::string(text);
  // Three quarters from the start (what a reader looks at first), a quarter
  // from the end, neither cutting a UTF-8 character in two.
  size_t head = limit * 3 / 4;
  while (head > 0 && continuation_byte(text[head])) --head;
  size_t tail = text.size() - limit / 4;
  while (tail < text.size() && continuation_byte(text[tail])) ++tail;
  return std::string(text.substr(0, head)) + " … (" + std::to_string(tail - head) +
         " bytes omitted) … " + std::string(text.substr(tail));
}

}  // namespace polyrt
