// A tile's directives: `@if`/`@else` branches and `@for` projections, their bodies and row sources.
#include "expand/tile_compiler.hpp"

namespace polyrt::expand::tiling {

TileCompiler::Block TileCompiler::block(size_t k, size_t end, const std::string& directive) {
  while (k < end && is_space(text()[k])) ++k;
  if (k >= end || text()[k] != '{') {
    fail(k, "expected '{' to open the body of " + header_.sigil + directive, 1);
  }
  int depth = 0;
  for (size_t j = k; j < end;) {
    const char c = text()[j];
    if (json() && c == '"') {
      j = skip_string(j, end);
      continue;
    }
    if (c == '{') ++depth;
    if (c == '}' && --depth == 0) {
      size_t a = k + 1, b = j;
      trim(a, b);
      return {a, b, j + 1};
    }
    ++j;
  }
  fail(k, "the body of " + header_.sigil + directive + " is not closed with '}'", 1);
}

size_t TileCompiler::body_open(size_t k, size_t end, const std::string& directive) const {
  int depth = 0;
  while (k < end) {
    const char c = text()[k];
    if (string_at(k)) {
      k = skip_string(k, end);
      continue;
    }
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (c == '{' && depth == 0) {
      size_t n = k + 1;
      if (directive == "for" && n < end && ident_start(text()[n])) {
        while (n < end && ident_char(text()[n])) ++n;
        if (n < end && text()[n] == '}' && is_reference(n + 1, end)) {
          k = n + 1;
          continue;
        }
      }
      return k;
    }
    ++k;
  }
  fail(k, header_.sigil + directive + " has no body: expected '{' after it", 1);
}

size_t TileCompiler::branch(Render& r, size_t i, size_t c, size_t end, const Elements& elements,
                            JsonState& state) {
  const size_t open = body_open(c, end, "if");
  size_t a = c, b = open;
  trim(a, b);
  ExprPtr cond = expression(a, b, elements, "the condition of " + header_.sigil + "if");
  const SourcePos at = src_.position_of(body_.at[i]);
  const Block then_block = block(open, end, "if");
  JsonState then_state = state, else_state = state;
  Render then_render = sequence(then_block.begin, then_block.end, elements, then_state);
  Render else_render;
  bool has_else = false;
  size_t next = then_block.next, w = next;
  while (w < end && is_space(text()[w])) ++w;
  if (starts(w, header_.sigil) && directive(w + header_.sigil.size(), "else")) {
    const Block else_block = block(w + header_.sigil.size() + 4, end, "else");
    else_render = sequence(else_block.begin, else_block.end, elements, else_state);
    has_else = true;
    next = else_block.next;
  }
  state = then_state;
  ExprPtr e = make_expr(ExprKind::If, at, 1 + header_.sigil.size());
  std::vector<ExprPtr> truth;
  truth.push_back(std::move(cond));
  e->args.push_back(call(std::string(nodes::tile_truth_name), std::move(truth), at, 1));
  std::string skeleton = then_render.skeleton;
  const size_t offset = r.skeleton.size();
  for (Render::OtherArm& arm : then_render.other_arms) {
    arm.offset += offset;
    r.other_arms.push_back(std::move(arm));
  }
  r.other_arms.push_back({offset, skeleton.size(), else_render.skeleton, i, has_else});
  e->args.push_back(value_of(std::move(then_render), at));
  e->args.push_back(value_of(std::move(else_render), at));
  for (const ExprPtr& arm : e->args) e->depth = std::max(e->depth, 1 + arm->depth);
  r.add_argument(std::move(e), skeleton);
  return next;
}

TileCompiler::ProjectionHeader TileCompiler::projection_header(size_t c, size_t open) {
  std::string source;
  std::string sep = json() || header_.encoding == "csv" ? "," : "";
  for (size_t k = c; k < open;) {
    const bool word = starts(k, "sep") && (k == c || is_space(text()[k - 1])) && k + 3 < open &&
                      is_space(text()[k + 3]);
    if (!word) {
      if (string_at(k)) {
        const size_t after = skip_string(k, open);
        source += text().substr(k, after - k);
        k = after;
      } else {
        source.push_back(text()[k++]);
      }
      continue;
    }
    size_t q = k + 3;
    while (q < open && is_space(text()[q])) ++q;
    const bool escaped = starts(q, "\\\"");
    if (!escaped && (q >= open || text()[q] != '"')) {
      fail(q, "sep needs its text in quotes: sep \", \"", 1);
    }
    const std::string quote = escaped ? "\\\"" : "\"";
    const size_t from = q + quote.size();
    const size_t to = text().find(quote, from);
    if (to == std::string::npos || to >= open) fail(q, "the text after sep is not closed", 1);
    sep = text().substr(from, to - from);
    k = to + quote.size();
  }
  size_t a = 0, b = source.size();
  while (a < b && is_space(source[a])) ++a;
  while (b > a && is_space(source[b - 1])) --b;
  return {source.substr(a, b - a), sep};
}

size_t TileCompiler::projection(Render& r, size_t i, size_t c, size_t end, const Elements& elements,
                                JsonState& state) {
  const size_t open = body_open(c, end, "for");
  const auto [source, sep] = projection_header(c, open);
  const std::string where = "projection `for " + source + "`";
  if (source.empty())
    fail(c, header_.sigil + "for needs a comprehension: @for NAME in SOURCE { ... }");
  if (const std::optional<RowSource> row = row_source(source, c, open)) {
    // One tuple per row: the call's value, a scalar.
    const Block body = block(open, end, "for");
    Elements inner = elements;
    inner[row->name] = expression(row->begin, row->end, elements, where);
    r.append(sequence(body.begin, body.end, inner, state));
    return body.next;
  }
  // Used as parsed: its canonical text does not always parse again (a
  // list of quoted items holding quotes and commas); reading an empty
  // parse of it crashed the compiler.
  const ProducerFailure failure = [&](const std::string& message, const std::string& hint) {
    fail(c, where + ": " + message, source.size(), hint);
  };
  const comprehension::Comprehension comp =
      resolve_comprehension(parse_or_fail(source, failure), producers_, failure);
  for (const std::string& name : comprehension::scope_names(comp)) {
    fail(c, where + " reads `{" + name + "}`, a wire outside the comprehension", source.size(),
         "a projection's tuples are fixed when the tile compiles: its sources and predicate "
         "see only its elements and constants");
  }
  comprehension::Tuples tuples;
  try {
    // Node-call sources (partitions, a vector node) of literals are
    // evaluated now, as a traversal would when it opens.
    tuples = comprehension::evaluate(
        comp, [](std::string_view) { return std::nullopt; }, nodes::call_node_elements);
  } catch (const Error& e) {
    fail(c, where + ": " + e.what(), source.size());
  }
  repetitions_ += tuples.rows.size();
  if (repetitions_ > kMaxTileRepetitions) {
    fail(c,
         "its projections unroll to more than " + std::to_string(kMaxTileRepetitions) +
             " repetitions",
         source.size(), "generate long lists as columns or rows instead");
  }
  const Block body = block(open, end, "for");
  // polydat checks a json tile with the body written once, whatever the
  // number of tuples, and no separator.
  const size_t skeleton_before = r.skeleton.size();
  std::string once;
  for (size_t t = 0; t < tuples.rows.size(); ++t) {
    if (t > 0) add_static(r, sep, state);
    Elements inner = elements;
    for (size_t k = 0; k < tuples.names.size(); ++k) {
      ExprPtr literal = literal_expr(tuples.rows[t][k]);
      if (!literal) {
        fail(c,
             where + ": its element '" + tuples.names[k] + "' is a " +
                 std::string(type_name(tuples.rows[t][k].type())) +
                 ", which a tile's projection cannot unroll",
             source.size(), "project numbers or text (start_of(p), end_of(p), ...)");
      }
      inner[tuples.names[k]] = std::shared_ptr<const Expr>(std::move(literal));
    }
    Render repetition = sequence(body.begin, body.end, inner, state);
    if (t == 0) once = repetition.skeleton;
    r.append(std::move(repetition));
  }
  if (tuples.rows.empty()) {
    JsonState scratch = state;
    once = sequence(body.begin, body.end, elements, scratch).skeleton;
  }
  r.skeleton.resize(skeleton_before);
  r.skeleton += once;
  // The skeleton keeps the first repetition: so do the other arms.
  std::erase_if(r.other_arms, [&](const Render::OtherArm& arm) {
    return arm.offset >= skeleton_before + once.size();
  });
  (void)i;
  return body.next;
}

std::optional<TileCompiler::RowSource> TileCompiler::row_source(const std::string& source, size_t c,
                                                                size_t open) const {
  size_t k = 0;
  const auto word = [&] {
    const size_t from = k;
    while (k < source.size() && ident_char(source[k])) ++k;
    return source.substr(from, k - from);
  };
  const auto spaces = [&] {
    while (k < source.size() && is_space(source[k])) ++k;
  };
  const std::string name = word();
  spaces();
  if (name.empty() || word() != "in") return std::nullopt;
  spaces();
  const std::string callee = word();
  if (callee.empty() || k >= source.size() || source[k] != '(' || source.back() != ')' ||
      comprehension::is_generator(callee) || nodes::comprehension_call_element(callee)) {
    return std::nullopt;
  }
  const size_t begin = text().find(callee + "(", c);
  if (begin == std::string::npos || begin >= open) return std::nullopt;
  size_t close = begin + callee.size();
  for (int depth = 0; close < open; ++close) {
    if (string_at(close)) {
      close = skip_string(close, open) - 1;
    } else if (text()[close] == '(') {
      ++depth;
    } else if (text()[close] == ')' && --depth == 0) {
      break;
    }
  }
  if (close >= open) return std::nullopt;
  if (const nodes::NodeDef* def = nodes::find_node(callee)) {
    for (const Type t : def->results) {
      if (t == Type::Json || t == Type::PartitionList) {
        fail(c,
             "projection `for " + source + "`: '" + callee + "' gives a " +
                 std::string(type_name(t)) +
                 " per row, whose items would be the tuples; polyrt projects over a per-row "
                 "scalar only",
             source.size(), "project over a comprehension, or render the list itself: ${x}");
      }
    }
  }
  return RowSource{name, begin, close + 1};
}

void TileCompiler::check_json(const std::string& skeleton) const {
  std::string error;
  if (rt::parse_json(skeleton, error)) return;
  constexpr size_t kShown = 400;  // of a skeleton the message quotes
  const std::string shown =
      skeleton.size() <= kShown ? skeleton : skeleton.substr(0, kShown) + "...";
  src_.fail(pos_,
            "tile '" + name_ +
                "': the json body is not valid JSON once every hole is a "
                "placeholder: " +
                error +
                "; with holes as 0, one repetition per projection and "
                "each branch's first arm, the skeleton reads: " +
                shown,
            name_.size(), "a json tile's text around its holes must be a JSON document");
}

}  // namespace polyrt::expand::tiling
