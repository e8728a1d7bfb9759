// The per-locale lists (given_names, last_names, city_names): a million
// rows of each locale pick each list's heaviest entries at their weights'
// shares (within 5 %), a bad locale is a compile error listing the valid
// ones, and every engine and tier picks alike.
#include "nodes/locale_lists.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <regex>
#include <string_view>
#include <unordered_map>

#include "polyrt/batch.hpp"
#include "polyrt/polyrt.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

using nodes::kLocaleLists;
using nodes::LocaleList;

const std::map<std::string_view, std::string_view> kNodeOfKind = {
    {"given names", "given_names"}, {"last names", "last_names"}, {"cities", "city_names"}};

TEST(LocaleLists, PicksFollowTheListsWeights) {
  const uint64_t rows = 1'000'000;
  for (const LocaleList& list : kLocaleLists) {
    const std::string node(kNodeOfKind.at(list.kind));
    const std::string program =
        "input cycle\nv := " + node + "(cycle, \"" + std::string(list.locale) + "\")\n";
    const std::vector<Column> columns = BatchEvaluator(compile(program), {}).evaluate(0, rows);
    std::unordered_map<std::string_view, uint64_t> counts;
    for (uint64_t r = 0; r < rows; ++r) ++counts[columns[0].text(r)];
    // Weights per distinct word (a list may name a word twice).
    std::map<std::string, double> weights;
    for (size_t k = 0; k < list.count; ++k)
      weights[std::string(list.rows[k].word)] += list.rows[k].weight;
    const double total = std::accumulate(weights.begin(), weights.end(), 0.0,
                                         [](double s, const auto& w) { return s + w.second; });
    std::vector<std::pair<double, std::string>> heaviest;
    for (const auto& [word, weight] : weights) heaviest.emplace_back(weight, word);
    std::sort(heaviest.rbegin(), heaviest.rend());
    // The heaviest entry, when it holds 1 % of the rows, and the heaviest
    // tenth of the entries together.
    double expected = 0, observed = 0;
    for (size_t k = 0; k < std::max<size_t>(1, heaviest.size() / 10); ++k) {
      expected += heaviest[k].first / total;
      observed += (double)counts[heaviest[k].second] / (double)rows;
    }
    EXPECT_NEAR(observed / expected, 1.0, 0.05) << list.locale << " " << list.kind;
    const double top = heaviest[0].first / total;
    if (top >= 0.01) {
      EXPECT_NEAR((double)counts[heaviest[0].second] / (double)rows / top, 1.0, 0.05)
          << list.locale << " " << list.kind << ": " << heaviest[0].second;
    }
    for (const auto& [word, count] : counts) {
      ASSERT_TRUE(weights.count(std::string(word)))
          << word << " is not in " << list.locale << " " << list.kind;
    }
  }
}

// Streets are named after one of the locale's family names, with its street
// types in its order, and addresses put the house number where the locale
// writes it.
TEST(LocaleLists, StreetsAndAddressesHaveTheirLocalesShape) {
  const std::map<std::string, std::string> shapes = {
      {"en_US", R"(\d{1,4} .+ (Street|Avenue|Road|Lane|Drive|Court))"},
      {"en_GB", R"(\d{1,3} .+ (Street|Road|Lane|Close|Gardens|Crescent))"},
      {"de_DE", R"(.+(straße|weg|allee|gasse|platz|ring) \d{1,3})"},
      {"fr_FR", R"(\d{1,3} (rue|avenue|boulevard|place|chemin|impasse) .+)"},
      {"es_ES", R"((Calle|Avenida|Plaza|Paseo|Camino|Ronda) de .+, \d{1,3})"},
      {"it_IT", R"((Via|Viale|Piazza|Corso|Vicolo|Largo) .+, \d{1,3})"},
      {"pt_BR", R"((Rua|Avenida|Travessa|Alameda|Praça|Estrada) .+, \d{1,4})"},
      {"ja_JP", R"(.+(通り|町|坂) \d{1,2}-\d{1,2}-\d{1,2})"},
      {"zh_CN", R"(.+(路|街|大道|巷)\d{1,3}号)"},
      {"hi_IN", R"(\d{1,3}, .+ (मार्ग|रोड|नगर|पथ))"}};
  for (const auto& [locale, shape] : shapes) {
    const std::string program = "input cycle\ns := street_names(cycle, \"" + locale +
                                "\")\na := street_addresses(cycle, \"" + locale + "\")\n";
    const std::vector<Column> columns = BatchEvaluator(compile(program), {}).evaluate(0, 300);
    const LocaleList* last = nullptr;
    for (const LocaleList& l : kLocaleLists) {
      if (l.locale == locale && l.kind == "last names") last = &l;
    }
    ASSERT_NE(last, nullptr);
    const std::regex address(shape);
    for (size_t r = 0; r < 300; ++r) {
      const std::string street(columns[0].text(r)), full(columns[1].text(r));
      ASSERT_TRUE(std::regex_match(full, address)) << locale << ": " << full;
      bool named = false;
      for (size_t k = 0; k < last->count && !named; ++k) {
        named = street.find(last->rows[k].word) != std::string::npos;
      }
      ASSERT_TRUE(named) << locale << ": " << street << " names no family name of the locale";
    }
  }
  expect_contains(compile_error("input x\nv := street_addresses(x, \"fr_CA\")\n"),
                  {"unknown locale 'fr_CA'; valid: en_US"});
}

TEST(LocaleLists, ABadLocaleListsTheValidOnes) {
  expect_contains(compile_error("input x\nv := city_names(x, \"de-DE\")\n"),
                  {"unknown locale 'de-DE'; valid: en_US, en_GB, de_DE, fr_FR, es_ES, it_IT, "
                   "pt_BR, ja_JP, zh_CN, hi_IN"});
}

TEST(LocaleLists, EveryEngineAndTierAgree) {
  const char* program =
      "input x\ng := given_names(x, \"hi_IN\")\nl := last_names(x + 1, \"zh_CN\")\n"
      "c := city_names(x + 2, \"pt_BR\")\nu := city_names(x)\n"
      "s := street_addresses(x, \"ja_JP\")\nt := street_names(x + 3, \"de_DE\")\n";
  for (uint64_t x : {0ull, 1ull, 99ull, 123456789ull, ~0ull}) {
    values_everywhere(program, x, compile(program)->output_names());
  }
}

}  // namespace
}  // namespace polyrt::test
