// polydat's regex family: regex_match, regex_replace, regex_extract and
// pattern_match (a literal, a `*` glob or a regex, told apart by shape).
// Patterns are compiled once per call site by RE2, whose syntax is Rust's
// regex crate's (polydat's) and which, like it, runs in time linear in the
// input: no pattern can make a row take exponential time. Host steps.
#include <re2/re2.h>

#include <memory>
#include <string>
#include <string_view>

#include "nodes/registry.hpp"
#include "rtlib/utf8.hpp"

namespace polyrt::nodes {

namespace {

using P = PortType;

const RE2& regex_of(const Call& c) {
  return *static_cast<const RE2*>(c.prepared().extra.get());
}

// Compiles `source` (UTF-8, leftmost-first as Rust's regex), or throws the
// ParamError naming the pattern and RE2's reason.
std::shared_ptr<const Prepared> compiled(const std::string& source, const std::string& shown) {
  RE2::Options options;
  options.set_log_errors(false);
  auto re = std::make_shared<RE2>(source, options);
  if (!re->ok()) {
    throw ParamError{0, "pattern \"" + shown + "\" does not compile: " + re->error()};
  }
  auto p = std::make_shared<Prepared>();
  p->extra = std::move(re);
  return p;
}

// polydat's promotion of a pattern: with a regex metacharacter a regex,
// anchored whole (^(?:src)$); else with a `*` a glob (each `*` any text);
// else a literal, matched whole.
std::string promoted(const std::string& source) {
  if (source.find_first_of(".+?()|[]{}^$\\") != std::string::npos) {
    return "^(?:" + source + ")$";
  }
  std::string out = "^";
  size_t from = 0;
  for (size_t star = source.find('*'); star != std::string::npos; star = source.find('*', from)) {
    out += RE2::QuoteMeta(source.substr(from, star - from)) + ".*";
    from = star + 1;
  }
  return out + RE2::QuoteMeta(source.substr(from)) + "$";
}

// The matches of `re` in `text` as Rust's find_iter gives them: leftmost
// first, not overlapping, an empty match right at the end of the previous
// match skipped (the search then resumes one character later). Calls
// each(groups) with the match's groups ([0] the whole match).
template <typename Each>
void each_match(const RE2& re, std::string_view text, const Each& each) {
  const int groups = 1 + re.NumberOfCapturingGroups();
  std::vector<re2::StringPiece> found(groups);
  size_t at = 0;
  size_t previous_end = std::string_view::npos;
  while (at <= text.size()) {
    if (!re.Match(re2::StringPiece(text.data(), text.size()), at, text.size(), RE2::UNANCHORED,
                  found.data(), groups)) {
      return;
    }
    const size_t start = (size_t)(found[0].data() - text.data());
    const size_t end = start + found[0].size();
    if (start == end && end == previous_end) {
      // One character on (a whole UTF-8 sequence), as Rust steps.
      if (at >= text.size()) return;
      at += rt::utf8_at(text, at).size;
      continue;
    }
    each(found);
    previous_end = end;
    at = end > start ? end : end + (end < text.size() ? rt::utf8_at(text, end).size : 1);
  }
}

// Rust's replacement text: $N or ${N} a group by number, $name or ${name}
// by name ($name takes every [_0-9A-Za-z] after it), a group that did not
// take part empty, $$ a dollar; a `$` that starts none of these is itself.
void expand(std::string& out, const RE2& re, std::string_view replacement,
            const std::vector<re2::StringPiece>& groups) {
  const auto group = [&](std::string_view name) {
    size_t index = 0;
    bool number = !name.empty();
    for (char c : name) {
      number = number && c >= '0' && c <= '9';
      if (number) index = index > 1000000 ? index : index * 10 + (size_t)(c - '0');
    }
    if (!number) {
      const auto& named = re.NamedCapturingGroups();
      const auto it = named.find(std::string(name));
      if (it == named.end()) return;
      index = (size_t)it->second;
    }
    if (index < groups.size() && groups[index].data()) {
      out.append(groups[index].data(), groups[index].size());
    }
  };
  const auto name_char = [](char c) {
    return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  };
  for (size_t i = 0; i < replacement.size();) {
    const char c = replacement[i];
    if (c != '$' || i + 1 >= replacement.size()) {
      out.push_back(c);
      ++i;
      continue;
    }
    if (replacement[i + 1] == '$') {
      out.push_back('$');
      i += 2;
    } else if (replacement[i + 1] == '{') {
      const size_t close = replacement.find('}', i + 2);
      if (close == std::string_view::npos) {
        out.push_back('$');
        ++i;
        continue;
      }
      group(replacement.substr(i + 2, close - i - 2));
      i = close + 1;
    } else {
      size_t end = i + 1;
      while (end < replacement.size() && name_char(replacement[end])) ++end;
      if (end == i + 1) {
        out.push_back('$');
        ++i;
        continue;
      }
      group(replacement.substr(i + 1, end - i - 1));
      i = end;
    }
  }
}

}  // namespace

void register_regex_nodes(Registry& r) {
  const auto matcher = [&](std::string_view name, std::string_view summary,
                           std::shared_ptr<const Prepared> (*prepare)(const std::vector<Value>&)) {
    r.add(
        {.name = name,
         .family = "regex",
         .args = {wire("input", P::Str), konst("pattern", P::Str)},
         .results = {Type::Bool},
         .summary = summary,
         .prepare = prepare,
         .eval = [](Call& c) { c.set(Value::boolean(RE2::PartialMatch(c.str(0), regex_of(c)))); }});
  };
  matcher("regex_match",
          "Whether pattern (a regex in Rust's syntax, as polydat reads it) matches somewhere in "
          "input. \\d, \\w, \\s and \\b are ASCII (in polydat, Unicode).",
          [](const std::vector<Value>& p) { return compiled(p[0].as_str(), p[0].as_str()); });
  matcher(
      "pattern_match",
      "Whether input is all of pattern, promoted by its shape as polydat promotes it: with a "
      "regex metacharacter (. + ? ( ) | [ ] { } ^ $ \\) a regex, else with a * a glob (each * "
      "any text), else the literal text.",
      [](const std::vector<Value>& p) { return compiled(promoted(p[0].as_str()), p[0].as_str()); });
  r.add({.name = "matches",
         .family = "regex",
         .args = {wire("input", P::Str), konst("pattern", P::Str)},
         .results = {Type::Str},
         .can_fail = true,
         .summary = "input, which pattern (a regex in Rust's syntax, matched anywhere unless it "
                    "anchors) must match: polydat's checking pass-through.",
         .failure = "input does not match pattern",
         .prepare =
             [](const std::vector<Value>& p) { return compiled(p[0].as_str(), p[0].as_str()); },
         .eval =
             [](Call& c) {
               if (!RE2::PartialMatch(c.str(0), regex_of(c))) {
                 throw NodeFailure{"\"" + c.str(0) + "\" does not match /" + c.param_str(0) + "/"};
               }
               c.set(c.input(0));
             }});
  r.add({.name = "regex_replace",
         .family = "regex",
         .args = {wire("input", P::Str), konst("pattern", P::Str), konst("replacement", P::Str)},
         .results = {Type::Str},
         .summary = "input with every match of pattern replaced (leftmost first, not "
                    "overlapping; an empty match right after a match skipped, as Rust's "
                    "replace_all): $1, ${1}, $name or ${name} in replacement is that group's "
                    "text (empty when it took no part), $$ a dollar.",
         .prepare =
             [](const std::vector<Value>& p) { return compiled(p[0].as_str(), p[0].as_str()); },
         .eval =
             [](Call& c) {
               const RE2& re = regex_of(c);
               const std::string& input = c.str(0);
               const std::string& replacement = c.param_str(1);
               std::string out;
               size_t copied = 0;
               each_match(re, input, [&](const std::vector<re2::StringPiece>& groups) {
                 const size_t start = (size_t)(groups[0].data() - input.data());
                 out.append(input, copied, start - copied);
                 expand(out, re, replacement, groups);
                 copied = start + groups[0].size();
               });
               out.append(input, copied);
               c.set_str(std::move(out));
             }});
  r.add({.name = "regex_extract",
         .family = "regex",
         .args = {wire("input", P::Str), konst("pattern", P::Str)},
         .results = {Type::Str},
         .summary = "The text of the first match's group 1 (the whole match when pattern has no "
                    "group 1 or it took no part); empty when nothing matches.",
         .prepare =
             [](const std::vector<Value>& p) { return compiled(p[0].as_str(), p[0].as_str()); },
         .eval =
             [](Call& c) {
               const RE2& re = regex_of(c);
               const int groups = std::min(2, 1 + re.NumberOfCapturingGroups());
               std::vector<re2::StringPiece> found(groups);
               const std::string& input = c.str(0);
               if (!re.Match(input, 0, input.size(), RE2::UNANCHORED, found.data(), groups)) {
                 c.set_str("");
                 return;
               }
               const re2::StringPiece& piece = groups > 1 && found[1].data() ? found[1] : found[0];
               c.set_str(std::string(piece.data(), piece.size()));
             }});
}

}  // namespace polyrt::nodes
