// URL percent-encoding and HTML entities, as polydat's url_encode,
// url_decode, html_encode and html_decode define them. Host-only.
#pragma once

#include <string>
#include <string_view>

namespace polyrt::rt {

// Every byte but A-Z a-z 0-9 - _ . ~ as %XX (RFC 3986, upper-case hex).
std::string url_encode(std::string_view text);
// %XX (hex digits of either case) back to its byte; anything else kept.
// Bytes that do not form UTF-8 then become U+FFFD, one per maximal
// invalid sequence (Rust's String::from_utf8_lossy).
std::string url_decode(std::string_view text);
// & < > " ' as &amp; &lt; &gt; &quot; &#x27;.
std::string html_encode(std::string_view text);
// Those five entities (and &#39;) back, one kind after another in that
// order: "&amp;lt;" becomes "<".
std::string html_decode(std::string_view text);
// Invalid UTF-8 replaced by U+FFFD per maximal invalid sequence.
std::string utf8_lossy(std::string_view bytes);

}  // namespace polyrt::rt
