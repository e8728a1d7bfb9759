// SHA-256 (FIPS 180-4) and MD5 (RFC 1321) of a byte string, as polydat's
// sha256 and md5 nodes give them: the raw 32 and 16 digest bytes (over
// digest_blocks.h, which GPU kernels run too).
#pragma once

#include <string>
#include <string_view>

namespace polyrt::rt {

std::string sha256(std::string_view bytes);
std::string md5(std::string_view bytes);

}  // namespace polyrt::rt
