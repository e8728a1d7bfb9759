#include "program/body_cursors.hpp"

#include <algorithm>

#include "nodes/call_node.hpp"
#include "nodes/partition_lists.hpp"
#include "polyrt/error.hpp"
#include "syntax/ast_builder.hpp"

namespace polyrt {

namespace {

// range(START, END) with integer literals.
std::optional<std::pair<uint64_t, uint64_t>> literal_range(const syntax::Expr& e) {
  if (e.kind != syntax::ExprKind::Call || e.text != "range" || e.args.size() != 2)
    return std::nullopt;
  for (const syntax::ExprPtr& a : e.args) {
    if (a->kind != syntax::ExprKind::Int) return std::nullopt;
  }
  return std::pair(e.args[0]->u, e.args[1]->u);
}

// The statements a cursor stands for (hidden: polyrt writes and reads them).
void declare(const BodyCursor& c, syntax::SourcePos at, std::vector<syntax::Stmt>& out) {
  const syntax::AstBuilder b(at);
  syntax::Stmt start = b.statement(syntax::StmtKind::Extern, c.name + "__start");
  start.type = Type::U64;
  syntax::Stmt partition = b.statement(syntax::StmtKind::Extern, c.name + "__cursor");
  partition.type = Type::Partition;
  start.hidden = partition.hidden = true;
  out.push_back(std::move(start));
  out.push_back(std::move(partition));
  out.push_back(b.binding(c.name + "__ordinal",
                          b.binary("+", b.name(c.name + "__start"), b.name("cycle")), true));
  declare_partition_fields(b, c.name, out);
}

uint64_t u64_of(std::string_view node, const Value& partition) {
  return nodes::call_node_elements(node, std::span(&partition, 1)).at(0).as_u64();
}

// The one partition `over "SPEC"` resolves to over the cursor's extent.
Value spec_partition(const BodyCursor& c, const syntax::Stmt& s, syntax::Sources& sources) {
  const Value args[] = {Value::str(s.over), Value::u64(c.end - c.start)};
  std::vector<Value> parts;
  try {
    parts = nodes::call_node_elements("partitions", args);
  } catch (const EvalError& e) {
    sources.fail(s.over_pos, "'over \"" + s.over + "\"': " + e.what(), s.over.size() + 2);
  }
  if (parts.size() != 1) {
    sources.fail(s.over_pos,
                 "'over \"" + s.over + "\"' resolves to " + std::to_string(parts.size()) +
                     " partitions of the cursor's " + std::to_string(c.end - c.start) +
                     " ordinals; a cursor takes one",
                 s.over.size() + 2,
                 "bind the list with an enclosing for p in partitions(\"" + s.over + "\", " +
                     std::to_string(c.end - c.start) + ") and range the cursor over p");
  }
  return parts[0];
}

}  // namespace

void declare_partition_fields(const syntax::AstBuilder& b, const std::string& cursor,
                              std::vector<syntax::Stmt>& out) {
  static const std::pair<const char*, const char*> kFields[] = {{"idx", "idx_of"},
                                                                {"partition_count", "count_of"},
                                                                {"start_ordinal", "start_of"},
                                                                {"end_ordinal", "end_of"}};
  for (const auto& [field, node] : kFields) {
    std::vector<syntax::ExprPtr> args;
    args.push_back(b.name(cursor + "__cursor"));
    out.push_back(b.binding(cursor + "__cursor__" + field, b.call(node, std::move(args)), true));
  }
}

void read_bare_names_as_ordinals(const std::vector<std::string>& cursors,
                                 std::vector<syntax::Stmt>& out) {
  for (const std::string& name : cursors) {
    const bool taken = std::any_of(out.begin(), out.end(), [&](const syntax::Stmt& s) {
      return std::find(s.names.begin(), s.names.end(), name) != s.names.end();
    });
    if (!taken) {
      const syntax::AstBuilder b(syntax::SourcePos{});
      out.push_back(b.binding(name, b.name(name + "__ordinal"), true));
    }
  }
}

std::vector<BodyCursor> take_body_cursors(std::vector<syntax::Stmt>& body,
                                          const std::vector<std::string>& elements,
                                          const std::vector<Type>& element_types,
                                          syntax::Sources& sources) {
  std::vector<BodyCursor> cursors;
  std::vector<syntax::Stmt> out;
  for (syntax::Stmt& s : body) {
    if (s.kind != syntax::StmtKind::Cursor) {
      out.push_back(std::move(s));
      continue;
    }
    BodyCursor c{s.names[0], 0, 0, std::nullopt, Value::none()};
    for (const BodyCursor& earlier : cursors) {
      if (earlier.name == c.name) {
        sources.fail(s.pos, "cursor '" + c.name + "' is declared twice in this body", 6,
                     "give each cursor its own name");
      }
    }
    // An empty range would give every activation no cycle to run.
    const std::optional<std::pair<uint64_t, uint64_t>> range = literal_range(*s.expr);
    if (!range || range->first >= range->second) {
      sources.fail(s.expr->pos,
                   "a cursor's constructor is range(START, END) with integers START < END", 1,
                   "e.g. cursor rows = range(0, 1000) over p");
    }
    c.start = range->first;
    c.end = range->second;
    if (s.over_spec) {
      c.partition = spec_partition(c, s, sources);
    } else if (!s.over.empty()) {
      const auto e = std::find(elements.begin(), elements.end(), s.over);
      if (e == elements.end() || element_types[(size_t)(e - elements.begin())] != Type::Partition) {
        sources.fail(
            s.over_pos, "'over " + s.over + "' names no partition element of the traversal",
            s.over.size(), "range a cursor over an element of partitions(...) or subdivide(...)");
      }
      c.over = (size_t)(e - elements.begin());
    }
    declare(c, s.pos, out);
    cursors.push_back(std::move(c));
  }
  std::vector<std::string> names;
  for (const BodyCursor& c : cursors) names.push_back(c.name);
  read_bare_names_as_ordinals(names, out);
  body = std::move(out);
  return cursors;
}

CursorSlice cursor_slice(const BodyCursor& c, const std::vector<Value>& tuple) {
  const uint64_t extent = c.end - c.start;
  if (!c.partition.is_none()) {
    const uint64_t first = u64_of("start_of", c.partition), last = u64_of("end_of", c.partition);
    return {c.start + first, last - first, c.partition};
  }
  if (!c.over) {
    const Value spec[] = {Value::str("*/1"), Value::u64(extent)};
    return {c.start, extent,
            extent ? nodes::call_node_elements("partitions", spec).at(0) : Value::none()};
  }
  // A partition made over another extent is carried onto the cursor's.
  const Value& element = tuple[*c.over];
  const Value p = nodes::partition_base_extent(element) == extent
                      ? element
                      : nodes::reprojected_partition(element, extent);
  const uint64_t first = u64_of("start_of", p), last = u64_of("end_of", p);
  return {c.start + first, last - first, p};
}

}  // namespace polyrt
