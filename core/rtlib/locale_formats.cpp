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
  // A person's name: '*' the given name, '^' the family name.
  std::string_view full_name;
  // A company: one picked, '*' a family name, '^' another.
  std::string_view companies[6];
  // A domain's top level: one picked (a repeated one is likelier).
  std::string_view tlds[8];
};

constexpr LocaleFormats kFormats[] = {
    {"en_US",
     {"+1-%##-555-01##", "(%##) 555-01##"},
     {"#####", "#####-####"},
     {"* Street", "* Avenue", "* Road", "* Lane", "* Drive", "* Court"},
     "# *",
     4,
     "* ^",
     {"* Inc.", "* LLC", "* Group", "* and Sons", "*, ^ and Co.", "*-^ Corp."},
     {"com", "com", "com", "com", "net", "org", "us", "io"}},
    {"en_GB",
     {"+44 20 7946 0###", "+44 113 496 0###", "+44 7700 900###"},
     {"A# #AA", "A## #AA", "AA# #AA", "AA## #AA", "A#A #AA", "AA#A #AA"},
     {"* Street", "* Road", "* Lane", "* Close", "* Gardens", "* Crescent"},
     "# *",
     3,
     "* ^",
     {"* Ltd", "* plc", "* & ^ LLP", "* Group plc", "* and Sons Ltd", "*-^ Ltd"},
     {"co.uk", "co.uk", "co.uk", "uk", "com", "com", "org.uk", "net"}},
    {"de_DE",
     {"+49 30 @#######", "+49 15@ ########", "+49 @## ######"},
     {"@####"},
     {"*straße", "*weg", "*allee", "*gasse", "*platz", "*ring"},
     "* #",
     3,
     "* ^",
     {"* GmbH", "* AG", "* & ^ GmbH", "* GmbH & Co. KG", "* KG", "*-^ OHG"},
     {"de", "de", "de", "de", "com", "com", "net", "eu"}},
    {"fr_FR",
     {"+33 @ ## ## ## ##", "+33 6 ## ## ## ##", "+33 7 ## ## ## ##"},
     {"@####"},
     {"rue *", "avenue *", "boulevard *", "place *", "chemin *", "impasse *"},
     "# *",
     3,
     "* ^",
     {"* SA", "* SARL", "* et ^", "* & Fils", "Groupe *", "* SAS"},
     {"fr", "fr", "fr", "com", "com", "net", "org", "eu"}},
    {"es_ES",
     {"+34 9@ ### ## ##", "+34 6## ### ###", "+34 7## ### ###"},
     {"@####"},
     {"Calle de *", "Avenida de *", "Plaza de *", "Paseo de *", "Camino de *", "Ronda de *"},
     "*, #",
     3,
     "* ^",
     {"* S.A.", "* S.L.", "* y ^ S.L.", "Grupo *", "* e Hijos", "*-^ S.A."},
     {"es", "es", "es", "com", "com", "net", "org", "eu"}},
    {"it_IT",
     {"+39 0@ #### ####", "+39 3## ### ####"},
     {"#####"},
     {"Via *", "Viale *", "Piazza *", "Corso *", "Vicolo *", "Largo *"},
     "*, #",
     3,
     "* ^",
     {"* S.p.A.", "* S.r.l.", "* & ^ S.n.c.", "Gruppo *", "* e Figli", "*-^ S.r.l."},
     {"it", "it", "it", "com", "com", "net", "org", "eu"}},
    {"pt_BR",
     {"+55 @# 9####-####", "+55 @# @###-####"},
     {"@####-###"},
     {"Rua *", "Avenida *", "Travessa *", "Alameda *", "Praça *", "Estrada *"},
     "*, #",
     4,
     "* ^",
     {"* Ltda.", "* S.A.", "* & ^ Ltda.", "Grupo *", "* e Filhos", "*-^ S.A."},
     {"com.br", "com.br", "com.br", "br", "com", "com", "net", "org"}},
    {"ja_JP",
     {"+81 3-####-####", "+81 90-####-####", "+81 80-####-####"},
     {"@##-####"},
     {"*通り", "*町", "*坂"},
     "* ~-~-~",
     2,
     "^ *",
     {"株式会社*", "*株式会社", "有限会社*", "合同会社*", "*商事株式会社", "*工業株式会社"},
     {"jp", "jp", "co.jp", "co.jp", "com", "com", "net", "org"}},
    {"zh_CN",
     {"+86 10 #### ####", "+86 13# #### ####", "+86 15# #### ####"},
     {"@#####"},
     {"*路", "*街", "*大道", "*巷"},
     "*#号",
     3,
     "^*",
     {"*氏集团", "*记有限公司", "*氏科技有限公司", "*^贸易有限公司", "*氏实业有限公司", "*记商行"},
     {"cn", "cn", "com.cn", "com.cn", "com", "com", "net", "org"}},
    {"hi_IN",
     {"+91 22 #### ####", "+91 @#### #####"},
     {"@#####"},
     {"* मार्ग", "* रोड", "* नगर", "* पथ"},
     "#, *",
     3,
     "* ^",
     {"* एंड संस", "* इंडस्ट्रीज़", "* एंटरप्राइज़ेज़", "* प्राइवेट लिमिटेड", "* लिमिटेड", "* ट्रेडर्स"},
     {"in", "in", "co.in", "co.in", "com", "com", "net", "org"}},
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

// `pattern` with each '*' replaced by `text` and each '^' by `other`.
std::string with_names(std::string_view pattern, std::string_view text,
                       std::string_view other = {}) {
  std::string out;
  for (const char c : pattern) {
    if (c == '*') {
      out += text;
    } else if (c == '^') {
      out += other;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

// A name as a domain label: its ASCII letters and digits, lower case.
std::string label_of(std::string_view name) {
  std::string out;
  for (const char c : name) {
    if (c >= 'A' && c <= 'Z') {
      out.push_back((char)(c - 'A' + 'a'));
    } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
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
  return with_names(picked(words.next(), formats_of(locale)->streets), name);
}

std::string full_name(std::string_view given, std::string_view family, std::string_view locale) {
  return with_names(formats_of(locale)->full_name, given, family);
}

std::string company_name(uint64_t input, std::string_view name, std::string_view other,
                         std::string_view locale) {
  SplitMixStream words{input};
  return with_names(picked(words.next(), formats_of(locale)->companies), name, other);
}

std::string domain_name(uint64_t input, std::string_view name, std::string_view other,
                        std::string_view locale) {
  SplitMixStream words{input};
  const uint64_t shape = words.next() % 4;  // half one name, a quarter each two
  std::string out = label_of(name);
  if (shape == 2) out += "-";
  if (shape >= 2) out += label_of(other);
  return out + "." + std::string(picked(words.next(), formats_of(locale)->tlds));
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
