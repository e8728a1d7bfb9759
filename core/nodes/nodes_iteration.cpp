// polydat's streamer: a comprehension as a value, the same text a producer
// binding (x := for ...) has in polyrt: "for " and the comprehension as
// polydat prints it.
#include "comprehension/comprehension.hpp"
#include "nodes/registry.hpp"

namespace polyrt::nodes {

void register_iteration_nodes(Registry& r) {
  r.add({.name = "streamer",
         .family = "strings",
         .args = {konst("comprehension", PortType::Str)},
         .results = {Type::Str},
         .summary = "The comprehension (`a in 0..3, tag in p,q where ...`) as a producer's value: "
                    "\"for \" and its canonical text (\"for a in 0..3, tag in p, q\"); a "
                    "comprehension that does not parse is a compile error.",
         .prepare = [](const std::vector<Value>& p) -> std::shared_ptr<const Prepared> {
           const comprehension::Parsed parsed = comprehension::parse(p[0].as_str());
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
