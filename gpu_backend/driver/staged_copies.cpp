#include "gpu_backend/driver/staged_copies.hpp"

#include <algorithm>
#include <cstring>

namespace polyrt::gpu {

namespace {

// Two staging pieces and their streams; piece k of a copy uses slot k % 2.
class Staging {
 public:
  Staging(const GpuContext& context, uint64_t bytes)
      : bytes_(bytes),
        piece_(std::min(bytes, kStagingPieceBytes)),
        pieces_((bytes + piece_ - 1) / piece_),
        first_(context),
        second_(context),
        buffers_{PinnedBuffer(context, piece_),
                 pieces_ > 1 ? PinnedBuffer(context, piece_) : PinnedBuffer()} {}

  uint64_t pieces() const { return pieces_; }
  uint64_t offset(uint64_t k) const { return k * piece_; }
  uint64_t size(uint64_t k) const { return std::min(piece_, bytes_ - k * piece_); }
  void* buffer(uint64_t k) const { return buffers_[k % 2].words(); }
  const GpuStream& stream(uint64_t k) const { return k % 2 ? second_ : first_; }

 private:
  uint64_t bytes_, piece_, pieces_;
  GpuStream first_, second_;
  PinnedBuffer buffers_[2];
};

}  // namespace

void copy_device_to_host(const GpuContext& context, uint64_t address, void* out, uint64_t bytes) {
  if (bytes == 0) return;
  const CurrentContext current = context.make_current();
  const Staging s(context, bytes);
  const auto issue = [&](uint64_t k) {
    context.check(context.driver().api().cuMemcpyDtoHAsync(s.buffer(k), address + s.offset(k),
                                                           s.size(k), s.stream(k).handle()),
                  "cuMemcpyDtoHAsync");
  };
  for (uint64_t k = 0; k < std::min<uint64_t>(2, s.pieces()); ++k) issue(k);
  for (uint64_t k = 0; k < s.pieces(); ++k) {
    s.stream(k).synchronize();
    std::memcpy(static_cast<char*>(out) + s.offset(k), s.buffer(k), s.size(k));
    if (k + 2 < s.pieces()) issue(k + 2);
  }
}

void copy_host_to_device(const GpuContext& context, const void* in, uint64_t address,
                         uint64_t bytes) {
  if (bytes == 0) return;
  const CurrentContext current = context.make_current();
  const Staging s(context, bytes);
  for (uint64_t k = 0; k < s.pieces(); ++k) {
    if (k >= 2) s.stream(k).synchronize();  // the slot's last piece has left
    std::memcpy(s.buffer(k), static_cast<const char*>(in) + s.offset(k), s.size(k));
    context.check(context.driver().api().cuMemcpyHtoDAsync(address + s.offset(k), s.buffer(k),
                                                           s.size(k), s.stream(k).handle()),
                  "cuMemcpyHtoDAsync");
  }
  s.stream(0).synchronize();
  s.stream(1).synchronize();
}

}  // namespace polyrt::gpu
