#include "expand/producers.hpp"

#include <cctype>
#include <map>
#include <string>
#include <vector>

#include "comprehension/comprehension.hpp"
#include "comprehension/derivation.hpp"
#include "dsl/lexer.hpp"
#include "dsl/producer_reference.hpp"

namespace polyrt::expand {

// The syntax tree these expansions rewrite.
using namespace polyrt::dsl;

namespace {

// A comprehension's parse, or `fail` with its error.
comprehension::Parsed parse_or_fail(const std::string& text, const ProducerFailure& fail) {
  comprehension::Parsed parsed = comprehension::parse(text);
  if (parsed.error) fail("in 'for " + text + "': " + parsed.error->message, parsed.error->hint);
  return parsed;
}

class Resolver {
 public:
  explicit Resolver(const SourceText& source) : source_(source) {}

  void statements(std::vector<Stmt>& list, Producers producers) {
    for (Stmt& s : list) {
      if (s.kind == StmtKind::Binding && s.is_producer) {
        const std::string text = comprehension_of(s, producers, true);
        producers[s.names[0]] = text;
        s.expr = std::make_unique<Expr>();
        s.expr->kind = ExprKind::Str;
        s.expr->pos = s.comprehension_pos;
        s.expr->text = "for " + text;
        s.is_const = true;
      } else if (s.kind == StmtKind::Traversal) {
        if (is_producer_reference(s.comprehension)) {
          s.comprehension = comprehension_of(s, producers, false);
        } else {
          comprehension_of(s, producers, false);
        }
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
                       s.comprehension.size(), "bind it at the top level of the program");
        }
      }
    }
  }

 private:
  // The comprehension text a producer binding or a traversal stands for:
  // its own, or its producer's derived by the where and order after it.
  std::string comprehension_of(const Stmt& s, const Producers& producers, bool binding) {
    const auto fail = [&](const std::string& message, const std::string& hint = {}) {
      source_.fail(s.comprehension_pos, message, s.comprehension.size(), hint);
    };
    if (binding && is_producer_reference(s.comprehension)) {
      const auto [name, rest] = split_producer_reference(s.comprehension);
      if (rest.empty() && producers.count(name)) {
        fail("'" + s.names[0] + " := for " + std::string(name) +
                 "' derives nothing: a derivation adds a where or an order",
             "traverse the producer itself: for " + std::string(name) + " { ... }");
      }
    }
    return resolve_comprehension(s.comprehension, producers, fail).canonical;
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

comprehension::Comprehension resolve_comprehension(const std::string& written,
                                                   const Producers& producers,
                                                   const ProducerFailure& fail) {
  std::string text = written;
  if (is_producer_reference(text)) {
    const auto [name, rest] = split_producer_reference(text);
    const auto base = producers.find(name);
    if (base == producers.end()) {
      fail("'" + std::string(name) + "' is not a producer bound before this line",
           "bind one first: " + std::string(name) + " := for a in 0..3");
    }
    if (rest.empty()) return std::move(*parse_or_fail(base->second, fail).comprehension);
    // The derivation's own where and order, split by the comprehension
    // parser behind a placeholder clause.
    const comprehension::Parsed tail = comprehension::parse("_ in 0..1 " + std::string(rest));
    if (tail.error) fail(tail.error->message, tail.error->hint);
    text = comprehension::derive(*parse_or_fail(base->second, fail).comprehension,
                                 tail.comprehension->where_text, tail.comprehension->order_text);
  }
  comprehension::Parsed parsed = parse_or_fail(text, fail);
  for (const std::string& name : comprehension::scope_names(*parsed.comprehension)) {
    if (producers.count(name)) {
      fail("'{" + name +
               "}' reads a producer: its tuples as a source are not supported by "
               "polyrt yet",
           "traverse or derive from the producer by its name: for " + name + " { ... }");
    }
  }
  return std::move(*parsed.comprehension);
}

void resolve_producers(Ast& ast, const SourceText& source) {
  Resolver resolver(source);
  resolver.modules(ast.modules);
  resolver.statements(ast.statements, {});
}

}  // namespace polyrt::expand
