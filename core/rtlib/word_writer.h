// Bytes stored as aligned 8-byte words, for the GPU's row and text kernels
// (freestanding, see text_writers.h). A thread writes one contiguous run of
// bytes (a segment's rows); storing each byte by itself costs eight times
// the store instructions, each a partial write of a memory sector. The
// run's bytes before its first 8-byte boundary and after its last whole
// word are stored one at a time, so only the run's own bytes are ever
// written: the neighbouring runs are other threads'. Little-endian, as
// x86-64 and NVPTX are. finish() stores what is pending.
#pragma once

#include "pd_rt.h"

namespace polyrt::rt {

class WordWriter {
 public:
  explicit WordWriter(char* at)
      : start_(at), word_at_((char*)((__UINTPTR_TYPE__)at & ~(__UINTPTR_TYPE__)7)), next_(at) {}

  void put(char c) {
    word_ |= (uint64_t)(unsigned char)c << (8 * (next_ - word_at_));
    if (((__UINTPTR_TYPE__)++next_ & 7) == 0) store_word();
  }
  void put(const char* s, uint64_t n) {
    for (uint64_t k = 0; k < n; ++k) put(s[k]);
  }
  void finish() { store_bytes(next_); }

 private:
  // The word ending at next_: whole when the run began at or before it.
  void store_word() {
    if (word_at_ >= start_) {
      __builtin_memcpy(__builtin_assume_aligned(word_at_, 8), &word_, 8);
    } else {
      store_bytes(next_);
    }
    word_at_ = next_;
    word_ = 0;
  }
  // The pending bytes of the word at word_at_ up to `end`, one at a time.
  void store_bytes(char* end) {
    for (char* q = word_at_ < start_ ? start_ : word_at_; q < end; ++q) {
      *q = (char)(word_ >> (8 * (q - word_at_)));
    }
  }

  char* start_;    // the run's first byte
  char* word_at_;  // the aligned word the pending bytes belong to
  char* next_;     // where the next byte goes
  uint64_t word_ = 0;
};

}  // namespace polyrt::rt
