#include "rtlib/user_agents.hpp"

#include <string_view>

#include "rtlib/splitmix.h"

namespace polyrt::rt {

namespace {

// A browser's user agent with its share of rows (per thousand). In the
// pattern, '$' is a Chrome major version, '@' a Firefox one, '#' Samsung
// Internet's, '!' Android's, '~' Safari's "major.minor" and '^' the same
// iOS version as "major_minor".
struct Agent {
  unsigned per_mille;
  std::string_view pattern;
};

constexpr Agent kAgents[] = {
    {300,
     "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
     "Chrome/$.0.0.0 Safari/537.36"},
    {250,
     "Mozilla/5.0 (Linux; Android !; K) AppleWebKit/537.36 (KHTML, like Gecko) "
     "Chrome/$.0.0.0 Mobile Safari/537.36"},
    {150,
     "Mozilla/5.0 (iPhone; CPU iPhone OS ^ like Mac OS X) AppleWebKit/605.1.15 (KHTML, like "
     "Gecko) Version/~ Mobile/15E148 Safari/604.1"},
    {70,
     "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) "
     "Chrome/$.0.0.0 Safari/537.36"},
    {50,
     "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
     "Chrome/$.0.0.0 Safari/537.36 Edg/$.0.0.0"},
    {40,
     "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) "
     "Version/~ Safari/605.1.15"},
    {30,
     "Mozilla/5.0 (Linux; Android !; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) "
     "SamsungBrowser/#.0 Chrome/$.0.0.0 Mobile Safari/537.36"},
    {20, "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:@.0) Gecko/20100101 Firefox/@.0"},
    {20,
     "Mozilla/5.0 (iPad; CPU OS ^ like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
     "Version/~ Mobile/15E148 Safari/604.1"},
    {20,
     "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/$.0.0.0 "
     "Safari/537.36"},
    {20, "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"},
    {15, "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:@.0) Gecko/20100101 Firefox/@.0"},
    {15, "Mozilla/5.0 (X11; Linux x86_64; rv:@.0) Gecko/20100101 Firefox/@.0"},
};

constexpr unsigned total_per_mille() {
  unsigned sum = 0;
  for (const Agent& a : kAgents) sum += a.per_mille;
  return sum;
}
static_assert(total_per_mille() == 1000);

}  // namespace

std::string user_agent(uint64_t input) {
  SplitMixStream words{input};
  uint64_t pick = words.next() % 1000;
  size_t k = 0;
  while (pick >= kAgents[k].per_mille) pick -= kAgents[k++].per_mille;
  // One version of each kind a row, recent ones.
  const std::string chrome = std::to_string(120 + words.next() % 12);
  const std::string firefox = std::to_string(120 + words.next() % 14);
  const std::string samsung = std::to_string(23 + words.next() % 4);
  const std::string android = std::to_string(10 + words.next() % 5);
  const uint64_t safari_major = 16 + words.next() % 3, safari_minor = words.next() % 7;
  const std::string safari = std::to_string(safari_major) + "." + std::to_string(safari_minor);
  const std::string ios = std::to_string(safari_major) + "_" + std::to_string(safari_minor);
  std::string out;
  for (const char c : kAgents[k].pattern) {
    switch (c) {
      case '$':
        out += chrome;
        break;
      case '@':
        out += firefox;
        break;
      case '#':
        out += samsung;
        break;
      case '!':
        out += android;
        break;
      case '~':
        out += safari;
        break;
      case '^':
        out += ios;
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

}  // namespace polyrt::rt
