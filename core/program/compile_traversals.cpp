#include "program/compile_traversals.hpp"

#include <algorithm>
#include <functional>
#include <set>

#include "expand/expansions.hpp"
#include "graph/lower.hpp"
#include "graph/passes.hpp"
#include "modules/inline_modules.hpp"
#include "polyrt/numeric_types.hpp"
#include "program/lattice_body.hpp"
#include "program/program_internals.hpp"
#include "syntax/ast_builder.hpp"
#include "syntax/lexer.hpp"
#include "syntax/tree_walk.hpp"

namespace polyrt {

namespace {

syntax::Stmt declaration(syntax::StmtKind kind, const std::string& name, Type type,
                         syntax::SourcePos at) {
  syntax::Stmt s = syntax::AstBuilder(at).statement(kind, name);
  if (kind == syntax::StmtKind::Extern) s.type = type;
  return s;
}

// Names the body's expressions read that the body does not bind, with
// what its nested traversals read (their sources, predicates and bodies):
// the body passes those on.
void collect_free_names(const std::vector<syntax::Stmt>& body, std::set<std::string> bound,
                        std::vector<std::string>& out, std::set<std::string>& seen) {
  for (const syntax::Stmt& s : body) bound.insert(s.names.begin(), s.names.end());
  auto read = [&](const std::string& name) {
    if (!bound.count(name) && seen.insert(name).second) out.push_back(name);
  };
  for (const syntax::Stmt& s : body) {
    if (s.kind == syntax::StmtKind::Traversal) {
      std::set<std::string> inner = bound;
      for (const std::string& name : comprehension::scope_names(s.comprehension)) read(name);
      for (const std::string& name : comprehension::element_names(s.comprehension))
        inner.insert(name);
      collect_free_names(s.body, std::move(inner), out, seen);
      continue;
    }
    if (!s.expr) continue;
    syntax::walk(*s.expr, [&](const syntax::Expr& e) {
      if (e.kind == syntax::ExprKind::Ident) read(e.text);
    });
  }
}

std::vector<std::string> free_names(const std::vector<syntax::Stmt>& body) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  collect_free_names(body, {}, out, seen);
  return out;
}

// Where a name the body reads comes from in the parent (an output, an
// input, or an extern: the program's, as the host wrote it when the
// traversal opened, or in a body that is itself a traversal's, one polyrt
// writes per activation: an element or a value passed on), and its type.
std::optional<std::pair<TraversalDef::Cascade, Type>> parent_value(const Program& parent,
                                                                   const std::string& name) {
  using From = TraversalDef::Cascade::From;
  if (const std::optional<size_t> o = parent.output_index(name)) {
    return std::pair(TraversalDef::Cascade{name, From::Output, *o}, parent.output_type(*o));
  }
  const auto& inputs = parent.input_names();
  if (const auto i = std::find(inputs.begin(), inputs.end(), name); i != inputs.end()) {
    return std::pair(TraversalDef::Cascade{name, From::Input, (size_t)(i - inputs.begin())},
                     Type::U64);
  }
  const auto& externs = parent.externs();
  for (size_t e = 0; e < externs.size(); ++e) {
    if (externs[e].name == name) {
      return std::pair(TraversalDef::Cascade{name, From::Extern, e}, externs[e].type);
    }
  }
  return std::nullopt;
}

std::optional<Type> parent_type(const Program& parent, const std::string& name) {
  const auto found = parent_value(parent, name);
  return found ? std::optional(found->second) : std::nullopt;
}

// Whether `name` is one that the composed reference `composed` can make:
// its text outside the placeholders as written, each placeholder one or
// more name characters. Matched over the name's prefixes, never by
// backtracking: a template of many placeholders costs |composed| x |name|
// steps (trying every split took exponential time and recursed once per
// character).
bool composes(std::string_view composed, std::string_view name) {
  // made[j]: the template read so far makes the name's first j characters.
  std::vector<char> made(name.size() + 1, 0), next(name.size() + 1, 0);
  made[0] = 1;
  for (size_t k = 0; k < composed.size(); ++k) {
    const bool placeholder = composed[k] == '{';
    if (placeholder) k = composed.find('}', k);
    next[0] = 0;
    for (size_t j = 1; j <= name.size(); ++j) {
      next[j] = placeholder ? (made[j - 1] || next[j - 1]) && syntax::ident_char(name[j - 1])
                            : made[j - 1] && name[j - 1] == composed[k];
    }
    made.swap(next);
  }
  return made[name.size()];
}

// The type of a composed reference: that of every name of the parent it
// can compose to, which must agree (polyrt types an element when the
// program compiles; polydat, when the traversal opens).
Type composed_type(const Program& parent, const std::string& composed,
                   const std::function<void(const std::string&)>& fail) {
  std::vector<std::string> names = parent.output_names();
  names.insert(names.end(), parent.input_names().begin(), parent.input_names().end());
  for (const ExternInfo& e : parent.externs()) names.push_back(e.name);
  std::optional<Type> type;
  std::string first;
  for (const std::string& name : names) {
    if (!composes(composed, name)) continue;
    const Type t = parent_type(parent, name).value();
    if (type && t != *type) {
      fail("'{" + composed + "}' composes '" + first + "', a " + std::string(type_name(*type)) +
           ", and '" + name + "', a " + std::string(type_name(t)) +
           ": the names it reads have one type");
    }
    if (!type) first = name;
    type = t;
  }
  if (!type) fail("'{" + composed + "}' composes no name of the program's outputs or inputs");
  return *type;
}

// A spread's numeric literals take its vectors' element type, as a list
// literal beside a vector's elements is read in polydat ([0.5, xs...] of
// f32 elements is f32; an integer that fits an integer element type).
void settle_spread_literals(comprehension::Comprehension& c, const Program& parent) {
  for (comprehension::Comprehension& alternative : c.alternatives) {
    settle_spread_literals(alternative, parent);
  }
  for (comprehension::Clause& clause : c.clauses) {
    for (comprehension::Source& spread : clause.sources) {
      if (spread.kind != comprehension::Source::Kind::Spread) continue;
      std::optional<Type> element;
      for (const comprehension::Source& item : spread.arguments) {
        if (item.kind != comprehension::Source::Kind::Reference || element) continue;
        const std::optional<Type> vector = parent_type(parent, item.reference);
        if (vector && is_vector(*vector)) element = vector_element(*vector);
      }
      if (!element) continue;
      for (comprehension::Source& item : spread.arguments) {
        if (item.kind == comprehension::Source::Kind::Reference) continue;
        Value& v = item.values[0];
        const Type from = v.type();
        if (from == *element) continue;
        if (is_float(*element) && (from == Type::U64 || from == Type::F64)) {
          const double d = from == Type::U64 ? (double)v.as_u64() : v.as_f64();
          v = *element == Type::F32 ? Value::f32((float)d) : Value::f64(d);
        } else if (is_integer(*element) && is_integer(from) &&
                   integer_fits(word_of(v), from, *element)) {
          v = Value::of_word(*element, word_of(v));
        }
      }
    }
  }
}

// The type of a spread's elements: its literals' and its spread vectors'
// elements', which must agree.
Type spread_type(const comprehension::Source& spread, const Program& parent,
                 const std::function<void(const std::string&)>& fail) {
  std::optional<Type> type;
  std::string first;
  for (const comprehension::Source& item : spread.arguments) {
    Type t = Type::U64;
    std::string what;
    if (item.kind == comprehension::Source::Kind::Reference) {
      const std::optional<Type> vector = parent_type(parent, item.reference);
      if (!vector) fail("'" + item.reference + "...' spreads no output or input of the program");
      if (!is_vector(*vector)) {
        fail("'" + item.reference + "...' spreads a " + std::string(type_name(*vector)) +
             ": a spread takes a vector's elements (write [" + item.reference +
             "] for the value itself)");
      }
      t = vector_element(*vector);
      what = "the elements of '" + item.reference + "'";
    } else {
      t = item.values[0].type();
      what = item.values[0].to_string();
    }
    if (type && t != *type) {
      fail("the list's items have two types: " + first + " is a " + std::string(type_name(*type)) +
           ", " + what + " a " + std::string(type_name(t)));
    }
    if (!type) first = what;
    type = t;
  }
  return *type;
}

// The type of element `e`: its source's, a {name}'s the parent's value's;
// a union's alternatives must agree.
Type element_type(const comprehension::Comprehension& c, size_t e, const Program& parent,
                  const std::function<void(const std::string&)>& fail) {
  if (!c.alternatives.empty()) {
    const Type first = element_type(c.alternatives.front(), e, parent, fail);
    for (const comprehension::Comprehension& alternative : c.alternatives) {
      const Type type = element_type(alternative, e, parent, fail);
      if (type != first) {
        fail("'" + comprehension::element_names(c)[e] + "' is a " + std::string(type_name(first)) +
             " in one alternative of the union and a " + std::string(type_name(type)) +
             " in 'for " + alternative.canonical + "': a union's tuples have one shape");
      }
    }
    return first;
  }
  const comprehension::Source& source = *comprehension::element_sources(c)[e];
  if (source.kind == comprehension::Source::Kind::Spread) return spread_type(source, parent, fail);
  if (source.kind != comprehension::Source::Kind::Reference) {
    return comprehension::element_type(source).value();
  }
  if (comprehension::is_composed(source.reference)) {
    return vector_element(composed_type(parent, source.reference, fail));
  }
  const std::optional<Type> t = parent_type(parent, source.reference);
  if (!t && source.bare) {
    fail("the source '" + source.reference +
         "' names no output or input of the program (a bare word is a name, as polydat reads "
         "it); for the text, quote it: '" +
         source.reference + "'");
  }
  if (!t) fail("'{" + source.reference + "}' names no output or input of the program");
  return vector_element(t.value());  // a vector is peeled into its elements
}

// A body's program: its modules inlined, lowered and optimized, with the
// parent's options and sources. `name` names it in an expansion's dump.
std::shared_ptr<Program> compile_body(syntax::Ast body, const expand::Context& context,
                                      std::string name, const Program& parent,
                                      slots::NativeBuilder native) {
  expand::Context own = context;
  own.program_name = std::move(name);
  expand::expand_program(body, own);
  auto graph = std::make_shared<ir::Graph>(ir::lower(own.sources, body, parent.options()));
  ir::run_passes(*graph, own.sources, {});
  return ProgramInternals::make(std::move(graph), parent.options(),
                                ProgramSource{parent.source_text(), parent.source_files()}, native);
}

}  // namespace

