#include "expand/tiles.hpp"

#include "expand/tile_compiler.hpp"

namespace polyrt::expand {

namespace tiling {

ExprPtr TileCompiler::compile(std::string& skeleton) {
  JsonState state;
  Render r = sequence(0, body_.text.size(), {}, state);
  if (json() && !r.skeleton.empty()) {
    check_json(r.skeleton);
    for (const Render::OtherArm& arm : r.other_arms) {
      std::string other = r.skeleton;
      other.replace(arm.offset, arm.length, arm.skeleton);
      std::string error;
      if (!rt::parse_json(other, error)) {
        fail(arm.at,
             "its json is not valid JSON when this " + header_.sigil + "if takes its " +
                 (arm.written ? std::string("other arm") : "missing " + header_.sigil + "else") +
                 ": " + error,
             1 + header_.sigil.size(),
             "keep what only one arm needs inside it (a comma before a member goes in the "
             "branch: {\"a\": 1 " +
                 header_.sigil + "if c { , \"b\": 2 }})");
      }
    }
  }
  skeleton = r.skeleton;
  return value_of(std::move(r), pos_);
}

Render TileCompiler::sequence(size_t begin, size_t end, const Elements& elements,
                              JsonState& state) {
  // Directives nest by recursion: bounded, so that no template overflows
  // the stack.
  if (++depth_ > kMaxTileDepth) {
    fail(begin, "its directives nest more than " + std::to_string(kMaxTileDepth) + " deep", 1,
         "split it into tiles and splice them");
  }
  struct Leave {
    size_t& depth;
    ~Leave() { --depth; }
  } leave{depth_};
  Render r;
  const std::string& open = header_.open;
  const std::string& sigil = header_.sigil;
  size_t i = begin;
  while (i < end) {
    if (starts(i, open)) {
      if (starts(i + open.size(), open)) {  // a doubled opener is itself
        add_static(r, open, state);
        i += 2 * open.size();
        continue;
      }
      i = hole(r, i, end, elements, state);
      continue;
    }
    if (starts(i, sigil)) {
      const size_t word = i + sigil.size();
      if (directive(word, "if")) {
        i = branch(r, i, word + 2, end, elements, state);
        continue;
      }
      if (directive(word, "for")) {
        i = projection(r, i, word + 3, end, elements, state);
        continue;
      }
      if (directive(word, "else")) {
        fail(i, sigil + "else without an " + sigil + "if before it", sigil.size() + 4,
             "a branch is " + sigil + "if COND { ... } " + sigil + "else { ... }");
      }
    }
    add_static(r, std::string_view(text()).substr(i, 1), state);
    ++i;
  }
  return r;
}

size_t TileCompiler::last_at_depth0(size_t a, size_t b, char sep) const {
  size_t found = std::string::npos;
  int depth = 0;
  for (size_t k = a; k < b;) {
    const char c = text()[k];
    if (string_at(k)) {
      k = skip_string(k, b);
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    const bool single = (k == a || text()[k - 1] != sep) && (k + 1 >= b || text()[k + 1] != sep);
    if (depth == 0 && c == sep && single && !(sep == ':' && k + 1 < b && text()[k + 1] == '=')) {
      found = k;
    }
    ++k;
  }
  return found;
}

}  // namespace tiling

namespace {

using tiling::KnownTile;
using tiling::KnownTiles;
using tiling::TileCompiler;

void compile_statements(std::vector<Stmt>& list, const SourceText& source, Producers producers,
                        KnownTiles tiles) {
  for (Stmt& s : list) {
    if (s.kind == StmtKind::Binding && s.is_producer) producers[s.names[0]] = s.comprehension;
    if (s.tile) {
      std::string skeleton;
      s.expr = TileCompiler(source, s, producers, tiles).compile(skeleton);
      tiles[s.names[0]] = KnownTile{s.tile->encoding, std::move(skeleton)};
    }
    if (s.kind == StmtKind::Traversal) compile_statements(s.body, source, producers, tiles);
  }
}

}  // namespace

bool tile_string_at(std::string_view text, size_t k) {
  const char c = text[k];
  return c == '"' || c == '\'' || (c == '\\' && k + 1 < text.size() && text[k + 1] == '"');
}

size_t tile_skip_string(std::string_view text, size_t k, size_t end) {
  if (text[k] == '\\') {
    const size_t close = text.find("\\\"", k + 2);
    return close == std::string_view::npos || close + 2 > end ? end : close + 2;
  }
  const char quote = text[k];
  for (++k; k < end; ++k) {
    if (text[k] == '\\') {
      ++k;
    } else if (text[k] == quote) {
      return k + 1;
    }
  }
  return end;
}

size_t tile_hole_close(std::string_view text, size_t k, size_t end, std::string_view close) {
  int depth = 0;
  while (k < end) {
    const char c = text[k];
    if (depth == 0 && text.compare(k, close.size(), close) == 0) return k;
    if (tile_string_at(text, k)) {
      k = tile_skip_string(text, k, end);
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    ++k;
  }
  return std::string_view::npos;
}

void compile_tiles(Ast& ast, const SourceText& source) {
  for (ModuleDef& m : ast.modules) compile_statements(m.body, source, {}, {});
  compile_statements(ast.statements, source, {}, {});
}

}  // namespace polyrt::expand
