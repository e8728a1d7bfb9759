#include "nodes/call_node.hpp"

#include "nodes/partition_lists.hpp"
#include "nodes/run_call.hpp"
#include "polyrt/error.hpp"
#include "value/vector_values.hpp"

namespace polyrt::nodes {

namespace {

bool fits(PortType port, Type type) {
  switch (port) {
    case PortType::U64:
      return type == Type::U64;
    case PortType::F64:
      return type == Type::F64 || type == Type::U64;
    case PortType::Str:
      return type == Type::Str;
    case PortType::Partition:
      return type == Type::Partition;
    case PortType::PartitionList:
      return type == Type::PartitionList;
    case PortType::VecF32:
    case PortType::VecI32:
    case PortType::VecI64:
    case PortType::Vector:
      return port_accepts(port, type);
    default:
      return false;
  }
}

}  // namespace

Value call_node(std::string_view callee, std::span<const Value> args) {
  const std::string node(callee);
  const NodeDef* def = find_node(callee);
  if (!def) throw EvalError("no node '" + node + "'", "for");
  if (args.size() > def->args.size()) {
    throw EvalError(node + " takes " + std::to_string(def->args.size()) + " arguments, not " +
                        std::to_string(args.size()),
                    "for");
  }
  std::vector<Value> params;
  std::vector<Value> inputs;
  std::vector<Type> input_types;
  for (size_t k = 0; k < def->args.size(); ++k) {
    const ArgSpec& spec = def->args[k];
    Value v = k < args.size() ? args[k] : spec.default_value;
    const std::string argument = node + "'s argument '" + std::string(spec.name) + "'";
    if (v.is_none()) throw EvalError(argument + " has no value", "for");
    if (v.type() == Type::U64 && spec.type == PortType::F64) {
      v = Value::f64((double)v.as_u64());
    }
    if (!fits(spec.type, v.type())) {
      throw EvalError(argument + " takes a " + std::string(port_type_name(spec.type)) + ", not " +
                          v.to_string(),
                      "for");
    }
    if (spec.kind == ArgKind::Const) {
      params.push_back(std::move(v));
    } else {
      input_types.push_back(v.type());
      inputs.push_back(std::move(v));
    }
  }
  const std::vector<Type> out_types =
      def->results.empty() ? def->result_types(input_types, params) : def->results;
  const std::shared_ptr<const Prepared> prepared =
      def->prepare ? def->prepare(params) : def->shared_prepared;
  std::vector<const Value*> pointers;
  for (const Value& v : inputs) pointers.push_back(&v);
  std::vector<Value> out(out_types.size());
  if (const std::optional<std::string> failed =
          run_call(*def, pointers.data(), inputs.size(), params, prepared_or_nothing(prepared),
                   out_types, out.data(), discarded_side_channel())) {
    throw EvalError(node + " failed: " + *failed, "for");
  }
  return out.at(0);
}

std::vector<Value> call_node_elements(std::string_view callee, std::span<const Value> args) {
  const Value list = call_node(callee, args);
  if (list.is_none()) return {};
  if (is_vector(list.type())) return vector_elements(list);
  if (list.type() != Type::PartitionList) return {list};
  return partition_list_elements(list);
}

}  // namespace polyrt::nodes