syntax::Ast traversal_frame(const syntax::Ast& parsed) {
  syntax::Ast frame;
  for (const syntax::ModuleDef& m : parsed.modules) frame.modules.push_back(syntax::clone(m));
  for (const syntax::Stmt& s : parsed.statements) {
    if (s.kind == syntax::StmtKind::Pragma) frame.statements.push_back(syntax::clone(s));
  }
  frame.warnings = parsed.warnings;
  frame.tokens = parsed.tokens;
  return frame;
}

std::vector<syntax::Stmt> take_traversals(syntax::Ast& ast) {
  std::vector<syntax::Stmt> traversals, kept;
  for (syntax::Stmt& s : ast.statements) {
    (s.kind == syntax::StmtKind::Traversal ? traversals : kept).push_back(std::move(s));
  }
  ast.statements = std::move(kept);
  return traversals;
}

namespace {

// The body's declarations of what polyrt writes per activation: its
// `cycle`, an extern per element (typed by its source) and one per parent
// value it or its nested traversals read (the cascade).
void declare_body_inputs(TraversalDef& def, const syntax::Stmt& traversal, const Program& parent,
                         syntax::Ast& body, syntax::Sources& sources) {
  const syntax::SourcePos at = traversal.comprehension_pos;
  body.statements.push_back(declaration(syntax::StmtKind::Input, "cycle", Type::U64, at));
  std::set<std::string> declared{"cycle"};
  const std::vector<std::string> names = comprehension::element_names(def.comprehension);
  for (size_t e = 0; e < names.size(); ++e) {
    const Type type = element_type(def.comprehension, e, parent, [&](const std::string& why) {
      sources.fail(at, why, traversal.comprehension_length);
    });
    def.element_types.push_back(type);
    body.statements.push_back(declaration(syntax::StmtKind::Extern, names[e], type, at));
    body.statements.back().hidden = is_partition(type);  // polyrt writes it, not a host
    declared.insert(names[e]);
  }
  for (const std::string& name : free_names(traversal.body)) {
    if (declared.count(name)) continue;
    // A node name, or unknown: the body's compile says.
    const auto found = parent_value(parent, name);
    if (!found) continue;
    def.cascade.push_back(found->first);
    body.statements.push_back(declaration(syntax::StmtKind::Extern, name, found->second, at));
    body.statements.back().hidden = is_partition(found->second);  // polyrt writes it
    declared.insert(name);
  }
}

// polydat's V3: a name the comprehension reads that nothing binds reads
// None (its source yields nothing, its predicate drops the tuple), with a
// warning; under `pragma strict` it is refused.
void check_scope_names(TraversalDef& def, const syntax::Stmt& traversal, const Program& parent,
                       bool strict, syntax::Sources& sources) {
  const syntax::SourcePos at = traversal.comprehension_pos;
  for (const std::string& name : comprehension::scope_names(def.comprehension)) {
    if (parent_type(parent, name)) continue;
    const std::string message = "'" + name + "' in 'for " + def.comprehension.canonical +
                                "' names no element, output or input: it reads None";
    if (strict) {
      sources.fail(at, message + " (refused under pragma strict)", traversal.comprehension_length,
                   "a bare word in a predicate is a name; quote a string: {r} == \"us\"");
    }
    def.warnings.push_back(sources.warning(at, message, traversal.comprehension_length));
  }
}

// polydat's traversal cascade hands a body the parent's values as they were
// when the traversal opened, never its cells: a body binding named like a
// `shared` binding of the parent is the body's own and writes nothing back.
// Said, since a reader of polydat's scope model may expect the write.
void warn_of_shared_rebindings(TraversalDef& def, const std::vector<syntax::Stmt>& body,
                               const Program& parent, syntax::Sources& sources) {
  const ir::Graph& g = ProgramInternals::graph(parent);
  for (const syntax::Stmt& s : body) {
    if (s.kind != syntax::StmtKind::Binding || s.names.size() != 1) continue;
    const std::string& name = s.names[0];
    const auto o = std::find_if(g.outputs.begin(), g.outputs.end(),
                                [&](const ir::Output& out) { return out.name == name; });
    if (o == g.outputs.end() || !g.nodes[o->wire.node].is_shared_binding) continue;
    def.warnings.push_back(sources.warning(
        s.pos,
        "'" + name + "' in the body of 'for " + def.comprehension.canonical +
            "' is a binding of the body's own: the body reads the program's shared '" + name +
            "' as it was when the traversal opened and writes nothing back to it (a traversal "
            "passes its bodies values, not shared cells)",
        name.size()));
  }
}

// Whether node `n`'s cone holds a coordinate (a body's: its cycle).
bool reads_coordinate(const ir::Graph& g, uint32_t n) {
  std::vector<bool> seen(g.nodes.size());
  std::vector<uint32_t> stack{n};
  while (!stack.empty()) {
    const uint32_t at = stack.back();
    stack.pop_back();
    if (seen[at]) continue;
    seen[at] = true;
    if (g.nodes[at].kind == ir::NodeKind::Coordinate) return true;
    for (const ir::Wire& w : g.nodes[at].inputs) stack.push_back(w.node);
  }
  return false;
}

// A body `const` is evaluated once per activation: with a cursor, whose
// ordinal advances with the cycle, one that reads it would change every
// cycle instead (it once silently did).
struct ConstBinding {
  std::vector<std::string> names;
  syntax::SourcePos pos;
};

void refuse_consts_reading_cursors(const Program& body, const std::vector<ConstBinding>& consts,
                                   const syntax::Sources& sources) {
  const ir::Graph& g = ProgramInternals::graph(body);
  for (const ConstBinding& s : consts) {
    for (const ir::Output& o : g.outputs) {
      if (std::find(s.names.begin(), s.names.end(), o.name) == s.names.end()) continue;
      if (!reads_coordinate(g, o.wire.node)) continue;
      sources.fail(s.pos,
                   "const binding '" + o.name +
                       "' reads a cursor of the body, which advances every cycle of an "
                       "activation, while a body const is evaluated once per activation",
                   o.name.size(), "drop 'const' to recompute it every cycle");
    }
  }
}

// The batch form of a traversal over a literal lattice (lattice_body.hpp),
// compiled from a fresh copy of its statement, when it has one.
void add_lattice_body(TraversalDef& def, syntax::Stmt statement, const syntax::Ast& frame,
                      const expand::Context& context, const Program& parent,
                      slots::NativeBuilder native) {
  syntax::Ast lattice = traversal_frame(frame);
  lattice.warnings.clear();
  for (syntax::Stmt& s : statement.body) {
    s.is_const = false;
    lattice.statements.push_back(std::move(s));
  }
  if (std::optional<LatticeBodyAst> l =
          lattice_body_ast(def.comprehension, std::move(lattice), statement.comprehension_pos)) {
    def.lattice_body =
        compile_body(std::move(l->ast), context,
                     "the batch form of 'for " + def.comprehension.canonical + "'", parent, native);
    def.lattice_tuples = l->tuples;
  }
}

// Compiles one traversal statement against its compiled parent (the
// program, or for a nested traversal the enclosing body), its own nested
// traversals recursively against its body. `reparse` gives a fresh copy
// of the statement (for the lattice body) when the traversal can have one.
// Every body program gets its own copy of `frame` (traversal_frame).
std::shared_ptr<TraversalDef> compile_level(const syntax::Ast& frame,
                                            const expand::Context& context, const Program& parent,
                                            syntax::Stmt traversal,
                                            const std::function<syntax::Stmt()>& reparse,
                                            slots::NativeBuilder native) {
  syntax::Sources& sources = context.sources;
  auto def = std::make_shared<TraversalDef>();
  def->comprehension = traversal.comprehension;
  const syntax::SourcePos at = traversal.comprehension_pos;
  settle_spread_literals(def->comprehension, parent);
  comprehension::resolve_cursor_ranges(
      def->comprehension,
      [&](const std::string& name) -> std::optional<std::pair<uint64_t, uint64_t>> {
        for (const CursorInfo& c : parent.cursors()) {
          if (c.name == name) return c.range;
        }
        return std::nullopt;
      },
      [&](const std::string& why) {
        sources.fail(at, why, traversal.comprehension_length,
                     "all(q) reads a range(START, END) cursor declared at the program's top level");
      });

  // The body program's own copy of the modules and pragmas (the parent's
  // were consumed by its compile); its declarations come first.
  syntax::Ast own = traversal_frame(frame);
  syntax::Ast body;
  body.modules = std::move(own.modules);
  body.warnings = std::move(own.warnings);
  body.tokens = own.tokens;
  declare_body_inputs(*def, traversal, parent, body, sources);
  bool strict = false;
  for (syntax::Stmt& s : own.statements) {
    strict = strict || s.names[0] == "strict";
    body.statements.push_back(std::move(s));
  }
  check_scope_names(*def, traversal, parent, strict, sources);
  warn_of_shared_rebindings(*def, traversal.body, parent, sources);
  def->cursors = take_body_cursors(traversal.body, comprehension::element_names(def->comprehension),
                                   def->element_types, sources);
  std::vector<syntax::Stmt> nested;
  std::vector<ConstBinding> consts;
  for (syntax::Stmt& s : traversal.body) {
    if (s.kind == syntax::StmtKind::Traversal) {
      nested.push_back(std::move(s));
      continue;
    }
    if (s.is_const && !def->cursors.empty()) consts.push_back({s.names, s.pos});
    // Each activation is a fresh state that runs one cycle, so a plain
    // binding is evaluated once per activation, as polydat's body `const`
    // is; a frozen const would instead read the elements before they are
    // written (at state creation).
    s.is_const = false;
    body.statements.push_back(std::move(s));
  }

  std::shared_ptr<Program> program =
      compile_body(std::move(body), context,
                   "the body of 'for " + def->comprehension.canonical + "'", parent, native);
  refuse_consts_reading_cursors(*program, consts, sources);
  if (program->input_names().size() != 1) {
    sources.fail(at,
                 "the body of 'for " + def->comprehension.canonical + "' reads '" +
                     program->input_names()[1] +
                     "', which is no element, body binding, or output or input of the program",
                 traversal.comprehension_length,
                 "a body's only input is its own cycle; bind what it needs in the program");
  }
  // A nested traversal opens from an activation of this body (at its cycle
  // 0) and reads the body's values as this one reads the parent's.
  for (syntax::Stmt& inner : nested) {
    std::shared_ptr<TraversalDef> level =
        compile_level(frame, context, *program, std::move(inner), {}, native);
    def->warnings.insert(def->warnings.end(), level->warnings.begin(), level->warnings.end());
    level->warnings.clear();
    ProgramInternals::add_traversal(*program, std::move(level));
  }
  def->body = std::move(program);
  // A body that reads nothing of the parent over a literal lattice also
  // gets its batch form.
  if (reparse && nested.empty() && def->cascade.empty() && def->cursors.empty() &&
      comprehension::scope_names(def->comprehension).empty()) {
    add_lattice_body(*def, reparse(), frame, context, parent, native);
  }
  return def;
}

}  // namespace

std::shared_ptr<const TraversalDef> compile_traversal(const syntax::Ast& frame,
                                                      const expand::Context& context,
                                                      const Program& parent, syntax::Stmt statement,
                                                      slots::NativeBuilder native) {
  const syntax::Stmt copy = syntax::clone(statement);
  return compile_level(
      frame, context, parent, std::move(statement), [&] { return syntax::clone(copy); }, native);
}

}  // namespace polyrt
