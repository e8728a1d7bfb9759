// Identifiers for test data, each a pure function of a u64: UUIDs (random
// version 4 and time-ordered version 7), payment card numbers with a valid
// Luhn digit, IBANs with valid check digits, and IPv4 and IPv6 addresses.
// Host-only (their nodes run as host steps in batches). Never real: a card
// number or IBAN here belongs to no one, it only passes format checks.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace polyrt::rt {

// 16 bytes as a UUID's text: lowercase hex, dashes after bytes 4, 6, 8, 10.
std::string uuid_text(const unsigned char (&bytes)[16]);

// The UUID (version 4, RFC 4122 variant) whose 128 bits are xxh3(seed) and
// xxh3(xxh3(seed)), little-endian: "8e0f...-....-4...-[89ab]...-...".
std::string hashed_uuid(uint64_t seed);

// RFC 9562's version 7: `unix_ms` in the first 48 bits (big-endian, so the
// text sorts by time), the version, 74 bits from SplitMix64 of `input`'s
// next states, the variant.
std::string uuid_v7(uint64_t input, uint64_t unix_ms);

// A card number of `brand`'s prefix and length, the digits after the
// prefix from `input`, the last one the Luhn check digit. Brands: "visa"
// (4, 16 digits), "mastercard" (51-55, 16), "amex" (34 or 37, 15),
// "discover" (6011, 16). `brand` must be one of them.
std::string card_number(uint64_t input, std::string_view brand);
bool is_card_brand(std::string_view brand);
inline constexpr std::string_view kCardBrands = "visa, mastercard, amex, discover";

// An IBAN of `country` (its ISO 3166 code, in kIbanCountries): the country,
// two check digits (ISO 7064 MOD 97-10: the number read with letters as
// 10..35 is 1 mod 97) and the country's BBAN of digits and capitals from
// `input`.
std::string iban(uint64_t input, std::string_view country);
bool is_iban_country(std::string_view country);
inline constexpr std::string_view kIbanCountries =
    "AT, BE, CH, DE, ES, FR, GB, IE, IT, NL, PL, PT, SE";

// "a.b.c.d" from the input's hash; "x:x:x:x:x:x:x:x" (lowercase hex, no
// zero compression) from two hashes.
std::string ipv4_address(uint64_t input);
std::string ipv6_address(uint64_t input);

}  // namespace polyrt::rt
