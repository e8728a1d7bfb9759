// BatchOptions checked against a program and resolved into what a batch plan
// is made for: the shape, every coordinate's and every extern's value.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "batch/prepared_batch.hpp"
#include "polyrt/batch.hpp"

namespace polyrt::scheduler {

struct BatchSetup {
  plan::BatchShape shape;
  std::vector<std::string> names;  // per output column
  std::vector<Type> types;         // per output column
  // Per output column: a vector's fixed dimension (Program::output_dimension).
  std::vector<std::optional<uint64_t>> dimensions;
  std::vector<LogicalType> logical_types;  // per output column (Program::output_logical_type)
  // Per output column: where its presence word is among the plan's outputs
  // (a nullable output's, appended after the columns'); none: never null.
  std::vector<std::optional<size_t>> presence;
  std::vector<uint64_t> coordinates;  // per coordinate (iterated and column ones unused)
  std::vector<Value> externs;         // per extern: the batch's value, None when unset
};

// Throws WriteError for unknown outputs, externs or coordinates.
BatchSetup resolve_batch_options(const Program& program, const BatchOptions& options);

// The plan of the setup for kernels placed as `placement`, its scalars
// evaluated.
batch::PreparedBatch prepare(std::shared_ptr<const Program> program, const BatchSetup& setup,
                             plan::PlanPlacement placement = plan::PlanPlacement::Cpu);

}  // namespace polyrt::scheduler
