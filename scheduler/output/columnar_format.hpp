// Parquet and Arrow IPC (`--format parquet`, `arrow`, `arrows`): formats
// whose writer lives in the Arrow module (columnar_module.hpp), loaded the
// first time one of them opens. Without the module they are still listed
// and refused when opened, with what to install.
#pragma once

#include "scheduler/output/output_format.hpp"

namespace polyrt::scheduler {

class ColumnarFormat final : public SingleFileFormat {
 public:
  // `name`: parquet, arrow (the IPC file format) or arrows (the IPC stream).
  explicit constexpr ColumnarFormat(std::string_view name) : name_(name) {}
  std::string_view name() const override { return name_; }
  std::optional<RowFormat> text_rows() const override { return std::nullopt; }
  std::vector<Codec> codecs() const override;
  // Refuses a terminal as standard output, and (OutputError) a missing or
  // broken Arrow module, naming where it was looked for.
  std::unique_ptr<FormatWriter> open(const OutputPlace& place,
                                     const OutputColumns& columns) const override;

  // Rows per Parquet row group unless a job says.
  static constexpr uint64_t kRowGroupRows = uint64_t{1} << 17;

  // Why the Arrow module cannot be used (loading it the first time), or ""
  // when it can.
  static std::string module_error();

 private:
  std::string_view name_;
};

}  // namespace polyrt::scheduler
