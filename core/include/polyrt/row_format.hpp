// The text row formats of bulk output: the bytes `polyrt run --format
// csv|tsv|jsonl` writes and BatchEvaluator::stream_rows hands over.
// Freestanding (no include): the host's row writers and the GPU's row
// kernels (rtlib/row_fields.h) take this one enum.
#pragma once

namespace polyrt {

enum class RowFormat : unsigned char { Csv, Tsv, Jsonl };

}  // namespace polyrt
