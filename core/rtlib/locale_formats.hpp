// Phone numbers, postal codes, streets, addresses, names, companies and
// domains in each locale's own format, filled from a u64: the formats are
// polyrt's, written from each country's numbering plan, postal system,
// company law and naming customs (facts, not copied data). Host-only.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace polyrt::rt {

// A pattern filled from `input`'s SplitMix64 stream: '#' a digit, '@' a
// digit 1-9, '%' a digit 2-9 (a North American area code's first), 'A' a
// capital letter; any other character as it is.
std::string fill_pattern(uint64_t input, std::string_view pattern);

// One of the locale's phone formats (international form), filled. en_US
// and en_GB numbers lie in the ranges their regulators keep for fiction
// (555-0100..0199; Ofcom's drama numbers); other locales' are plausible
// and may be someone's: never dial them.
std::string phone_number(uint64_t input, std::string_view locale);
// One of the locale's postal code formats, filled (en_GB: the six outward
// and inward shapes; pt_BR: CEP; ja_JP: 〒 without the mark).
std::string postal_code(uint64_t input, std::string_view locale);

// A street of the locale named after `name` (a family name of the locale):
// one of its common street types in its order ("Main Street", "Müllerstraße",
// "rue Dupont", "Calle de García", "人民路"), the type picked from `input`.
std::string street_name(uint64_t input, std::string_view name, std::string_view locale);
// `street` with a house number where the locale puts it ("12 Main Street",
// "Müllerstraße 12", "Via Rossi, 12", "人民路128号", "中村通り 3-12-5").
std::string street_address(uint64_t input, std::string_view street, std::string_view locale);

// A person's full name in the locale's order ("Anna Müller", "佐藤 太郎",
// "王伟").
std::string full_name(std::string_view given, std::string_view family, std::string_view locale);
// A company of the locale named after `name` (and `other`, for the forms
// of two partners), one of its common legal forms or styles picked from
// `input`: "Jones LLC", "Müller & Weber GmbH", "Groupe Dupont", "株式会社佐藤".
std::string company_name(uint64_t input, std::string_view name, std::string_view other,
                         std::string_view locale);
// A domain of the locale made of ASCII names (lower case, letters and
// digits only): "mueller.de", "sato-ito.co.jp", "rossibianchi.it"; one
// name half the time, two (joined plain or by '-') otherwise, a top-level
// domain of the locale's common ones picked from `input`. Any such name
// may be registered by someone: never send mail to it.
std::string domain_name(uint64_t input, std::string_view name, std::string_view other,
                        std::string_view locale);

bool has_locale_formats(std::string_view locale);
inline constexpr std::string_view kFormatLocales =
    "en_US, en_GB, de_DE, fr_FR, es_ES, it_IT, pt_BR, ja_JP, zh_CN, hi_IN";

}  // namespace polyrt::rt
