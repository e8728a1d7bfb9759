// Test-data identifiers: every row's UUID v7 sorts by its time and says
// version 7, every card number passes Luhn with its brand's prefix and
// length, every IBAN has its country's length and valid MOD 97-10 check
// digits (checked here independently), addresses parse, user agents are
// browsers' own forms; bad brands and
// countries are compile errors listing the valid ones; every engine alike.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <regex>
#include <sstream>

#include "polyrt/batch.hpp"
#include "polyrt/polyrt.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

std::vector<std::string> texts(const std::string& program, uint64_t rows) {
  const std::vector<Column> columns = BatchEvaluator(compile(program), {}).evaluate(0, rows);
  std::vector<std::string> out;
  for (uint64_t r = 0; r < rows; ++r) out.emplace_back(columns[0].text(r));
  return out;
}

bool luhn_valid(const std::string& digits) {
  int sum = 0;
  for (size_t k = 0; k < digits.size(); ++k) {
    int d = digits[digits.size() - 1 - k] - '0';
    if (k % 2 == 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 == 0;
}

// ISO 13616: move the first four characters to the end, read letters as
// 10..35; the number is 1 mod 97.
bool iban_valid(const std::string& iban) {
  const std::string moved = iban.substr(4) + iban.substr(0, 4);
  std::string number;
  for (char c : moved)
    number += std::isupper((unsigned char)c) ? std::to_string(c - 'A' + 10) : std::string(1, c);
  int r = 0;
  for (char c : number) r = (r * 10 + (c - '0')) % 97;
  return r == 1;
}

TEST(Identifiers, UuidV7SortsByTimeAndSaysVersion7) {
  const std::vector<std::string> ids =
      texts("input cycle\nv := uuid_v7(cycle, 1704067200000 + cycle * 977)\n", 5000);
  for (size_t k = 0; k < ids.size(); ++k) {
    ASSERT_EQ(ids[k].size(), 36u);
    EXPECT_EQ(ids[k][14], '7');
    EXPECT_NE(std::string("89ab").find(ids[k][19]), std::string::npos) << ids[k];
    const std::string ms_hex = ids[k].substr(0, 8) + ids[k].substr(9, 4);
    EXPECT_EQ(std::stoull(ms_hex, nullptr, 16), 1704067200000ull + k * 977) << ids[k];
  }
  EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));
}

TEST(Identifiers, CardNumbersPassLuhnWithTheirBrandsShape) {
  const std::map<std::string, std::pair<std::vector<std::string>, size_t>> brands = {
      {"visa", {{"4"}, 16}},
      {"mastercard", {{"51", "52", "53", "54", "55"}, 16}},
      {"amex", {{"34", "37"}, 15}},
      {"discover", {{"6011"}, 16}}};
  for (const auto& [brand, shape] : brands) {
    const std::vector<std::string> numbers =
        texts("input cycle\nv := card_numbers(cycle, \"" + brand + "\")\n", 20000);
    std::map<std::string, int> prefixes;
    for (const std::string& n : numbers) {
      ASSERT_EQ(n.size(), shape.second) << brand << " " << n;
      ASSERT_TRUE(luhn_valid(n)) << n;
      const auto p = std::find_if(shape.first.begin(), shape.first.end(),
                                  [&](const std::string& p) { return n.rfind(p, 0) == 0; });
      ASSERT_NE(p, shape.first.end()) << n;
      ++prefixes[*p];
    }
    EXPECT_EQ(prefixes.size(), shape.first.size()) << brand << ": every prefix occurs";
  }
}

TEST(Identifiers, IbansHaveTheirCountrysLengthAndValidCheckDigits) {
  const std::map<std::string, size_t> lengths = {
      {"AT", 20}, {"BE", 16}, {"CH", 21}, {"DE", 22}, {"ES", 24}, {"FR", 27}, {"GB", 22},
      {"IE", 22}, {"IT", 27}, {"NL", 18}, {"PL", 28}, {"PT", 25}, {"SE", 24}};
  for (const auto& [country, length] : lengths) {
    for (const std::string& iban :
         texts("input cycle\nv := ibans(cycle, \"" + country + "\")\n", 5000)) {
      ASSERT_EQ(iban.size(), length) << iban;
      ASSERT_EQ(iban.substr(0, 2), country);
      ASSERT_TRUE(iban_valid(iban)) << iban;
    }
  }
}

TEST(Identifiers, AddressesParse) {
  for (const std::string& a : texts("input cycle\nv := ipv4_addresses(cycle)\n", 2000)) {
    std::istringstream in(a);
    int octets = 0;
    for (std::string part; std::getline(in, part, '.'); ++octets) {
      ASSERT_TRUE(!part.empty() && part.size() <= 3 && std::stoi(part) <= 255) << a;
    }
    EXPECT_EQ(octets, 4) << a;
  }
  for (const std::string& a : texts("input cycle\nv := ipv6_addresses(cycle)\n", 2000)) {
    EXPECT_EQ(std::count(a.begin(), a.end(), ':'), 7) << a;
    EXPECT_EQ(a.find_first_not_of("0123456789abcdef:"), std::string::npos) << a;
  }
}

