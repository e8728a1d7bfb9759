#include "expand/producers.hpp"

#include <map>
#include <string>
#include <vector>

#include "comprehension/comprehension.hpp"
#include "comprehension/derivation.hpp"
#include "nodes/call_node.hpp"
#include "nodes/registry.hpp"
#include "polyrt/error.hpp"

namespace polyrt::expand {

// The syntax tree these expansions rewrite.
using namespace polyrt::syntax;

comprehension::Comprehension parse_or_fail(const std::string& text, const ProducerFailure& fail) {
  comprehension::Parsed parsed = comprehension::parse(text, nodes::comprehension_call_element);
  if (parsed.error) fail("in 'for " + text + "': " + parsed.error->message, parsed.error->hint);
  return std::move(*parsed.comprehension);
}

namespace {

class Resolver {
 public:
  explicit Resolver(const SourceText& source) : source_(source) {}

  void statements(std::vector<Stmt>& list, Producers producers) {
    for (Stmt& s : list) {
      if (s.kind == StmtKind::Binding && s.is_producer) {
        s.comprehension = comprehension_of(s, producers, true);
        producers[s.names[0]] = s.comprehension;
        s.expr = std::make_unique<Expr>();
        s.expr->kind = ExprKind::Str;
        s.expr->pos = s.comprehension_pos;
        s.expr->text = "for " + s.comprehension.canonical;
        s.is_const = true;
      } else if (s.kind == StmtKind::Traversal) {
        s.comprehension = comprehension_of(s, producers, false);
        statements(s.body, producers);
      }
    }
    for (Stmt& s : list) {
      if (s.expr) refuse_plain_use(*s.expr, producers);
    }
  }

  void modules(std::vector<ModuleDef>& defs) {
    for (const ModuleDef& m : defs) {
      for (const Stmt& s : m.body) {
        if (s.is_producer) {
          source_.fail(s.comprehension_pos,
                       "a 'for' producer in a module body is not supported by polyrt yet",
                       s.comprehension_length, "bind it at the top level of the program");
        }
      }
    }
  }

 private:
  // The comprehension a producer binding or a traversal stands for: its
  // own, or its producer's derived by the where and order after it.
  comprehension::Comprehension comprehension_of(const Stmt& s, const Producers& producers,
                                                bool binding) {
    const auto fail = [&](const std::string& message, const std::string& hint = {}) {
      source_.fail(s.comprehension_pos, message, s.comprehension_length, hint);
    };
    const comprehension::Comprehension& c = s.comprehension;
    if (binding && !c.producer.empty() && c.where_text.empty() && c.order_text.empty() &&
        producers.count(c.producer)) {
      fail("'" + s.names[0] + " := for " + c.producer +
               "' derives nothing: a derivation adds a where or an order",
           "traverse the producer itself: for " + c.producer + " { ... }");
    }
    return resolve_comprehension(c, producers, fail);
  }

  // A producer is read only by a string that interpolates it (the
  // interpolation is a printf call whose arguments after the format are
  // the placeholders' values).
  void refuse_plain_use(const Expr& root, const Producers& producers) {
    std::vector<std::pair<const Expr*, bool>> stack{{&root, false}};  // (expr, interpolated)
    while (!stack.empty()) {
      const auto [e, interpolated] = stack.back();
      stack.pop_back();
      if (e->kind == ExprKind::Ident && !interpolated && producers.count(e->text)) {
        source_.fail(
            e->pos,
            "'" + e->text + "' is a producer (" + e->text + " := for ...), not a plain value",
            e->text.size(),
            "traverse it (for " + e->text + " { ... }), derive from it (y := for " + e->text +
                " where ...) or interpolate it (\"{" + e->text + "}\")");
      }
      const bool printf = e->kind == ExprKind::Call && e->text == "printf";
      for (size_t a = 0; a < e->args.size(); ++a)
        stack.push_back({e->args[a].get(), printf && a > 0});
    }
  }

  const SourceText& source_;
};

}  // namespace

namespace {

// A clause's source `{p}` of a producer p of one element: p's tuples, the
// values of that element (polydat's producer as a source). polyrt takes
// them when the program compiles, so p must read nothing of the scope.
void read_producer_sources(comprehension::Comprehension& c, const Producers& producers,
                           const ProducerFailure& fail) {
  for (comprehension::Comprehension& alternative : c.alternatives) {
    read_producer_sources(alternative, producers, fail);
  }
  for (comprehension::Clause& clause : c.clauses) {
    for (comprehension::Source& source : clause.sources) {
      if (source.kind != comprehension::Source::Kind::Reference) continue;
      const auto producer = producers.find(source.reference);
      if (producer == producers.end()) continue;
      const comprehension::Comprehension& p = producer->second;
      const std::string name = source.reference;
      if (comprehension::element_names(p).size() != 1) {
        fail("'{" + name + "}' reads a producer of " +
                 std::to_string(comprehension::element_names(p).size()) +
                 " elements; a source gives one value a tuple",
             "traverse the producer by its name: for " + name + " { ... }");
      }
      if (!comprehension::scope_names(p).empty()) {
        fail("'{" + name + "}' reads a producer that reads '" +
                 comprehension::scope_names(p).front() +
                 "': polyrt takes a producer's tuples as a source when the program compiles",
             "traverse the producer by its name: for " + name + " { ... }");
      }
      comprehension::Tuples tuples;
      try {
        tuples = comprehension::evaluate(
            p, [](std::string_view) { return std::nullopt; }, nodes::call_node_elements);
      } catch (const Error& e) {
        fail("'{" + name + "}': " + e.what(), "");
      }
      comprehension::Source values;
      for (std::vector<Value>& row : tuples.rows) values.values.push_back(std::move(row[0]));
      if (values.values.empty()) {
        fail("'{" + name + "}' reads a producer of no tuples", "");
      }
      source = std::move(values);
    }
  }
}

}  // namespace

comprehension::Comprehension resolve_comprehension(const comprehension::Comprehension& written,
                                                   const Producers& producers,
                                                   const ProducerFailure& fail) {
  comprehension::Comprehension c = written;
  if (!written.producer.empty()) {
    const auto base = producers.find(written.producer);
    if (base == producers.end()) {
      fail("'" + written.producer + "' is not a producer bound before this line",
           "bind one first: " + written.producer + " := for a in 0..3");
    }
    comprehension::Parsed derived = comprehension::derive(base->second, written);
    if (derived.error) fail(derived.error->message, derived.error->hint);
    c = std::move(*derived.comprehension);
  }
  read_producer_sources(c, producers, fail);
  for (const std::string& name : comprehension::scope_names(c)) {
    if (producers.count(name)) {
      fail("'{" + name + "}' reads a producer, which only a clause's whole source can",
           "traverse or derive from the producer by its name: for " + name + " { ... }");
    }
  }
  return c;
}

void resolve_producers(Ast& ast, const SourceText& source) {
  Resolver resolver(source);
  resolver.modules(ast.modules);
  resolver.statements(ast.statements, {});
}

}  // namespace polyrt::expand
