#include "scheduler/runtime/batch_setup.hpp"

#include "program/name_list.hpp"
#include "program/program_internals.hpp"

namespace polyrt::scheduler {

BatchSetup resolve_batch_options(const Program& p, const BatchOptions& options) {
  BatchSetup setup;
  plan::BatchShape& shape = setup.shape;
  const size_t coordinate_count = p.input_names().size();

  setup.names = options.outputs.empty() ? p.output_names() : options.outputs;
  for (const std::string& name : setup.names) {
    const size_t index = p.require_output(name);
    shape.outputs.push_back((uint32_t)index);
    setup.types.push_back(p.output_type(index));
    setup.dimensions.push_back(p.output_dimension(index));
    setup.logical_types.push_back(p.output_logical_type(index));
  }
  for (size_t o = 0; o < setup.names.size(); ++o) {
    const std::optional<size_t> presence = ProgramInternals::presence_output(p, shape.outputs[o]);
    if (presence) shape.outputs.push_back((uint32_t)*presence);
    setup.presence.push_back(presence ? std::optional<size_t>(shape.outputs.size() - 1)
                                      : std::nullopt);
  }

  setup.coordinates = options.coordinates;
  if (setup.coordinates.empty()) setup.coordinates.assign(coordinate_count, 0);
  if (setup.coordinates.size() != coordinate_count) {
    throw WriteError("the batch got " + std::to_string(setup.coordinates.size()) +
                     " coordinate value(s) but the program has " +
                     std::to_string(coordinate_count) + ": " + name_list(p.input_names()));
  }
  shape.coordinates.assign(coordinate_count, plan::CoordinateSource::Scalar);
  if (coordinate_count > 0) {
    if (options.iterated >= coordinate_count) {
      throw WriteError("iterated coordinate " + std::to_string(options.iterated) +
                       " is out of range (the program has " + std::to_string(coordinate_count) +
                       " coordinates: " + name_list(p.input_names()) + ")");
    }
    shape.coordinates[options.iterated] = plan::CoordinateSource::Lane;
  }
  for (size_t c : options.column_coordinates) {
    if (c >= coordinate_count || c == options.iterated) {
      throw WriteError("column coordinate " + std::to_string(c) +
                       " must be a coordinate other than the iterated one (the program has " +
                       std::to_string(coordinate_count) + ": " + name_list(p.input_names()) + ")");
    }
    shape.coordinates[c] = plan::CoordinateSource::Column;
  }

  for (const ExternInfo& e : p.externs()) setup.externs.push_back(e.default_value);
  for (const auto& [name, value] : options.externs) {
    auto [index, stored] = ProgramInternals::resolve_extern_write(p, name, value);
    setup.externs[index] = std::move(stored);
  }
  for (const Value& v : setup.externs) shape.extern_is_none.push_back(v.is_none());
  for (const ExternInfo& e : p.externs()) {
    shape.extern_default_is_none.push_back(e.default_value.is_none());
  }
  return setup;
}

batch::PreparedBatch prepare(std::shared_ptr<const Program> program, const BatchSetup& setup,
                             plan::PlanPlacement placement) {
  plan::BatchShape shape = setup.shape;
  shape.placement = placement;
  return batch::prepare_batch(std::move(program), shape, setup.coordinates, setup.externs);
}

}  // namespace polyrt::scheduler
