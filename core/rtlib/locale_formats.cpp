#include "rtlib/locale_formats.hpp"

#include "rtlib/splitmix.h"

namespace polyrt::rt {

namespace {

struct LocaleFormats {
  std::string_view locale;
  std::string_view phones[3];   // one picked; "" ends the list
  std::string_view postals[6];  // one picked; "" ends the list
};

constexpr LocaleFormats kFormats[] = {
    {"en_US", {"+1-%##-555-01##", "(%##) 555-01##"}, {"#####", "#####-####"}},
    {"en_GB",
     {"+44 20 7946 0###", "+44 113 496 0###", "+44 7700 900###"},
     {"A# #AA", "A## #AA", "AA# #AA", "AA## #AA", "A#A #AA", "AA#A #AA"}},
    {"de_DE", {"+49 30 @#######", "+49 15@ ########", "+49 @## ######"}, {"@####"}},
    {"fr_FR", {"+33 @ ## ## ## ##", "+33 6 ## ## ## ##", "+33 7 ## ## ## ##"}, {"@####"}},
    {"es_ES", {"+34 9@ ### ## ##", "+34 6## ### ###", "+34 7## ### ###"}, {"@####"}},
    {"it_IT", {"+39 0@ #### ####", "+39 3## ### ####"}, {"#####"}},
    {"pt_BR", {"+55 @# 9####-####", "+55 @# @###-####"}, {"@####-###"}},
    {"ja_JP", {"+81 3-####-####", "+81 90-####-####", "+81 80-####-####"}, {"@##-####"}},
    {"zh_CN", {"+86 10 #### ####", "+86 13# #### ####", "+86 15# #### ####"}, {"@#####"}},
    {"hi_IN", {"+91 22 #### ####", "+91 @#### #####"}, {"@#####"}},
};

const LocaleFormats* formats_of(std::string_view locale) {
  for (const LocaleFormats& f : kFormats) {
    if (f.locale == locale) return &f;
  }
  return nullptr;
}

template <size_t N>
std::string filled(uint64_t input, const std::string_view (&patterns)[N]) {
  size_t count = 0;
  while (count < N && !patterns[count].empty()) ++count;
  SplitMixStream words{input};
  const std::string_view pattern = patterns[words.next() % count];
  return fill_pattern(words.next(), pattern);
}

}  // namespace

std::string fill_pattern(uint64_t input, std::string_view pattern) {
  SplitMixStream words{input};
  std::string out;
  out.reserve(pattern.size());
  for (const char c : pattern) {
    if (c == '#') {
      out.push_back((char)('0' + words.next() % 10));
    } else if (c == '@') {
      out.push_back((char)('1' + words.next() % 9));
    } else if (c == '%') {
      out.push_back((char)('2' + words.next() % 8));
    } else if (c == 'A') {
      out.push_back((char)('A' + words.next() % 26));
    } else {
      out.push_back(c);
    }
  }
  return out;
}

bool has_locale_formats(std::string_view locale) {
  return formats_of(locale) != nullptr;
}

std::string phone_number(uint64_t input, std::string_view locale) {
  return filled(input, formats_of(locale)->phones);
}

std::string postal_code(uint64_t input, std::string_view locale) {
  return filled(input, formats_of(locale)->postals);
}

}  // namespace polyrt::rt
