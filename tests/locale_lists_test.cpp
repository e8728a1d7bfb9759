// The per-locale lists (given_names, last_names, city_names) and what is
// built on them (streets, companies, domains, people): a million rows of
// each locale pick each list's heaviest entries at their weights' shares
// (within 5 %), names' ASCII forms are the same picks, every form has its
// locale's shape, a bad locale or script is a compile error listing the
// valid ones, and every engine and tier picks alike.
#include "nodes/locale_lists.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <regex>
#include <set>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include "polyrt/batch.hpp"
#include "polyrt/polyrt.hpp"
#include "tests/test_support.hpp"

namespace polyrt::test {
namespace {

using nodes::kLocaleLists;
using nodes::LocaleList;

// The call that picks from a kind of list, after its locale argument.
const std::map<std::string_view, std::pair<std::string_view, std::string_view>> kCallOfKind = {
    {"given names", {"given_names", ""}},
    {"given names ascii", {"given_names", ", \"ascii\""}},
    {"last names", {"last_names", ""}},
    {"last names ascii", {"last_names", ", \"ascii\""}},
    {"cities", {"city_names", ""}}};

const LocaleList& list_of(std::string_view locale, std::string_view kind) {
  for (const LocaleList& l : kLocaleLists) {
    if (l.locale == locale && l.kind == kind) return l;
  }
  throw std::runtime_error("no list " + std::string(locale) + " " + std::string(kind));
}

// The index of `word` in the list, or -1.
ptrdiff_t index_in(const LocaleList& list, std::string_view word) {
  for (size_t k = 0; k < list.count; ++k) {
    if (list.rows[k].word == word) return (ptrdiff_t)k;
  }
  return -1;
}

TEST(LocaleLists, PicksFollowTheListsWeights) {
  const uint64_t rows = 1'000'000;
  for (const LocaleList& list : kLocaleLists) {
    const auto& [node, script] = kCallOfKind.at(list.kind);
    const std::string program = "input cycle\nv := " + std::string(node) + "(cycle, \"" +
                                std::string(list.locale) + "\"" + std::string(script) + ")\n";
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

// A name's ASCII form is the same pick of the list's twin: entry for
// entry, printable ASCII, and the forms the sources give.
TEST(LocaleLists, AsciiNamesAreTheSamePickInAsciiLetters) {
  for (const nodes::LocaleCountry& locale : nodes::kLocaleCountries) {
    for (const char* kind : {"given names", "last names"}) {
      const LocaleList& native = list_of(locale.locale, kind);
      const LocaleList& ascii = list_of(locale.locale, std::string(kind) + " ascii");
      ASSERT_EQ(native.count, ascii.count) << locale.locale << " " << kind;
      const std::string node = kind == std::string("given names") ? "given_names" : "last_names";
      const std::string program = "input x\nn := " + node + "(x, \"" + std::string(locale.locale) +
                                  "\")\na := " + node + "(x, \"" + std::string(locale.locale) +
                                  "\", \"ascii\")\n";
      const std::vector<Column> columns = BatchEvaluator(compile(program), {}).evaluate(0, 2000);
      for (size_t r = 0; r < 2000; ++r) {
        const ptrdiff_t k = index_in(native, columns[0].text(r));
        ASSERT_GE(k, 0);
        ASSERT_EQ(columns[1].text(r), ascii.rows[k].word) << locale.locale << " " << kind;
        for (const char c : columns[1].text(r))
          ASSERT_TRUE(c >= 32 && c < 127) << columns[1].text(r);
      }
    }
  }
  const std::pair<const char*, const char*> pairs[] = {{"ja_JP", "佐藤"},
                                                       {"zh_CN", "王"},
                                                       {"hi_IN", "शर्मा"},
                                                       {"de_DE", "Müller"},
                                                       {"fr_FR", "Lefèvre"}};
  const char* forms[] = {"Sato", "Wang", "Sharma", "Mueller", "Lefevre"};
  for (size_t k = 0; k < std::size(pairs); ++k) {
    const ptrdiff_t at = index_in(list_of(pairs[k].first, "last names"), pairs[k].second);
    ASSERT_GE(at, 0) << pairs[k].second;
    EXPECT_EQ(list_of(pairs[k].first, "last names ascii").rows[at].word, forms[k]);
  }
  expect_contains(compile_error("input x\nv := given_names(x, \"de_DE\", \"latin\")\n"),
                  {"unknown script 'latin'; valid: native, ascii"});
}

// Companies carry one of their locale's legal forms and one of its family
// names; domains are ASCII family names under one of its top-level domains.
TEST(LocaleLists, CompaniesAndDomainsHaveTheirLocalesShape) {
  const std::map<std::string, std::pair<std::string, std::string>> shapes = {
      {"en_US", {R"(.+ (Inc\.|LLC|Group|and Sons|and Co\.|Corp\.))", "com|net|org|us|io"}},
      {"en_GB", {R"(.+ (Ltd|plc|LLP|Group plc|and Sons Ltd))", "co\\.uk|uk|com|org\\.uk|net"}},
      {"de_DE", {R"(.+ (GmbH|AG|GmbH & Co\. KG|KG|OHG))", "de|com|net|eu"}},
      {"fr_FR", {R"(.+ (SA|SARL|SAS|& Fils)|.+ et .+|Groupe .+)", "fr|com|net|org|eu"}},
      {"es_ES", {R"(.+ (S\.A\.|S\.L\.|e Hijos)|Grupo .+)", "es|com|net|org|eu"}},
      {"it_IT", {R"(.+ (S\.p\.A\.|S\.r\.l\.|S\.n\.c\.|e Figli)|Gruppo .+)", "it|com|net|org|eu"}},
      {"pt_BR", {R"(.+ (Ltda\.|S\.A\.|e Filhos)|Grupo .+)", "com\\.br|br|com|net|org"}},
      {"ja_JP", {R"((株式会社|有限会社|合同会社).+|.+(株式会社))", "jp|co\\.jp|com|net|org"}},
      {"zh_CN", {R"(.+(集团|有限公司|商行))", "cn|com\\.cn|com|net|org"}},
      {"hi_IN",
       {R"(.+ (एंड संस|इंडस्ट्रीज़|एंटरप्राइज़ेज़|प्राइवेट लिमिटेड|लिमिटेड|ट्रेडर्स))", "in|co\\.in|com|net|org"}}};
  for (const auto& [locale, shape] : shapes) {
    const std::string program = "input x\nc := company_names(x, \"" + locale +
                                "\")\nd := domain_names(x, \"" + locale + "\")\n";
    const std::vector<Column> columns = BatchEvaluator(compile(program), {}).evaluate(0, 500);
    const std::regex company(shape.first);
    const std::regex domain("[a-z0-9]+(-?[a-z0-9]+)?\\.(" + shape.second + ")");
    const LocaleList& family = list_of(locale, "last names");
    std::set<std::string> companies;
    for (size_t r = 0; r < 500; ++r) {
      const std::string c(columns[0].text(r)), d(columns[1].text(r));
      ASSERT_TRUE(std::regex_match(c, company)) << locale << ": " << c;
      ASSERT_TRUE(std::regex_match(d, domain)) << locale << ": " << d;
      bool named = false;
      for (size_t k = 0; k < family.count && !named; ++k) {
        named = c.find(family.rows[k].word) != std::string::npos;
      }
      ASSERT_TRUE(named) << locale << ": " << c << " names no family name of the locale";
      companies.insert(c);
    }
    EXPECT_GT(companies.size(), 150u) << locale;  // not a handful of names over and over
  }
}

// A person agrees with itself: its country is its locale's, its names,
// their ASCII forms and its city come from its locale's lists, its name is
// in the locale's order; the shares follow the spec.
TEST(LocaleLists, PeopleAgreeWithThemselves) {
  const uint64_t rows = 100'000;
  const char* program =
      "input x\n(locale, country, name, given, last, given_a, last_a, city, phone) := "
      "people(x, \"en_US:60;de_DE:25;ja_JP:10;zh_CN:5\")\n";
  const std::vector<Column> c = BatchEvaluator(compile(program), {}).evaluate(0, rows);
  std::map<std::string, uint64_t> shares;
  for (size_t r = 0; r < rows; ++r) {
    const std::string locale(c[0].text(r));
    ++shares[locale];
    if (r >= 3000) continue;
    const std::string_view given = c[3].text(r), last = c[4].text(r);
    for (const nodes::LocaleCountry& l : nodes::kLocaleCountries) {
      if (l.locale == locale) ASSERT_EQ(c[1].text(r), l.country);
    }
    const ptrdiff_t g = index_in(list_of(locale, "given names"), given);
    const ptrdiff_t f = index_in(list_of(locale, "last names"), last);
    ASSERT_TRUE(g >= 0 && f >= 0) << given << " " << last;
    ASSERT_EQ(c[5].text(r), list_of(locale, "given names ascii").rows[g].word);
    ASSERT_EQ(c[6].text(r), list_of(locale, "last names ascii").rows[f].word);
    ASSERT_GE(index_in(list_of(locale, "cities"), c[7].text(r)), 0) << c[7].text(r);
    const std::string expected_name =
        locale == "ja_JP"   ? std::string(last) + " " + std::string(given)
        : locale == "zh_CN" ? std::string(last) + std::string(given)
                            : std::string(given) + " " + std::string(last);
    ASSERT_EQ(c[2].text(r), expected_name);
    ASSERT_FALSE(c[8].text(r).empty());
  }
  ASSERT_EQ(shares.size(), 4u);
  const std::map<std::string, double> expected = {
      {"en_US", 0.60}, {"de_DE", 0.25}, {"ja_JP", 0.10}, {"zh_CN", 0.05}};
  for (const auto& [locale, share] : expected) {
    EXPECT_NEAR((double)shares[locale] / rows, share, 0.01) << locale;
  }
  // The person module: an email of the ASCII names and the id.
  const std::vector<Column> person =
      BatchEvaluator(compile("input x\n(n, f, l, email) := person(x)\n"), {}).evaluate(0, 2000);
  const std::regex email(R"([a-z0-9]+\.[a-z0-9]+\.(\d+)@example\.com)");
  for (size_t r = 0; r < 2000; ++r) {
    std::smatch m;
    const std::string e(person[3].text(r));
    ASSERT_TRUE(std::regex_match(e, m, email)) << e;
    ASSERT_EQ(m[1].str(), std::to_string(r));
  }
  expect_contains(compile_error("input x\n(a, b) := people(x, \"en_US, xx_XX\")\n"),
                  {"unknown locale 'xx_XX'; valid: all, en_US"});
  expect_contains(compile_error("input x\n(a, b) := people(x, \"en_US:-1\")\n"), {"weight"});
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
      "s := street_addresses(x, \"ja_JP\")\nt := street_names(x + 3, \"de_DE\")\n"
      "ga := given_names(x, \"hi_IN\", \"ascii\")\nla := last_names(x + 1, \"zh_CN\", \"ascii\")\n"
      "co := company_names(x, \"ja_JP\")\ndo := domain_names(x + 4, \"de_DE\")\n"
      "(pl, pc, pn, pg, pf, pga, pfa, pci, pph) := people(x, \"all\")\n";
  for (uint64_t x : {0ull, 1ull, 99ull, 123456789ull, ~0ull}) {
    values_everywhere(program, x, compile(program)->output_names());
  }
}

}  // namespace
}  // namespace polyrt::test
