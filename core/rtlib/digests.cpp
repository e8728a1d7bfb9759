#include "digests.hpp"

#include "digest_blocks.h"

namespace polyrt::rt {

namespace {

template <uint64_t Bytes, typename Write>
std::string digest(std::string_view bytes, const Write& write) {
  std::string out(Bytes, '\0');
  write(reinterpret_cast<unsigned char*>(out.data()),
        reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
  return out;
}

}  // namespace

std::string sha256(std::string_view bytes) {
  return digest<kSha256Bytes>(bytes, write_sha256);
}

std::string md5(std::string_view bytes) {
  return digest<kMd5Bytes>(bytes, write_md5);
}

}  // namespace polyrt::rt
