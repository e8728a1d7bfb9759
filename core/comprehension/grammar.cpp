// polydat's comprehension grammar: a `for` text parsed into its clauses,
// sources, `where` predicate and order (Parser). Which calls are node
// sources, and what they make, the parse is told (CallSources).
#include "comprehension/grammar_parser.hpp"

namespace polyrt::comprehension {

namespace grammar {

Comprehension Parser::run() {
  Comprehension c;
  skip_space();
  if (producer_reference()) {
    const size_t from = i_;
    while (i_ < s_.size() && ident_char(s_[i_])) ++i_;
    c.producer = std::string(s_.substr(from, i_ - from));
    tail_ = i_;
  } else if (union_start(i_)) {
    c.alternatives = alternatives();
  } else {
    std::vector<std::pair<size_t, size_t>> clauses = split_clauses();
    for (const auto& [from, to] : clauses) c.clauses.push_back(clause(from, to));
    const std::vector<std::string> names = element_names(c);
    for (size_t a = 0; a < names.size(); ++a) {
      if (std::find(names.begin(), names.begin() + (ptrdiff_t)a, names[a]) ==
          names.begin() + (ptrdiff_t)a) {
        continue;
      }
      if (legacy_union(c)) break;
      fail(0, "'" + names[a] + "' is bound by two clauses",
           "each clause binds its own name (a union is written for [for ..., for ...]; "
           "polydat's legacy union repeats one name in every clause: k in 1..3, k in 7..9)");
    }
  }
  i_ = tail_;
  skip_space();
  if (word("where")) {
    const size_t from = i_;
    c.where = predicate_or();
    c.where_text = trimmed(s_.substr(from, i_ - from));
  }
  skip_space();
  if (word("order")) {
    const size_t from = i_;
    c.order = order(c);
    c.order_text = trimmed(s_.substr(from, i_ - from));
  }
  skip_space();
  if (i_ < s_.size()) fail(i_, "unexpected '" + std::string(s_.substr(i_)) + "'");
  check_continuous(c);
  c.canonical = c.producer.empty() ? canonical(c)
                                   : c.producer + (tail_text().empty() ? "" : " " + tail_text());
  c.head = c.canonical.substr(
      0, c.canonical.size() - tail_text().size() - (tail_text().empty() ? 0 : 1));
  return c;
}

bool Parser::clause_start(size_t at) const {
  while (at < s_.size() && std::isspace((unsigned char)s_[at])) ++at;
  if (at < s_.size() && s_[at] == '(') {
    const size_t close = s_.find(')', at);
    if (close == std::string_view::npos) return false;
    for (size_t k = at + 1; k < close; ++k) {
      if (!ident_char(s_[k]) && s_[k] != ',' && !std::isspace((unsigned char)s_[k])) {
        return false;
      }
    }
    at = close + 1;
  } else {
    if (at >= s_.size() || !ident_start(s_[at])) return false;
    while (at < s_.size() && ident_char(s_[at])) ++at;
  }
  const size_t space = at;
  while (at < s_.size() && std::isspace((unsigned char)s_[at])) ++at;
  return (at > space || s_[space - 1] == ')') && s_.compare(at, 2, "in") == 0 &&
         (at + 2 >= s_.size() || !ident_char(s_[at + 2]));
}

bool Parser::producer_reference() const {
  size_t end = i_;
  while (end < s_.size() && ident_char(s_[end])) ++end;
  if (end == i_ || std::isdigit((unsigned char)s_[i_])) return false;
  const size_t rest = next_word(end);
  return rest == s_.size() || starts_word(rest, "where") || starts_word(rest, "order");
}

bool Parser::union_start(size_t at) const {
  if (at >= s_.size() || s_[at] != '[') return false;
  ++at;
  while (at < s_.size() && std::isspace((unsigned char)s_[at])) ++at;
  return starts_word(at, "for");
}

bool Parser::legacy_union(Comprehension& c) const {
  for (const Clause& clause : c.clauses) {
    if (clause.zip != Clause::Zip::None || clause.names[0] != c.clauses[0].names[0]) return false;
  }
  for (Clause& clause : c.clauses) {
    Comprehension alternative;
    alternative.canonical = alternative.head =
        clause.names[0] + " in " + canonical_source(clause.sources[0]);
    alternative.clauses.push_back(std::move(clause));
    c.alternatives.push_back(std::move(alternative));
  }
  c.clauses.clear();
  return true;
}

size_t Parser::group_end(size_t at) {
  int depth = 0;
  for (size_t k = at; k < s_.size(); ++k) {
    const char c = s_[k];
    if (c == '"' || c == '\'') {
      const size_t close = s_.find(c, k + 1);
      if (close == std::string_view::npos) fail(k, "unterminated string");
      k = close;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if ((c == ')' || c == ']' || c == '}') && --depth == 0) {
      return k + 1;
    }
  }
  fail(at, std::string("'") + s_[at] + "' is never closed");
}

std::vector<Comprehension> Parser::alternatives() {
  if (depth_ >= kMaxUnionDepth) {
    fail(i_, "unions nest more than " + std::to_string(kMaxUnionDepth) + " deep");
  }
  const size_t open = i_, close = group_end(open) - 1;
  std::vector<size_t> starts;  // each alternative's text, after its `for`
  for (size_t k = open + 1; k < close; ++k) {
    const char c = s_[k];
    if (c == '"' || c == '\'' || c == '(' || c == '[' || c == '{') {
      k = (c == '"' || c == '\'') ? s_.find(c, k + 1) : group_end(k) - 1;
      continue;
    }
    size_t w = k;
    while (w < close && std::isspace((unsigned char)s_[w])) ++w;
    const bool first = starts.empty();
    if ((first || c == ',') && starts_word(first ? w : next_word(k + 1), "for")) {
      starts.push_back((first ? w : next_word(k + 1)) + 3);
      k = starts.back() - 1;
    }
  }
  std::vector<Comprehension> out;
  for (size_t a = 0; a < starts.size(); ++a) {
    size_t end = a + 1 < starts.size() ? s_.rfind(',', starts[a + 1]) : close;
    if (a + 1 == starts.size()) {  // the last may end with a comma, as polydat's grammar allows
      while (end > starts[a] && std::isspace((unsigned char)s_[end - 1])) --end;
      if (end > starts[a] && s_[end - 1] == ',') --end;
    }
    std::string_view text = s_.substr(starts[a], end - starts[a]);
    try {
      out.push_back(Parser(text, calls_, depth_ + 1).run());
    } catch (SyntaxError& e) {
      e.offset += starts[a];
      throw;
    }
    if (element_names(out.back()) != element_names(out.front())) {
      fail(starts[a], "a union's alternatives bind the same names: 'for " + out.back().canonical +
                          "' does not bind what 'for " + out.front().canonical + "' binds");
    }
  }
  tail_ = close + 1;
  return out;
}

std::vector<std::pair<size_t, size_t>> Parser::split_clauses() {
  std::vector<std::pair<size_t, size_t>> out;
  int depth = 0;
  size_t from = 0;
  for (size_t k = 0; k <= s_.size(); ++k) {
    const char c = k < s_.size() ? s_[k] : '\0';
    if (c == '"' || c == '\'') {
      const size_t close = s_.find(c, k + 1);
      if (close == std::string_view::npos) fail(k, "unterminated string");
      k = close;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    const bool at_end = k == s_.size() || (depth == 0 && (k == 0 || !ident_char(s_[k - 1])) &&
                                           (starts_word(k, "where") || starts_word(k, "order")));
    if (at_end) {
      out.emplace_back(from, k);
      tail_ = k;
      break;
    }
    if (depth == 0 && c == ',' && clause_start(k + 1)) {
      out.emplace_back(from, k);
      from = k + 1;
    }
  }
  return out;
}

Clause Parser::clause(size_t from, size_t to) {
  i_ = from;
  skip_space();
  if (!clause_start(i_)) {
    fail(i_, "a clause is written NAME in SOURCE", "e.g. for a in 0..10, tag in p, q");
  }
  Clause c;
  const bool zip = s_[i_] == '(';
  if (zip) {
    const size_t close = s_.find(')', i_);
    for (std::string_view name : split_items(s_.substr(i_ + 1, close - i_ - 1), ",")) {
      c.names.emplace_back(name);
    }
    i_ = close + 1;
  } else {
    const size_t name_at = i_;
    while (i_ < to && ident_char(s_[i_])) ++i_;
    c.names.emplace_back(s_.substr(name_at, i_ - name_at));
  }
  skip_space();
  i_ += 2;  // in
  skip_space();
  std::string_view text = s_.substr(i_, to - i_);
  while (!text.empty() && std::isspace((unsigned char)text.back())) text.remove_suffix(1);
  if (text.empty()) fail(i_, "clause '" + c.names[0] + "' has no source after 'in'");
  if (zip) {
    zip_sources(c, text, i_);
  } else {
    c.sources.push_back(source(text, i_));
  }
  return c;
}

void Parser::zip_sources(Clause& c, std::string_view text, size_t at) {
  static const std::pair<std::string_view, Clause::Zip> kForms[] = {
      {"zip_truncate(", Clause::Zip::Truncate},
      {"zip_cycle(", Clause::Zip::Cycle},
      {"(", Clause::Zip::Strict}};
  for (const auto& [form, zip] : kForms) {
    if (text.substr(0, form.size()) != form || text.back() != ')') continue;
    c.zip = zip;
    const size_t inner = at + form.size(), inner_end = at + text.size() - 1;
    size_t from = inner;
    for (size_t k = inner; k <= inner_end; ++k) {
      if (k < inner_end && s_[k] != ',') {
        if (s_[k] == '"' || s_[k] == '\'' || s_[k] == '(' || s_[k] == '[' || s_[k] == '{') {
          k = (s_[k] == '(' || s_[k] == '[' || s_[k] == '{') ? group_end(k) - 1
                                                             : s_.find(s_[k], k + 1);
        }
        continue;
      }
      std::string_view piece = s_.substr(from, k - from);
      while (!piece.empty() && std::isspace((unsigned char)piece.front())) {
        piece.remove_prefix(1);
        ++from;
      }
      while (!piece.empty() && std::isspace((unsigned char)piece.back())) piece.remove_suffix(1);
      if (piece.empty()) fail(from, "a zip's source is empty");
      c.sources.push_back(source(piece, from));
      from = k + 1;
    }
    if (c.sources.size() != c.names.size()) {
      fail(at,
           "the zip binds " + std::to_string(c.names.size()) + " names from " +
               std::to_string(c.sources.size()) + " sources",
           "one source per name: (a, b) in (0..3, x, y, z) is (a, b) in (0..3, [x, y, z])");
    }
    return;
  }
  fail(at, "a zip's source is (S1, S2, ...), zip_truncate(S1, S2, ...) or zip_cycle(...)");
}

Source Parser::source(std::string_view text, size_t at) {
  if (text.front() == '{' && text.back() == '}' && text.size() > 2 &&
      std::all_of(text.begin() + 1, text.end() - 1, ident_char)) {
    return reference(text.substr(1, text.size() - 2), false);
  }
  if (text.front() == '{' && text.back() == '}' && composed_name(text.substr(1, text.size() - 2))) {
    return reference(text.substr(1, text.size() - 2), false);
  }
  if (const size_t paren = text.find('(');
      paren != std::string_view::npos && is_measure_name(text.substr(0, paren))) {
    return measure(text, paren, at);
  }
  if (const size_t paren = text.find('(');
      ident_start(text.front()) && paren != std::string_view::npos && text.back() == ')' &&
      std::all_of(text.begin(), text.begin() + (ptrdiff_t)paren, ident_char)) {
    return call_form(text.substr(0, paren), text.substr(paren + 1, text.size() - paren - 2), at);
  }
  if (text.front() == '[' && text.back() == ']' &&
      (text.find("...") != std::string_view::npos ||
       text.find("\u2026") != std::string_view::npos)) {
    return spread(text.substr(1, text.size() - 2), at);
  }
  if (const size_t dots = text.find("..");
      dots != std::string_view::npos && text.front() != '"' && text.front() != '\'') {
    return range(text, at, dots);
  }
  return literal_form(text, at);
}

Source Parser::reference(std::string_view name, bool bare) {
  Source src;
  src.kind = Source::Kind::Reference;
  src.reference = std::string(name);
  src.bare = bare;
  return src;
}

bool Parser::composed_name(std::string_view name) {
  // {placeholder}s, each a plain name, and name characters between them.
  return placeholders_in(name) > 0 && std::all_of(name.begin(), name.end(), [](char c) {
           return ident_char(c) || c == '{' || c == '}';
         });
}

Source Parser::spread(std::string_view items, size_t at) {
  Source src;
  src.kind = Source::Kind::Spread;
  for (std::string_view item : split_items(items, ",")) {
    std::string name;
    for (std::string_view dots : {std::string_view("..."), std::string_view("\u2026")}) {
      if (item.size() > dots.size() && item.substr(item.size() - dots.size()) == dots) {
        name = trimmed(item.substr(0, item.size() - dots.size()));
      }
    }
    if (name.empty() && item.find("...") != std::string_view::npos) {
      fail(at, "'" + std::string(item) + "' spreads no name: a spread is NAME... (or NAME\u2026)");
    }
    if (!name.empty()) {
      if (!ident_start(name.front()) || !std::all_of(name.begin(), name.end(), ident_char)) {
        fail(at, "'" + std::string(item) + "' spreads no name: a spread is NAME...");
      }
      src.arguments.push_back(reference(name, false));
    } else {
      src.arguments.push_back(list({item}, at));
    }
  }
  if (src.arguments.empty()) fail(at, "an empty list has no tuples; a clause needs a value");
  return src;
}

Source Parser::call_form(std::string_view name, std::string_view args, size_t at) {
  if (name != "all") return call(name, args, at);
  // polydat 0.6.1's all(<cursor>): every ordinal of the cursor's range.
  const std::string cursor = trimmed(args);
  if (cursor.empty() || !ident_start(cursor.front()) ||
      !std::all_of(cursor.begin(), cursor.end(), ident_char)) {
    fail(at, "all(...) takes the name of a cursor: for r in all(row)");
  }
  Source src;
  src.kind = Source::Kind::All;
  src.reference = cursor;
  return src;
}

Source Parser::literal_form(std::string_view text, size_t at) {
  if (text.front() == '[') {
    if (text.back() != ']') fail(at, "a bracket list ends with ']'");
    return list(split_items(text.substr(1, text.size() - 2), ","), at);
  }
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
    refuse_placeholders(text, at);
    return list(split_items(text.substr(1, text.size() - 2), kStringSeparators), at);
  }
  if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'') {
    const std::string_view inner = text.substr(1, text.size() - 2);
    const int placeholders = placeholders_in(inner);
    if (placeholders < 0) refuse_placeholders(text, at);
    if (placeholders > 0) {
      // polydat substitutes {name} inside the text when the traversal opens.
      Source src;
      src.kind = Source::Kind::Text;
      src.reference = std::string(inner);
      return src;
    }
    Source src;
    src.values.push_back(Value::str(std::string(text.substr(1, text.size() - 2))));
    return src;
  }
  if (ident_start(text.front()) && std::all_of(text.begin(), text.end(), ident_char) &&
      typed_token(text).type() == Type::Str) {
    // polydat: a source of one bare word is a reference (a list of several
    // is text: `load, verify`).
    return reference(text, true);
  }
  return list(split_items(text, ","), at);
}

int Parser::placeholders_in(std::string_view text) {
  int count = 0;
  for (size_t k = 0; k < text.size(); ++k) {
    if (text[k] == '}') return -1;
    if (text[k] != '{') continue;
    size_t end = k + 1;
    if (end >= text.size() || !ident_start(text[end])) return -1;
    while (end < text.size() && ident_char(text[end])) ++end;
    if (end >= text.size() || text[end] != '}') return -1;
    ++count;
    k = end;
  }
  return count;
}

void Parser::refuse_placeholders(std::string_view text, size_t at) {
  for (size_t open = text.find('{'); open != std::string_view::npos;
       open = text.find('{', open + 1)) {
    size_t k = open + 1;
    if (k >= text.size() || !ident_start(text[k])) continue;
    while (k < text.size() && ident_char(text[k])) ++k;
    if (k < text.size() && text[k] == '}') {
      fail(at,
           "'" + std::string(text.substr(open, k + 1 - open)) +
               "' inside this source's text is not substituted by polyrt yet (polydat "
               "substitutes it), and would be taken literally",
           "one quoted text takes it ('table_{region}'); in a string comprehension, build "
           "the text in the body instead (name := \"table_\" + region), or write the "
           "values out");
    }
  }
}

Source Parser::call(std::string_view name, std::string_view args, size_t at) {
  const std::optional<Type> call_element = calls_(name);
  const bool node = call_element.has_value();
  if (!is_generator(name) && !node) {
    fail(at,
         "source '" + std::string(name) +
             "(...)': the calls a comprehension takes are polydat's generators, the nodes "
             "partitions and subdivide, and the nodes that make a vector (hash_vec, ...)",
         "the generators are fib, fib_until, pow2, pow2_until, binomial, geometric, "
         "geometric_until, linear_starts, linear_steps and log_steps");
  }
  Source src;
  src.kind = node ? Source::Kind::Call : Source::Kind::Generator;
  src.generator = std::string(name);
  if (node) src.call_element = *call_element;
  std::vector<Value> literals;
  for (std::string_view arg : split_items(args, ",")) {
    Source a;
    const bool bare_name = node && ident_start(arg.front()) &&
                           std::all_of(arg.begin(), arg.end(), ident_char) &&
                           typed_token(arg).type() == Type::Str;
    if ((arg.size() > 2 && arg.front() == '{' && arg.back() == '}') || bare_name) {
      a.kind = Source::Kind::Reference;
      a.reference = std::string(bare_name ? arg : arg.substr(1, arg.size() - 2));
    } else {
      a.values.push_back(typed_token(arg));
      literals.push_back(a.values.back());
    }
    src.arguments.push_back(std::move(a));
  }
  if (!node && literals.size() == src.arguments.size()) {
    if (std::optional<std::string> why = check_generator(name, literals)) fail(at, *why);
  }
  return src;
}

Source Parser::range(std::string_view text, size_t at, size_t dots) {
  Source src;
  src.kind = Source::Kind::Range;
  const bool inclusive = dots + 2 < text.size() && text[dots + 2] == '=';
  if (is_float_text(text.substr(0, dots)) ||
      is_float_text(text.substr(dots + (inclusive ? 3 : 2)))) {
    return interval(text, at, dots, inclusive);
  }
  std::string_view rest = text.substr(dots + (inclusive ? 3 : 2));
  std::string_view step_text;
  if (const size_t step = rest.find("step"); step != std::string_view::npos) {
    step_text = rest.substr(step + 4);
    rest = rest.substr(0, step);
  } else if (const size_t more = rest.find(".."); more != std::string_view::npos) {
    step_text = rest.substr(more + 2);
    rest = rest.substr(0, more);
  }
  const std::string_view bounds[] = {text.substr(0, dots), rest,
                                     step_text.empty() ? std::string_view("1") : step_text};
  if (std::any_of(std::begin(bounds), std::end(bounds),
                  [](std::string_view b) { return reference_name(b).has_value(); })) {
    // A bound read when the traversal opens (`0..{n}`): each bound a
    // literal or a {name}, checked then.
    src.closed = inclusive;
    static const char* const kWhat[] = {"range start", "range end", "range step"};
    for (size_t b = 0; b < 3; ++b) {
      Source bound;
      if (const std::optional<std::string> name = reference_name(bounds[b])) {
        bound.kind = Source::Kind::Reference;
        bound.reference = *name;
      } else {
        bound.values.push_back(Value::u64(number(bounds[b], at, kWhat[b])));
      }
      src.arguments.push_back(std::move(bound));
    }
    return src;
  }
  const RangeBounds r =
      range_bounds(number(bounds[0], at, "range start"), number(bounds[1], at, "range end"),
                   number(bounds[2], at, "range step"), inclusive);
  if (r.error) fail(at, r.error);
  src.start = r.start;
  src.end = r.end;
  src.step = r.step;
  return src;
}

std::optional<std::string> Parser::reference_name(std::string_view t) {
  while (!t.empty() && std::isspace((unsigned char)t.front())) t.remove_prefix(1);
  while (!t.empty() && std::isspace((unsigned char)t.back())) t.remove_suffix(1);
  if (t.size() > 2 && t.front() == '{' && t.back() == '}' && ident_start(t[1]) &&
      std::all_of(t.begin() + 1, t.end() - 1, ident_char)) {
    return std::string(t.substr(1, t.size() - 2));
  }
  return std::nullopt;
}

Source Parser::measure(std::string_view text, size_t paren, size_t at) {
  const std::string name(text.substr(0, paren));
  const size_t close = text.find(')', paren);
  if (close == std::string_view::npos) fail(at, "'" + name + "(' is never closed");
  std::vector<double> params;
  for (std::string_view arg : split_items(text.substr(paren + 1, close - paren - 1), ",")) {
    double v = 0;
    const auto r = std::from_chars(arg.data(), arg.data() + arg.size(), v);
    if (r.ec != std::errc() || r.ptr != arg.data() + arg.size()) {
      fail(at, "parameter '" + std::string(arg) + "' of " + name + " is not a number",
           "a measure's parameters are literal numbers: normal(0, 1)");
    }
    params.push_back(v);
  }
  std::string error;
  std::optional<Measure> m = make_measure(name, params, error);
  if (!m) fail(at, error);
  Source src;
  src.kind = Source::Kind::Interval;
  std::string_view rest = text.substr(close + 1);
  while (!rest.empty() && std::isspace((unsigned char)rest.front())) rest.remove_prefix(1);
  if (rest.empty()) {
    const AxisInterval whole = support(*m);
    src.lo = whole.lo;
    src.hi = whole.hi;
    src.lo_open = whole.lo_open;
    src.closed = !whole.hi_open;
  } else {
    if (rest.substr(0, 2) != "on" || rest.size() < 3 || !std::isspace((unsigned char)rest[2])) {
      fail(at, "unexpected '" + std::string(rest) + "' after " + name + "(...)",
           "restrict a measure to an interval with on: exponential(1) on 0.0..1.0");
    }
    rest.remove_prefix(3);
    while (!rest.empty() && std::isspace((unsigned char)rest.front())) rest.remove_prefix(1);
    const size_t dots = rest.find("..");
    if (dots == std::string_view::npos) fail(at, "'on' takes an interval, LO..HI or LO..=HI");
    const bool inclusive = dots + 2 < rest.size() && rest[dots + 2] == '=';
    src = interval(rest, at, dots, inclusive);
    src.on = true;
  }
  src.measure = std::move(m);
  return src;
}

Source Parser::interval(std::string_view text, size_t at, size_t dots, bool inclusive) {
  Source src;
  src.kind = Source::Kind::Interval;
  src.closed = inclusive;
  const auto bound = [&](std::string_view t, const char* what) {
    while (!t.empty() && std::isspace((unsigned char)t.front())) t.remove_prefix(1);
    while (!t.empty() && std::isspace((unsigned char)t.back())) t.remove_suffix(1);
    double v = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || r.ec != std::errc() || r.ptr != t.data() + t.size() || !std::isfinite(v)) {
      fail(at, std::string(what) + " '" + std::string(t) + "' is not a finite number",
           "a continuous interval is written 0.0..1.0 (half-open) or 0.0..=1.0");
    }
    return v;
  };
  src.lo = bound(text.substr(0, dots), "interval start");
  src.hi = bound(text.substr(dots + (inclusive ? 3 : 2)), "interval end");
  if (!(src.lo < src.hi)) {
    fail(at,
         "the interval '" + std::string(text) + "' must start below its end (" +
             std::string(text.substr(0, dots)) + " is not below " +
             std::string(text.substr(dots + (inclusive ? 3 : 2))) + ")",
         "a continuous interval is written 0.0..1.0 (half-open) or 0.0..=1.0");
  }
  return src;
}

uint64_t Parser::number(std::string_view text, size_t at, const char* what) {
  while (!text.empty() && std::isspace((unsigned char)text.front())) text.remove_prefix(1);
  while (!text.empty() && std::isspace((unsigned char)text.back())) text.remove_suffix(1);
  uint64_t v = 0;
  const char* end = text.data() + text.size();
  const auto r = std::from_chars(text.data(), end, v);
  if (text.empty() || r.ec != std::errc() || r.ptr != end) {
    fail(at,
         std::string(what) + " '" + std::string(text) + "' is not an integer from 0 to 2^64 - 1");
  }
  return v;
}

std::vector<std::string_view> Parser::split_items(std::string_view text,
                                                  std::string_view separators) {
  std::vector<std::string_view> items;
  size_t k = 0;
  while (k < text.size()) {
    while (k < text.size() && (separators.find(text[k]) != std::string_view::npos ||
                               std::isspace((unsigned char)text[k]))) {
      ++k;
    }
    if (k >= text.size()) break;
    size_t end = k;
    if (text[k] == '"' || text[k] == '\'') {
      end = text.find(text[k], k + 1);
      end = end == std::string_view::npos ? text.size() : end + 1;
    } else {
      while (end < text.size() && separators.find(text[end]) == std::string_view::npos) ++end;
    }
    std::string_view item = text.substr(k, end - k);
    while (!item.empty() && std::isspace((unsigned char)item.back())) item.remove_suffix(1);
    items.push_back(item);
    k = end;
  }
  return items;
}

Source Parser::list(const std::vector<std::string_view>& items, size_t at) {
  Source src;
  for (std::string_view item : items) src.values.push_back(typed_token(item));
  if (src.values.empty()) fail(at, "an empty list has no tuples; a clause needs a value");
  if (std::optional<std::string> why = unify(src.values)) fail(at, *why);
  return src;
}

bool Parser::dependent(const Comprehension& c) {
  for (size_t k = 0; k < c.clauses.size(); ++k) {
    if (reads_earlier_element(c, k)) return true;
  }
  return false;
}

void Parser::check_continuous(const Comprehension& c) {
  bool continuous = false;
  for (const Clause& clause : c.clauses) {
    for (const Source& s : clause.sources) {
      if (s.kind != Source::Kind::Interval) continue;
      continuous = true;
      if (clause.zip != Clause::Zip::None)
        fail(0, "a zip takes discrete sources, not an interval (polydat's V7)");
    }
  }
  // Every order it takes needs a lattice: a source beside an interval that
  // reads another element is refused by order_refusal, as polydat refuses it.
  if (!continuous) return;
  const bool extrema = c.order && c.order->strategy == "extrema";
  if (!extrema && (!c.order || !c.order->count || !is_sampling_strategy(c.order->strategy))) {
    fail(0,
         "a continuous interval is sampled: it needs a sampling order with a count, or "
         "extrema (polydat's V8)",
         "e.g. for x in 0.0..1.0 order halton/16 (or sobol, lhs, shuffle; extrema/1 gives the "
         "corners)");
  }
}

Order Parser::order(const Comprehension& c) {
  skip_space();
  Order o;
  const size_t at = i_;
  while (i_ < s_.size() && ident_char(s_[i_])) ++i_;
  o.strategy = std::string(s_.substr(at, i_ - at));
  if (!is_strategy(o.strategy)) {
    fail(at, "unknown order '" + o.strategy + "'",
         "the orders are lex, reverse_lex, diagonal, antidiagonal, extrema, shells, halton, "
         "sobol, lhs and shuffle");
  }
  skip_space();
  if (i_ < s_.size() && s_[i_] == '/') {
    ++i_;
    o.count = order_number("order count");
  } else if (i_ < s_.size() && s_[i_] == '(') {
    order_arguments(o);
  }
  if (o.seed && !takes_seed(o.strategy)) {
    fail(at, "order '" + o.strategy + "' takes no seed", "seed= is for shuffle and lhs");
  }
  if (std::optional<SyntaxError> refusal = order_refusal(c, o)) {
    fail(at, std::move(refusal->message), std::move(refusal->hint));
  }
  return o;
}

void Parser::order_arguments(Order& o) {
  ++i_;
  while (true) {
    skip_space();
    const size_t key_at = i_;
    while (i_ < s_.size() && ident_char(s_[i_])) ++i_;
    const std::string key(s_.substr(key_at, i_ - key_at));
    skip_space();
    if (i_ >= s_.size() || s_[i_] != '=') fail(i_, "expected '=' after '" + key + "'");
    ++i_;
    skip_space();
    std::optional<uint64_t>& slot = key == "count" ? o.count : o.seed;
    if (key != "count" && key != "seed") {
      fail(key_at, "order argument '" + key + "' is not count or seed");
    }
    if (slot) fail(key_at, "order argument '" + key + "' is given twice");
    slot = order_number(key == "count" ? "order count" : "order seed");
    skip_space();
    if (i_ < s_.size() && s_[i_] == ',') {
      ++i_;
      continue;
    }
    if (i_ >= s_.size() || s_[i_] != ')') fail(i_, "expected ',' or ')' in the order's arguments");
    ++i_;
    return;
  }
}

uint64_t Parser::order_number(const char* what) {
  const size_t n = i_;
  while (i_ < s_.size() && std::isdigit((unsigned char)s_[i_])) ++i_;
  return number(s_.substr(n, i_ - n), n, what);
}

}  // namespace grammar

