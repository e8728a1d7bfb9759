// Identifiers for test data (rtlib/identifiers.hpp): UUIDs v4 and v7, card
// numbers with a valid Luhn digit, IBANs with valid check digits, IPv4 and
// IPv6 addresses; and a locale's phone numbers and postal codes
// (rtlib/locale_formats.hpp). Host steps (their results are text).
#include <string>

#include "nodes/registry.hpp"
#include "rtlib/identifiers.hpp"
#include "rtlib/locale_formats.hpp"
#include "rtlib/user_agents.hpp"

namespace polyrt::nodes {

namespace {

using P = PortType;

// A constant argument that must name one of `valid`.
template <bool (*Known)(std::string_view), const std::string_view* Valid>
std::shared_ptr<const Prepared> one_of_names(const std::vector<Value>& p) {
  if (!Known(p[0].as_str())) {
    throw ParamError{0, "unknown '" + p[0].as_str() + "'; valid: " + std::string(*Valid)};
  }
  return nullptr;
}

}  // namespace

void register_identifier_nodes(Registry& r) {
  constexpr std::string_view kFamily = "identifiers";
  r.add({.name = "hashed_uuid",
         .family = kFamily,
         .args = {wire("input", P::U64)},
         .results = {Type::Str},
         .summary = "A version-4 UUID (lowercase hex with dashes) whose bits are XXH3-64 of "
                    "input and of that hash, as polydat makes it.",
         .eval = [](Call& c) { c.set_str(rt::hashed_uuid(c.u64(0))); }});
  r.add({.name = "uuid_v7",
         .family = kFamily,
         .keyed_by_seed = true,
         .args = {wire("input", P::U64), wire("unix_ms", P::U64)},
         .results = {Type::Str},
         .summary = "A time-ordered version-7 UUID (RFC 9562): unix_ms in its first 48 bits, so "
                    "the text sorts by time, then 74 bits from SplitMix64 of input's next "
                    "states (it hashes its input).",
         .eval = [](Call& c) { c.set_str(rt::uuid_v7(c.u64(0), c.u64(1))); }});
  static constexpr std::string_view kBrands = rt::kCardBrands;
  r.add({.name = "card_numbers",
         .family = kFamily,
         .keyed_by_seed = true,
         .args = {wire("input", P::U64), konst("brand", P::Str, Value::str("visa"))},
         .results = {Type::Str},
         .summary = "A payment card number of the brand (visa: 4 and 16 digits; mastercard: "
                    "51-55, 16; amex: 34 or 37, 15; discover: 6011, 16) whose last digit is the "
                    "Luhn check digit: it passes format checks and belongs to no one (test data "
                    "only). Hashes its input.",
         .prepare = one_of_names<rt::is_card_brand, &kBrands>,
         .eval = [](Call& c) { c.set_str(rt::card_number(c.u64(0), c.param_str(0))); }});
  static constexpr std::string_view kCountries = rt::kIbanCountries;
  r.add({.name = "ibans",
         .family = kFamily,
         .keyed_by_seed = true,
         .args = {wire("input", P::U64), konst("country", P::Str, Value::str("DE"))},
         .results = {Type::Str},
         .summary = "An IBAN of the country (AT, BE, CH, DE, ES, FR, GB, IE, IT, NL, PL, PT, SE: "
                    "its BBAN's length and letters) with valid ISO 7064 MOD 97-10 check "
                    "digits, the BBAN from input: it passes format checks and belongs to no "
                    "one (test data only; bank codes are not real banks'). Hashes its input.",
         .prepare = one_of_names<rt::is_iban_country, &kCountries>,
         .eval = [](Call& c) { c.set_str(rt::iban(c.u64(0), c.param_str(0))); }});
  static constexpr std::string_view kLocales = rt::kFormatLocales;
  r.add({.name = "phone_numbers",
         .family = kFamily,
         .keyed_by_seed = true,
         .args = {wire("input", P::U64), konst("locale", P::Str, Value::str("en_US"))},
         .results = {Type::Str},
         .summary = "A phone number in the locale's international format (the ten of "
                    "given_names), one of its formats picked and filled from input's hash: "
                    "en_US and en_GB numbers lie in the ranges kept for fiction (555-0100..0199, "
                    "Ofcom's drama numbers); the others are plausible and may be someone's, so "
                    "never dial them. Hashes its input.",
         .prepare = one_of_names<rt::has_locale_formats, &kLocales>,
         .eval = [](Call& c) { c.set_str(rt::phone_number(c.u64(0), c.param_str(0))); }});
  r.add({.name = "postal_codes",
         .family = kFamily,
         .keyed_by_seed = true,
         .args = {wire("input", P::U64), konst("locale", P::Str, Value::str("en_US"))},
         .results = {Type::Str},
         .summary = "A postal code in the locale's format (en_US ZIP and ZIP+4, en_GB's six "
                    "outward/inward shapes, de_DE/fr_FR/es_ES/it_IT five digits, pt_BR "
                    "#####-###, ja_JP ###-####, zh_CN and hi_IN six digits), filled from "
                    "input's hash: well-formed, not necessarily assigned. Hashes its input.",
         .prepare = one_of_names<rt::has_locale_formats, &kLocales>,
         .eval = [](Call& c) { c.set_str(rt::postal_code(c.u64(0), c.param_str(0))); }});
  r.add({.name = "ipv4_addresses",
         .family = kFamily,
         .keyed_by_seed = true,
         .args = {wire("input", P::U64)},
         .results = {Type::Str},
         .summary = "A dotted IPv4 address, its 32 bits from SplitMix64 of input (any address, "
                    "private and reserved ones included). Hashes its input.",
         .eval = [](Call& c) { c.set_str(rt::ipv4_address(c.u64(0))); }});
  r.add({.name = "ipv6_addresses",
         .family = kFamily,
         .keyed_by_seed = true,
         .args = {wire("input", P::U64)},
         .results = {Type::Str},
         .summary = "An IPv6 address as eight groups of lowercase hex without leading zeros "
                    "(no :: compression), its 128 bits from SplitMix64 of input's next states. "
                    "Hashes its input.",
         .eval = [](Call& c) { c.set_str(rt::ipv6_address(c.u64(0))); }});
  r.add({.name = "user_agents",
         .family = kFamily,
         .keyed_by_seed = true,
         .args = {wire("input", P::U64)},
         .results = {Type::Str},
         .summary = "A browser's User-Agent header as it sends it: Chrome on Windows, Android, "
                    "macOS and Linux, Safari on iPhone, iPad and macOS, Edge, Firefox, Samsung "
                    "Internet and Googlebot, by rough shares of today's web traffic (Chrome on "
                    "Windows 30 %, on Android 25 %, Safari on iPhone 15 %, ...), each with a "
                    "recent version (Chrome 120-131, Firefox 120-133, Safari 16.0-18.6). "
                    "Hashes its input.",
         .eval = [](Call& c) { c.set_str(rt::user_agent(c.u64(0))); }});
}

}  // namespace polyrt::nodes
