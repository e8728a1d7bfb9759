// A parsed comprehension written back as polydat prints it (canonical text).
#include "comprehension/grammar_parser.hpp"

namespace polyrt::comprehension::grammar {

std::string Parser::canonical(const Comprehension& c) const {
  std::string out;
  for (size_t a = 0; a < c.alternatives.size(); ++a) {
    out += (a ? ", for " : "[for ") + c.alternatives[a].canonical;
  }
  if (!c.alternatives.empty()) out += "]";
  for (size_t k = 0; k < c.clauses.size(); ++k) {
    const Clause& cl = c.clauses[k];
    out += k ? ", " : "";
    if (cl.zip == Clause::Zip::None) {
      out += cl.names[0] + " in " + canonical_source(cl.sources[0]);
      continue;
    }
    std::string names, sources;
    for (size_t n = 0; n < cl.names.size(); ++n) {
      names += (n ? ", " : "") + cl.names[n];
      sources += (n ? ", " : "") + canonical_source(cl.sources[n], true);
    }
    out += "(" + names + ") in " +
           (cl.zip == Clause::Zip::Truncate ? "zip_truncate"
            : cl.zip == Clause::Zip::Cycle  ? "zip_cycle"
                                            : "") +
           "(" + sources + ")";
  }
  if (!tail_text().empty()) out += " " + tail_text();
  return out;
}

std::string Parser::float_text(double v) {
  std::string t = Value::f64(v).to_string();
  if (t.find_first_of(".eE") == std::string::npos) t += ".0";
  return t;
}

std::string Parser::trimmed(std::string_view text) {
  while (!text.empty() && std::isspace((unsigned char)text.back())) text.remove_suffix(1);
  while (!text.empty() && std::isspace((unsigned char)text.front())) text.remove_prefix(1);
  return std::string(text);
}

std::string Parser::canonical_source(const Source& s, bool in_zip) {
  std::string out;
  if (s.kind == Source::Kind::Reference) return s.bare ? s.reference : "{" + s.reference + "}";
  if (s.kind == Source::Kind::All) return "all(" + s.reference + ")";
  if (s.kind == Source::Kind::Text) return "'" + s.reference + "'";
  if (s.kind == Source::Kind::Spread) {
    for (size_t a = 0; a < s.arguments.size(); ++a) {
      const Source& item = s.arguments[a];
      out += (a ? ", " : "") + (item.kind == Source::Kind::Reference
                                    ? item.reference + "..."
                                    : canonical_value(item.values[0]));
    }
    return "[" + out + "]";
  }
  if (s.kind == Source::Kind::Generator || s.kind == Source::Kind::Call) {
    out += s.generator + "(";
    for (size_t a = 0; a < s.arguments.size(); ++a) {
      out += (a ? ", " : "") + canonical_source(s.arguments[a]);
    }
    return out + ")";
  }
  if (s.kind == Source::Kind::Interval) {
    const std::string range = float_text(s.lo) + (s.closed ? "..=" : "..") + float_text(s.hi);
    if (!s.measure) return range;
    return measure_text(*s.measure) + (s.on ? " on " + range : "");
  }
  if (s.kind == Source::Kind::Range && !s.arguments.empty()) {
    out += canonical_source(s.arguments[0]) + (s.closed ? "..=" : "..") +
           canonical_source(s.arguments[1]);
    const Source& step = s.arguments[2];
    const bool unit = step.kind == Source::Kind::List && step.values[0].as_u64() == 1;
    return unit ? out : out + " step " + canonical_source(step);
  }
  if (s.kind == Source::Kind::Range) {
    out += std::to_string(s.start) + ".." + std::to_string(s.end);
    return s.step == 1 ? out : out + " step " + std::to_string(s.step);
  }
  for (size_t v = 0; v < s.values.size(); ++v) {
    out += (v ? ", " : "") + canonical_value(s.values[v]);
  }
  return in_zip ? "[" + out + "]" : out;
}

}  // namespace polyrt::comprehension::grammar
