#include "program/call_source.hpp"

#include "graph/evaluate_node.hpp"
#include "nodes/partition_lists.hpp"
#include "nodes/registry.hpp"
#include "polyrt/error.hpp"
#include "value/vector_values.hpp"

namespace polyrt {

namespace {

bool fits(nodes::PortType port, Type type) {
  switch (port) {
    case nodes::PortType::U64:
      return type == Type::U64;
    case nodes::PortType::F64:
      return type == Type::F64 || type == Type::U64;
    case nodes::PortType::Str:
      return type == Type::Str;
    case nodes::PortType::Partition:
      return type == Type::Partition;
    case nodes::PortType::PartitionList:
      return type == Type::PartitionList;
    case nodes::PortType::VecF32:
    case nodes::PortType::VecI32:
    case nodes::PortType::VecI64:
    case nodes::PortType::Vector:
      return nodes::port_accepts(port, type);
    default:
      return false;
  }
}

Value evaluate_call(std::string_view callee, std::span<const Value> args) {
  const std::string node(callee);
  const nodes::NodeDef* def = nodes::find_node(callee);
  if (!def) throw EvalError("no node '" + node + "'", "for");
  if (args.size() > def->args.size()) {
    throw EvalError(node + " takes " + std::to_string(def->args.size()) + " arguments, not " +
                        std::to_string(args.size()),
                    "for");
  }
  ir::Node n;
  n.kind = ir::NodeKind::Call;
  n.def = def;
  std::vector<Value> inputs;
  std::vector<Type> input_types;
  for (size_t k = 0; k < def->args.size(); ++k) {
    const nodes::ArgSpec& spec = def->args[k];
    Value v = k < args.size() ? args[k] : spec.default_value;
    const std::string argument = node + "'s argument '" + std::string(spec.name) + "'";
    if (v.is_none()) throw EvalError(argument + " has no value", "for");
    if (v.type() == Type::U64 && spec.type == nodes::PortType::F64) {
      v = Value::f64((double)v.as_u64());
    }
    if (!fits(spec.type, v.type())) {
      throw EvalError(argument + " takes a " + std::string(nodes::port_type_name(spec.type)) +
                          ", not " + v.to_string(),
                      "for");
    }
    if (spec.kind == nodes::ArgKind::Const) {
      n.params.push_back(std::move(v));
    } else {
      input_types.push_back(v.type());
      inputs.push_back(std::move(v));
      n.inputs.push_back({});
    }
  }
  n.out_types = def->results.empty() ? def->result_types(input_types, n.params) : def->results;
  n.prepared = def->prepare ? def->prepare(n.params) : def->shared_prepared;
  std::vector<const Value*> pointers;
  for (const Value& v : inputs) pointers.push_back(&v);
  std::vector<Value> out(n.out_types.size());
  if (const std::optional<std::string> failed =
          ir::run_node(n, pointers.data(), out.data(), ir::discarded_side_channel())) {
    throw EvalError(node + " failed: " + *failed, "for");
  }
  return out.at(0);
}

}  // namespace

std::vector<Value> call_source_values(std::string_view callee, std::span<const Value> args) {
  const Value list = evaluate_call(callee, args);
  if (list.is_none()) return {};
  if (is_vector(list.type())) return vector_elements(list);
  if (list.type() != Type::PartitionList) return {list};
  return nodes::partition_list_elements(list);
}

}  // namespace polyrt
