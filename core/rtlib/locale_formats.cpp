#include "rtlib/locale_formats.hpp"

#include "rtlib/splitmix.h"

namespace polyrt::rt {

namespace {

struct LocaleFormats {
  std::string_view locale;
  std::string_view phones[3];   // one picked; "" ends the list
  std::string_view postals[6];  // one picked; "" ends the list
  // A street: one type picked, '*' in it replaced by the name.
  std::string_view streets[6];
  // An address: '*' the street, '#' a house number of up to `number_digits`
  // digits (no leading zero), '~' a number from 1 to 30 (a Japanese
  // address's chome, banchi and go).
  std::string_view address;
  int number_digits;
};

constexpr LocaleFormats kFormats[] = {
    {"en_US",
     {"+1-%##-555-01##", "(%##) 555-01##"},
     {"#####", "#####-####"},
     {"* Street", "* Avenue", "* Road", "* Lane", "* Drive", "* Court"},
     "# *",
     4},
    {"en_GB",
     {"+44 20 7946 0###", "+44 113 496 0###", "+44 7700 900###"},
     {"A# #AA", "A## #AA", "AA# #AA", "AA## #AA", "A#A #AA", "AA#A #AA"},
     {"* Street", "* Road", "* Lane", "* Close", "* Gardens", "* Crescent"},
     "# *",
     3},
    {"de_DE",
     {"+49 30 @#######", "+49 15@ ########", "+49 @## ######"},
     {"@####"},
     {"*straße", "*weg", "*allee", "*gasse", "*platz", "*ring"},
     "* #",
     3},
    {"fr_FR",
     {"+33 @ ## ## ## ##", "+33 6 ## ## ## ##", "+33 7 ## ## ## ##"},
     {"@####"},
     {"rue *", "avenue *", "boulevard *", "place *", "chemin *", "impasse *"},
     "# *",
     3},
    {"es_ES",
     {"+34 9@ ### ## ##", "+34 6## ### ###", "+34 7## ### ###"},
     {"@####"},
     {"Calle de *", "Avenida de *", "Plaza de *", "Paseo de *", "Camino de *", "Ronda de *"},
     "*, #",
     3},
    {"it_IT",
     {"+39 0@ #### ####", "+39 3## ### ####"},
     {"#####"},
     {"Via *", "Viale *", "Piazza *", "Corso *", "Vicolo *", "Largo *"},
     "*, #",
     3},
    {"pt_BR",
     {"+55 @# 9####-####", "+55 @# @###-####"},
     {"@####-###"},
     {"Rua *", "Avenida *", "Travessa *", "Alameda *", "Praça *", "Estrada *"},
     "*, #",
     4},
    {"ja_JP",
     {"+81 3-####-####", "+81 90-####-####", "+81 80-####-####"},
     {"@##-####"},
     {"*通り", "*町", "*坂"},
     "* ~-~-~",
     2},
    {"zh_CN",
     {"+86 10 #### ####", "+86 13# #### ####", "+86 15# #### ####"},
     {"@#####"},
     {"*路", "*街", "*大道", "*巷"},
     "*#号",
     3},
    {"hi_IN",
     {"+91 22 #### ####", "+91 @#### #####"},
     {"@#####"},
     {"* मार्ग", "* रोड", "* नगर", "* पथ"},
     "#, *",
     3},
};

const LocaleFormats* formats_of(std::string_view locale) {
  for (const LocaleFormats& f : kFormats) {
    if (f.locale == locale) return &f;
  }
  return nullptr;
}

// One of the listed patterns (up to the first ""), picked by `word`.
template <size_t N>
std::string_view picked(uint64_t word, const std::string_view (&patterns)[N]) {
  size_t count = 0;
  while (count < N && !patterns[count].empty()) ++count;
  return patterns[word % count];
}

template <size_t N>
std::string filled(uint64_t input, const std::string_view (&patterns)[N]) {
  SplitMixStream words{input};
  const std::string_view pattern = picked(words.next(), patterns);
  return fill_pattern(words.next(), pattern);
}

// `pattern` with each '*' replaced by `text`.
std::string with_name(std::string_view pattern, std::string_view text) {
  std::string out;
  for (const char c : pattern) {
    if (c == '*') {
      out += text;
    } else {
      out.push_back(c);
    }
  }
  return out;
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

std::string street_name(uint64_t input, std::string_view name, std::string_view locale) {
  SplitMixStream words{input};
  return with_name(picked(words.next(), formats_of(locale)->streets), name);
}

std::string street_address(uint64_t input, std::string_view street, std::string_view locale) {
  const LocaleFormats& f = *formats_of(locale);
  SplitMixStream words{input};
  std::string out;
  for (const char c : f.address) {
    if (c == '*') {
      out += street;
    } else if (c == '#') {
      // Small numbers more often than large ones: 1 .. 10^k - 1 for a k
      // of 1 .. number_digits picked first.
      const uint64_t digits = 1 + words.next() % (uint64_t)f.number_digits;
      uint64_t top = 1;
      for (uint64_t d = 0; d < digits; ++d) top *= 10;
      out += std::to_string(1 + words.next() % (top - 1));
    } else if (c == '~') {
      out += std::to_string(1 + words.next() % 30);
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
