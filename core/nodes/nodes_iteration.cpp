// polydat's streamer: a comprehension as a value, the same text a producer
// binding (x := for ...) has in polyrt: "for " and the comprehension as
// polydat prints it; and which nodes a comprehension may call as a source.
#include "comprehension/comprehension.hpp"
#include "nodes/registry.hpp"
#include "polyrt/numeric_types.hpp"
#include "rtlib/json_text.hpp"

namespace polyrt::nodes {

std::optional<Type> comprehension_call_element(std::string_view node) {
  if (node == "partitions" || node == "subdivide") return Type::Partition;
  const NodeDef* def = find_language_node(node);
  if (!def || def->results.size() != 1 || !is_vector(def->results[0])) return std::nullopt;
  return vector_element(def->results[0]);
}

void register_iteration_nodes(Registry& r) {
  r.add({.name = "streamer",
         .family = "strings",
         .args = {konst("comprehension", PortType::Str)},
         .results = {Type::Str},
         .summary = "The comprehension (`a in 0..3, tag in p,q where ...`, or polydat's "
                    "serialized value, a JSON object whose \"text\" is it) as a producer's value: "
                    "\"for \" and its canonical text (\"for a in 0..3, tag in p, q\"); a "
                    "comprehension that does not parse is a compile error.",
         .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
           // polydat's compiler writes the comprehension as its serialized
           // value, a JSON object whose "text" is the comprehension.
           std::string text = p[0].as_str();
           if (text.starts_with("{")) {
             std::string error;
             const std::optional<rt::JsonValue> payload = rt::parse_json(text, error);
             const rt::JsonValue* comprehension_text = nullptr;
             if (payload) {
               const auto it = payload->members.find("text");
               if (it != payload->members.end() && it->second.kind == rt::JsonValue::Kind::String) {
                 comprehension_text = &it->second;
               }
             }
             if (!comprehension_text) {
               throw ParamError{0,
                                "a JSON payload needs a \"text\" member holding the "
                                "comprehension"};
             }
             text = comprehension_text->scalar;
           }
           const comprehension::Parsed parsed =
               comprehension::parse(text, comprehension_call_element);
           if (parsed.error) {
             throw ParamError{0, "not a comprehension: " + parsed.error->message + " (at offset " +
                                     std::to_string(parsed.error->offset) + ")"};
           }
           auto prepared = std::make_shared<Prepared>();
           prepared->strs = {"for " + parsed.comprehension->canonical};
           return prepared;
         },
         .eval = [](Call& c) { c.set_str(c.prepared().strs[0]); }});
}

}  // namespace polyrt::nodes