using grammar::Parser;

std::optional<SyntaxError> order_refusal(const Comprehension& c, const Order& o) {
  if (is_lattice_strategy(o.strategy) && grammar::Parser::dependent(c)) {
    return SyntaxError{"order '" + o.strategy +
                           "' needs a lattice: a source that reads an earlier element has no "
                           "fixed axis",
                       0, "order a dependent cartesian lex or reverse_lex"};
  }
  if (o.strategy == "lhs" && c.alternatives.size() > 1) {
    return SyntaxError{"order 'lhs' stratifies each axis of a lattice; a union is one sequence", 0,
                       "shuffle orders a union at random"};
  }
  if (o.strategy == "sobol" && c.clauses.size() > kMaxSobolAxes) {
    return SyntaxError{"order 'sobol' takes at most " + std::to_string(kMaxSobolAxes) +
                           " axes, not " + std::to_string(c.clauses.size()),
                       0, "its direction numbers cover 13 dimensions; halton takes more"};
  }
  return std::nullopt;
}

Parsed parse(std::string_view text, CallSources calls) {
  try {
    return Parsed{Parser(text, calls).run(), std::nullopt};
  } catch (SyntaxError& e) {
    return Parsed{std::nullopt, std::move(e)};
  }
}

}  // namespace polyrt::comprehension
