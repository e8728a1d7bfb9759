#include "rtlib/identifiers.hpp"

#include "rtlib/splitmix.h"
#include "rtlib/xxh3.hpp"

namespace polyrt::rt {

namespace {

constexpr char kHex[] = "0123456789abcdef";

struct CardBrand {
  std::string_view name;
  std::string_view prefixes[5];  // one is picked
  int length;
};

constexpr CardBrand kBrands[] = {
    {"visa", {"4"}, 16},
    {"mastercard", {"51", "52", "53", "54", "55"}, 16},
    {"amex", {"34", "37"}, 15},
    {"discover", {"6011"}, 16},
};

const CardBrand* brand_named(std::string_view name) {
  for (const CardBrand& b : kBrands) {
    if (b.name == name) return &b;
  }
  return nullptr;
}

// The Luhn check digit of `digits` (the digit that makes the whole valid).
char luhn_digit(std::string_view digits) {
  int sum = 0;
  bool twice = true;  // the rightmost payload digit is doubled
  for (size_t k = digits.size(); k-- > 0;) {
    int d = digits[k] - '0';
    if (twice) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
    twice = !twice;
  }
  return (char)('0' + (10 - sum % 10) % 10);
}

// A country's BBAN as a pattern: 'n' a digit, 'a' a capital letter
// (the ECBS registry's layouts).
struct IbanLayout {
  std::string_view country, bban;
};

constexpr IbanLayout kIbanLayouts[] = {
    {"AT", "nnnnnnnnnnnnnnnn"},         {"BE", "nnnnnnnnnnnn"},
    {"CH", "nnnnnnnnnnnnnnnnn"},        {"DE", "nnnnnnnnnnnnnnnnnn"},
    {"ES", "nnnnnnnnnnnnnnnnnnnn"},     {"FR", "nnnnnnnnnnnnnnnnnnnnnnn"},
    {"GB", "aaaannnnnnnnnnnnnn"},       {"IE", "aaaannnnnnnnnnnnnn"},
    {"IT", "annnnnnnnnnnnnnnnnnnnnn"},  {"NL", "aaaannnnnnnnnn"},
    {"PL", "nnnnnnnnnnnnnnnnnnnnnnnn"}, {"PT", "nnnnnnnnnnnnnnnnnnnnn"},
    {"SE", "nnnnnnnnnnnnnnnnnnnn"},
};

const IbanLayout* layout_of(std::string_view country) {
  for (const IbanLayout& l : kIbanLayouts) {
    if (l.country == country) return &l;
  }
  return nullptr;
}

// `text` (digits and capitals) mod 97, a capital read as 10..35.
unsigned mod97(std::string_view text) {
  unsigned r = 0;
  for (const char c : text) {
    if (c >= 'A' && c <= 'Z') {
      const unsigned v = (unsigned)(c - 'A' + 10);
      r = (r * 100 + v) % 97;
    } else {
      r = (r * 10 + (unsigned)(c - '0')) % 97;
    }
  }
  return r;
}

}  // namespace

std::string uuid_text(const unsigned char (&bytes)[16]) {
  std::string out;
  out.reserve(36);
  for (int k = 0; k < 16; ++k) {
    if (k == 4 || k == 6 || k == 8 || k == 10) out.push_back('-');
    out.push_back(kHex[bytes[k] >> 4]);
    out.push_back(kHex[bytes[k] & 15]);
  }
  return out;
}

std::string hashed_uuid(uint64_t seed) {
  const uint64_t h1 = xxh3_u64(seed), h2 = xxh3_u64(h1);
  unsigned char bytes[16];
  for (int k = 0; k < 8; ++k) {
    bytes[k] = (unsigned char)(h1 >> (8 * k));
    bytes[8 + k] = (unsigned char)(h2 >> (8 * k));
  }
  bytes[6] = (unsigned char)((bytes[6] & 0x0F) | 0x40);  // version 4
  bytes[8] = (unsigned char)((bytes[8] & 0x3F) | 0x80);  // RFC 4122 variant
  return uuid_text(bytes);
}

std::string uuid_v7(uint64_t input, uint64_t unix_ms) {
  SplitMixStream words{input};
  const uint64_t a = words.next(), b = words.next();
  unsigned char bytes[16];
  for (int k = 0; k < 6; ++k) bytes[k] = (unsigned char)(unix_ms >> (8 * (5 - k)));
  for (int k = 0; k < 2; ++k) bytes[6 + k] = (unsigned char)(a >> (8 * k));
  for (int k = 0; k < 8; ++k) bytes[8 + k] = (unsigned char)(b >> (8 * k));
  bytes[6] = (unsigned char)((bytes[6] & 0x0F) | 0x70);  // version 7
  bytes[8] = (unsigned char)((bytes[8] & 0x3F) | 0x80);  // RFC 9562 variant
  return uuid_text(bytes);
}

bool is_card_brand(std::string_view brand) {
  return brand_named(brand) != nullptr;
}

std::string card_number(uint64_t input, std::string_view brand) {
  const CardBrand& b = *brand_named(brand);
  SplitMixStream words{input};
  size_t prefixes = 0;
  while (prefixes < 5 && !b.prefixes[prefixes].empty()) ++prefixes;
  std::string out(b.prefixes[words.next() % prefixes]);
  while ((int)out.size() < b.length - 1) out.push_back((char)('0' + words.next() % 10));
  out.push_back(luhn_digit(out));
  return out;
}

bool is_iban_country(std::string_view country) {
  return layout_of(country) != nullptr;
}

std::string iban(uint64_t input, std::string_view country) {
  const IbanLayout& layout = *layout_of(country);
  SplitMixStream words{input};
  std::string bban;
  for (const char kind : layout.bban) {
    bban.push_back(kind == 'a' ? (char)('A' + words.next() % 26) : (char)('0' + words.next() % 10));
  }
  // Check digits: 98 - (BBAN + country + "00") mod 97.
  const unsigned check = 98 - mod97(bban + std::string(country) + "00");
  return std::string(country) + (char)('0' + check / 10) + (char)('0' + check % 10) + bban;
}

std::string ipv4_address(uint64_t input) {
  const uint64_t h = splitmix64(input);
  std::string out;
  for (int k = 0; k < 4; ++k) {
    if (k) out.push_back('.');
    out += std::to_string((h >> (8 * (3 - k))) & 0xFF);
  }
  return out;
}

std::string ipv6_address(uint64_t input) {
  SplitMixStream words{input};
  const uint64_t halves[2] = {words.next(), words.next()};
  std::string out;
  for (int g = 0; g < 8; ++g) {
    if (g) out.push_back(':');
    const unsigned group = (unsigned)((halves[g / 4] >> (16 * (3 - g % 4))) & 0xFFFF);
    bool leading = true;
    for (int shift = 12; shift >= 0; shift -= 4) {
      const unsigned digit = (group >> shift) & 15;
      if (leading && digit == 0 && shift) continue;
      leading = false;
      out.push_back(kHex[digit]);
    }
  }
  return out;
}

}  // namespace polyrt::rt
