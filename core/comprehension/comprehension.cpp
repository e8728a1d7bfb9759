#include "comprehension/comprehension.hpp"

#include <algorithm>

#include "comprehension/clause_rules.hpp"
#include "comprehension/generators.hpp"

namespace polyrt::comprehension {

bool reads_earlier_element(const Comprehension& c, size_t k) {
  for (const Source& source : c.clauses[k].sources) {
    for (const std::string& name : references(source)) {
      for (size_t j = 0; j < k; ++j) {
        const std::vector<std::string>& names = c.clauses[j].names;
        if (std::find(names.begin(), names.end(), name) != names.end()) return true;
      }
    }
  }
  return false;
}

bool is_composed(std::string_view reference) {
  return reference.find('{') != std::string_view::npos;
}

std::vector<std::string> composed_of(std::string_view reference) {
  std::vector<std::string> out;
  for (size_t open = reference.find('{'); open != std::string_view::npos;
       open = reference.find('{', open + 1)) {
    const size_t close = reference.find('}', open);
    out.emplace_back(reference.substr(open + 1, close - open - 1));
  }
  return out;
}

std::optional<std::string> compose(
    std::string_view reference,
    const std::function<std::optional<Value>(std::string_view)>& scope) {
  std::string name;
  size_t at = 0;
  for (size_t open = reference.find('{'); open != std::string_view::npos;
       open = reference.find('{', at)) {
    const size_t close = reference.find('}', open);
    name += reference.substr(at, open - at);
    const std::optional<Value> v = scope(reference.substr(open + 1, close - open - 1));
    if (!v || v->is_none()) return std::nullopt;
    name += v->to_string();
    at = close + 1;
  }
  return name + std::string(reference.substr(at));
}

std::vector<std::string> references(const Source& s) {
  if ((s.kind == Source::Kind::Reference && is_composed(s.reference)) ||
      s.kind == Source::Kind::Text) {
    return composed_of(s.reference);
  }
  if (s.kind == Source::Kind::Reference) return {s.reference};
  std::vector<std::string> out;
  for (const Source& a : s.arguments) {
    if (a.kind == Source::Kind::Reference) out.push_back(a.reference);
  }
  return out;
}

std::optional<Type> element_type(const Source& s) {
  switch (s.kind) {
    case Source::Kind::Range:
    case Source::Kind::All:
      return Type::U64;
    case Source::Kind::List:
      return s.values.front().type();
    case Source::Kind::Generator:
      return generator_type(s.generator);
    case Source::Kind::Call:
      return s.call_element;
    case Source::Kind::Interval:
      return Type::F64;
    case Source::Kind::Text:
      return Type::Str;
    case Source::Kind::Reference:
    case Source::Kind::Spread:  // a {name}'s, or a spread name's: its value's
      break;
  }
  return std::nullopt;
}

std::vector<std::string> element_names(const Comprehension& c) {
  if (!c.alternatives.empty()) return element_names(c.alternatives.front());
  std::vector<std::string> out;
  for (const Clause& clause : c.clauses)
    out.insert(out.end(), clause.names.begin(), clause.names.end());
  return out;
}

std::vector<const Source*> element_sources(const Comprehension& c) {
  if (!c.alternatives.empty()) return element_sources(c.alternatives.front());
  std::vector<const Source*> out;
  for (const Clause& clause : c.clauses) {
    for (const Source& source : clause.sources) out.push_back(&source);
  }
  return out;
}

std::vector<std::string> scope_names(const Comprehension& c) {
  std::vector<std::string> bound, out;
  const auto add = [&](const std::string& name) {
    if (std::find(bound.begin(), bound.end(), name) == bound.end() &&
        std::find(out.begin(), out.end(), name) == out.end()) {
      out.push_back(name);
    }
  };
  for (const Comprehension& alternative : c.alternatives) {
    for (const std::string& name : scope_names(alternative)) add(name);
  }
  for (const Clause& clause : c.clauses) {
    for (const Source& source : clause.sources) {
      for (const std::string& name : references(source)) add(name);
    }
    bound.insert(bound.end(), clause.names.begin(), clause.names.end());
  }
  bound = element_names(c);
  std::vector<const Predicate*> stack;
  if (c.where) stack.push_back(c.where.get());
  std::vector<std::string> in_predicate;
  while (!stack.empty()) {
    const Predicate* p = stack.back();
    stack.pop_back();
    if (p->kind == Predicate::Kind::Reference) in_predicate.push_back(p->name);
    for (auto it = p->args.rbegin(); it != p->args.rend(); ++it) stack.push_back(it->get());
  }
  for (const std::string& name : in_predicate) add(name);
  return out;
}

void resolve_cursor_ranges(
    Comprehension& c,
    const std::function<std::optional<std::pair<uint64_t, uint64_t>>(const std::string&)>& range_of,
    const std::function<void(const std::string&)>& fail) {
  for (Comprehension& alternative : c.alternatives)
    resolve_cursor_ranges(alternative, range_of, fail);
  for (Clause& clause : c.clauses) {
    for (Source& source : clause.sources) {
      if (source.kind != Source::Kind::All) continue;
      const auto range = range_of(source.reference);
      if (!range) {
        fail("all(" + source.reference + ") names no top-level cursor with a fixed range");
        continue;
      }
      Source ordinals;
      ordinals.kind = Source::Kind::Range;
      ordinals.start = range->first;
      ordinals.end = range->second;
      source = std::move(ordinals);
    }
  }
}

}  // namespace polyrt::comprehension