// User agents are one of the browsers' own forms, the same version where
// a form repeats it (Edge's Chrome, Firefox's rv), at their shares.
TEST(Identifiers, UserAgentsAreBrowsersOwnForms) {
  const std::regex chrome(
      R"(Mozilla/5\.0 \((Windows NT 10\.0; Win64; x64|Linux; Android 1[0-4]; K|Macintosh; Intel )"
      R"(Mac OS X 10_15_7|X11; Linux x86_64)\) AppleWebKit/537\.36 \(KHTML, like Gecko\) )"
      R"(Chrome/(1[23]\d)\.0\.0\.0 (Mobile )?Safari/537\.36( Edg/(1[23]\d)\.0\.0\.0)?)");
  const std::regex firefox(
      R"(Mozilla/5\.0 \([^)]*; rv:(1[23]\d)\.0\) Gecko/20100101 Firefox/(1[23]\d)\.0)");
  const std::regex safari(
      R"(Mozilla/5\.0 \((iPhone; CPU iPhone OS|iPad; CPU OS) (1[678])_(\d) like Mac OS X\) )"
      R"(AppleWebKit/605\.1\.15 \(KHTML, like Gecko\) Version/(1[678])\.(\d) Mobile/15E148 )"
      R"(Safari/604\.1|Mozilla/5\.0 \(Macintosh; Intel Mac OS X 10_15_7\) AppleWebKit/605\.1\.15 )"
      R"(\(KHTML, like Gecko\) Version/1[678]\.\d Safari/605\.1\.15)");
  const std::regex other(
      R"(Mozilla/5\.0 \(Linux; Android 1[0-4]; SAMSUNG SM-S918B\) AppleWebKit/537\.36 \(KHTML, )"
      R"(like Gecko\) SamsungBrowser/2[3-6]\.0 Chrome/1[23]\d\.0\.0\.0 Mobile Safari/537\.36|)"
      R"(Mozilla/5\.0 \(compatible; Googlebot/2\.1; \+http://www\.google\.com/bot\.html\))");
  const uint64_t rows = 100'000;
  uint64_t windows_chrome = 0;
  for (const std::string& a : texts("input cycle\nv := user_agents(cycle)\n", rows)) {
    std::smatch m;
    if (std::regex_match(a, m, chrome)) {
      if (m[4].matched) ASSERT_EQ(m[2], m[5]) << a;
      windows_chrome += m[1] == "Windows NT 10.0; Win64; x64" && !m[4].matched;
    } else if (std::regex_match(a, m, firefox)) {
      ASSERT_EQ(m[1], m[2]) << a;
    } else if (std::regex_match(a, m, safari)) {
      if (m[1].matched) ASSERT_TRUE(m[2] == m[4] && m[3] == m[5]) << a;
    } else {
      ASSERT_TRUE(std::regex_match(a, other)) << a;
    }
  }
  EXPECT_NEAR((double)windows_chrome / rows, 0.30, 0.01);
}

// Each locale's phone numbers and postal codes match its formats.
TEST(Identifiers, PhonesAndPostalCodesHaveTheirLocalesShape) {
  const std::map<std::string, std::pair<std::string, std::string>> shapes = {
      {"en_US", {R"(\+1-[2-9]\d\d-555-01\d\d|\([2-9]\d\d\) 555-01\d\d)", R"(\d{5}(-\d{4})?)"}},
      {"en_GB",
       {R"(\+44 (20 7946 0|113 496 0|7700 900)\d{3})", R"([A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2})"}},
      {"de_DE", {R"(\+49 [\d ]+)", R"([1-9]\d{4})"}},
      {"pt_BR", {R"(\+55 [1-9]\d [\d-]+)", R"([1-9]\d{4}-\d{3})"}},
      {"ja_JP", {R"(\+81 (3|90|80)-\d{4}-\d{4})", R"([1-9]\d\d-\d{4})"}},
      {"hi_IN", {R"(\+91 [\d ]+)", R"([1-9]\d{5})"}}};
  for (const auto& [locale, shape] : shapes) {
    const std::regex phone(shape.first), postal(shape.second);
    for (const std::string& p :
         texts("input cycle\nv := phone_numbers(cycle, \"" + locale + "\")\n", 2000)) {
      ASSERT_TRUE(std::regex_match(p, phone)) << locale << ": " << p;
    }
    for (const std::string& p :
         texts("input cycle\nv := postal_codes(cycle, \"" + locale + "\")\n", 2000)) {
      ASSERT_TRUE(std::regex_match(p, postal)) << locale << ": " << p;
    }
  }
  expect_contains(compile_error("input x\nv := phone_numbers(x, \"en_AU\")\n"),
                  {"unknown 'en_AU'; valid: en_US, en_GB, de_DE"});
}

TEST(Identifiers, BadBrandsAndCountriesListTheValidOnes) {
  expect_contains(compile_error("input x\nv := card_numbers(x, \"diners\")\n"),
                  {"unknown 'diners'; valid: visa, mastercard, amex, discover"});
  expect_contains(compile_error("input x\nv := ibans(x, \"US\")\n"),
                  {"unknown 'US'; valid: AT, BE, CH, DE, ES, FR, GB, IE, IT, NL, PL, PT, SE"});
}

TEST(Identifiers, EveryEngineAndTierAgree) {
  const char* program =
      "input x\nu := uuid_v7(x, 1704067200000)\nc := card_numbers(x, \"amex\")\n"
      "i := ibans(x, \"GB\")\nv4 := ipv4_addresses(x)\nv6 := ipv6_addresses(x)\n"
      "p := phone_numbers(x, \"fr_FR\")\nz := postal_codes(x, \"en_GB\")\n"
      "ua := user_agents(x)\n";
  for (uint64_t x : {0ull, 1ull, 4242ull, ~0ull}) {
    values_everywhere(program, x, compile(program)->output_names());
  }
}

}  // namespace
}  // namespace polyrt::test
