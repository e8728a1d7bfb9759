// The registered output formats, in the order `polyrt run --help` lists them.
#include "scheduler/output/columnar_format.hpp"
#include "scheduler/output/npy_format.hpp"
#include "scheduler/output/output_format.hpp"
#include "scheduler/output/raw_text_format.hpp"
#include "scheduler/output/text_format.hpp"

namespace polyrt::scheduler {

namespace {

const TextFormat kCsv{RowFormat::Csv};
const TextFormat kTsv{RowFormat::Tsv};
const TextFormat kJsonl{RowFormat::Jsonl};
const RawTextFormat kText;
const NpyFormat kNpy;
const ColumnarFormat kParquet{"parquet"};
const ColumnarFormat kArrow{"arrow"};
const ColumnarFormat kArrows{"arrows"};

const OutputFormat* const kFormats[] = {&kCsv, &kTsv,     &kJsonl, &kText,
                                        &kNpy, &kParquet, &kArrow, &kArrows};

}  // namespace

const OutputFormat* find_output_format(std::string_view name) {
  for (const OutputFormat* format : kFormats) {
    if (format->name() == name) return format;
  }
  return nullptr;
}

std::string output_format_names() {
  std::string names;
  for (const OutputFormat* format : kFormats) {
    names += (names.empty() ? "" : ", ") + std::string(format->name());
  }
  return names;
}

}  // namespace polyrt::scheduler
