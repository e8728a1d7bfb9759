// Partition specs as polydat defines them (cursor_partitions.md): the spec
// language `chunking [in window] [order]`, its resolution into half-open
// ordinal ranges with boundaries rounded once from exact cumulative
// positions, the four orders, and subdividing a partition. The partitions,
// partition_at and subdivide nodes (nodes_partitions.cpp) are built on it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace polyrt::nodes::partitions {

// A spec that does not parse or resolve; the message says what and where.
struct SpecError {
  std::string message;
};

// The most partitions one spec or subdivide may make: every partition is a
// value carried as text, so a spec such as `1,...` over 10^12 ordinals is
// refused rather than exhausting memory.
inline constexpr uint64_t kMaxPartitions = uint64_t(1) << 20;

// One entry of a spec: a sized bound (a percentage, a fraction of the extent
// or an ordinal count) or one of the list forms.
struct Bound {
  enum class Kind : uint8_t { Pct, Frac, Ord, Star, Fill, StarSplit, StarShaped, Gap };
  Kind kind = Kind::Ord;
  double number = 0;            // Pct, Frac, and a Gap of those
  uint64_t count = 0;           // Ord, StarSplit, and a Gap of an Ord
  std::vector<double> weights;  // StarShaped: normalised to sum to 100
  Kind gap_of = Kind::Ord;      // Gap: the kind of the sized bound it skips

  bool sized() const { return kind == Kind::Pct || kind == Kind::Frac || kind == Kind::Ord; }
  bool tail() const {
    return kind == Kind::Star || kind == Kind::Fill || kind == Kind::StarSplit ||
           kind == Kind::StarShaped;
  }
};

enum class Order : uint8_t { Unchanged, SmallestFirst, LargestFirst, Random };

struct Spec {
  // Form 1 (`start..end`) when set; otherwise a delta list (forms 2 and 3).
  std::optional<std::pair<Bound, Bound>> range;
  std::vector<Bound> deltas;
  std::optional<std::pair<Bound, Bound>> window;
  Order order = Order::Unchanged;
};

// One resolved partition: [start_ord, end_ord), its generation position idx
// among count siblings, and its place in the whole base frame in percent.
struct Partition {
  uint64_t idx = 0;
  uint64_t count = 0;
  uint64_t start_ord = 0;
  uint64_t end_ord = 0;
  double start_pct = 0;
  double end_pct = 0;
  uint64_t base_extent = 0;

  uint64_t cardinality() const { return end_ord - start_ord; }
};

// Parses a spec; throws SpecError.
Spec parse(std::string_view text);

// Resolves a spec against [base_start, base_end): the window first, then the
// chunking inside it, then the order (which never changes idx or count).
// Throws SpecError.
std::vector<Partition> resolve(const Spec& spec, uint64_t base_start, uint64_t base_end);

// `n` contiguous sub-partitions whose sizes differ by at most one ordinal,
// indexed from 0, with percentages interpolated over the parent's. Throws
// SpecError when n is 0 or above the partition's cardinality.
std::vector<Partition> subdivide(const Partition& parent, uint64_t n);

// `p` carried onto an extent of `extent` ordinals from 0 (a body cursor's
// range over a partition made over another extent): each end at its
// percentage of the new extent, rounded once as a spec's percentage is
// (polydat keeps a re-projected partition's place in the whole); idx and
// count kept, the percentages those of the new ordinals.
Partition reproject(const Partition& p, uint64_t extent);

// The spec as Rust's derived Debug prints polydat's PartitionSpec: the text
// whose XXH3-64 seeds the `random` order, so both runtimes shuffle alike.
std::string debug_text(const Spec& spec);

}  // namespace polyrt::nodes::partitions
