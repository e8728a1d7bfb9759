#include "program/cursor_bounds.hpp"

#include <map>

#include "graph/graph.hpp"
#include "polyrt/error.hpp"
#include "program/program_internals.hpp"
#include "syntax/ast_builder.hpp"

namespace polyrt {

namespace {

bool is_cursor(const syntax::Stmt& s) {
  return s.kind == syntax::StmtKind::Cursor && s.expr && s.expr->kind == syntax::ExprKind::Call;
}

// One cursor to evaluate: the statement compiled (`real`), the same
// statement in the probe's fresh parse (`copy`, whose expressions move into
// the probe), and whether it is a body's.
struct Site {
  syntax::Stmt* real;
  syntax::Stmt* copy;
  bool in_body;
  std::string prefix;  // of its probe outputs' names
};

// What of cursor `s` must be evaluated: its non-literal arguments and, at
// the top level, an `over` that names a wire (a body's names an element).
bool needs_evaluation(const syntax::Stmt& s, bool in_body) {
  if (!is_cursor(s)) return false;
  for (const syntax::ExprPtr& a : s.expr->args) {
    if (a->kind != syntax::ExprKind::Int) return true;
  }
  return !in_body && !s.over.empty() && !s.over_spec;
}

std::string bound_name(const Site& site, size_t arg) {
  return site.prefix + "__bound" + std::to_string(arg);
}

std::string over_name(const Site& site) {
  return site.prefix + "__over";
}

// The cursors to evaluate, paired with their copies in `probe`.
std::vector<Site> sites_of(syntax::Ast& ast, std::vector<syntax::Stmt>& traversals,
                           syntax::Ast& probe, std::vector<syntax::Stmt>& probe_traversals) {
  std::vector<Site> sites;
  const auto pair = [&](std::vector<syntax::Stmt>& real, std::vector<syntax::Stmt>& copy,
                        bool in_body) {
    for (size_t i = 0; i < real.size() && i < copy.size(); ++i) {
      if (!needs_evaluation(real[i], in_body)) continue;
      sites.push_back(
          {&real[i], &copy[i], in_body, real[i].names[0] + "__c" + std::to_string(sites.size())});
    }
  };
  pair(ast.statements, probe.statements, false);
  for (size_t t = 0; t < traversals.size() && t < probe_traversals.size(); ++t) {
    pair(traversals[t].body, probe_traversals[t].body, true);
  }
  return sites;
}

// The probe: bindings of what each cursor is built from, after the program;
// a top-level cursor stands for a one-ordinal range (so that what reads it
// still compiles).
ProbeRequest make_probe(syntax::Ast& probe, const std::vector<Site>& sites) {
  ProbeRequest request;
  // Appended after: the sites point into probe.statements.
  std::vector<syntax::Stmt> bindings;
  for (const Site& site : sites) {
    syntax::Stmt& s = *site.copy;
    const syntax::AstBuilder b(s.pos);
    for (size_t a = 0; a < s.expr->args.size(); ++a) {
      if (s.expr->args[a]->kind == syntax::ExprKind::Int) continue;
      request.outputs.push_back(bound_name(site, a));
      bindings.push_back(b.binding(request.outputs.back(), std::move(s.expr->args[a]), false));
    }
    if (site.in_body) continue;
    if (!s.over.empty() && !s.over_spec) {
      request.outputs.push_back(over_name(site));
      bindings.push_back(b.binding(request.outputs.back(), b.name(s.over), false));
    }
    std::vector<syntax::ExprPtr> one;
    one.push_back(b.literal(Value::u64(0)));
    one.push_back(b.literal(Value::u64(1)));
    s.expr = b.call("range", std::move(one));
    s.over.clear();
    s.over_spec = false;
    request.stand_ins.push_back(s.names[0]);
  }
  for (syntax::Stmt& binding : bindings) probe.statements.push_back(std::move(binding));
  return request;
}

class BoundEvaluator {
 public:
  BoundEvaluator(const Program& probe, const syntax::Sources& sources)
      : probe_(probe), graph_(ProgramInternals::graph(probe)), sources_(sources) {}

  // The value of probe output `name`, which stands for `what` of cursor
  // `cursor` written at `at` (length `length`).
  Value value(const std::string& name, const std::string& cursor, const std::string& what,
              syntax::SourcePos at, size_t length, bool in_body) {
    const size_t index = probe_.require_output(name);
    const uint32_t node = graph_.outputs.at(index).wire.node;
    const std::string subject = "cursor '" + cursor + "': " + what;
    for (size_t c = 0; c < graph_.coordinates.size(); ++c) {
      if (!graph_.depends_on(node, c)) continue;
      const std::string& name = probe_.input_names()[c];
      sources_.fail(
          at,
          subject + (in_body ? " reads '" + name +
                                   "', which is no value of the program (a body's cursor "
                                   "opens when the program compiles)"
                             : " reads the coordinate '" + name +
                                   "'; a top-level cursor opens when the program compiles"),
          length,
          in_body ? "a body's cursor opens from the program's values when it compiles: "
                    "constants, its bindings that read no coordinate and its externs, "
                    "not the traversal's elements or the body's bindings"
                  : "compute it from constants, const bindings and externs; a name the "
                    "program neither declares nor binds is an inferred input unless "
                    "given a value: --set " +
                        name + "=VALUE (CompileOptions::params, Python params=)");
    }
    for (size_t e = 0; e < graph_.externs.size(); ++e) {
      if (!graph_.depends_on(node, graph_.coordinates.size() + e) ||
          !graph_.externs[e].default_value.is_none()) {
        continue;
      }
      sources_.fail(at,
                    subject + " reads extern '" + graph_.externs[e].name +
                        "', which has no value when the program compiles",
                    length,
                    "give it a default, or a value: --set " + graph_.externs[e].name +
                        "=VALUE (CompileOptions::params, Python params=)");
    }
    try {
      if (!state_) {
        state_.emplace(probe_.new_state());
        const std::vector<uint64_t> zeros(probe_.input_names().size(), 0);
        state_->set_inputs(zeros);
      }
      return state_->pull_at(index);
    } catch (const EvalError& e) {
      const std::string why = e.what();
      sources_.fail(at, subject + " fails: " + why.substr(0, why.find('\n')), length);
    }
  }

  // The externs made of params (CompileOptions::params) that the
  // evaluated bounds read.
  std::vector<const ir::Extern*> externs_read(const std::vector<std::string>& outputs) const {
    std::vector<const ir::Extern*> read;
    for (size_t e = 0; e < graph_.externs.size(); ++e) {
      for (const std::string& name : outputs) {
        const uint32_t node = graph_.outputs.at(probe_.require_output(name)).wire.node;
        if (!graph_.depends_on(node, graph_.coordinates.size() + e)) continue;
        read.push_back(&graph_.externs[e]);
        break;
      }
    }
    return read;
  }

  Type type(const std::string& name) const {
    return graph_.outputs.at(probe_.require_output(name)).type;
  }

 private:
  const Program& probe_;
  const ir::Graph& graph_;
  const syntax::Sources& sources_;
  std::optional<State> state_;
};

// Argument `a` of the site's cursor as the integer literal it evaluates to.
void write_bound(const Site& site, size_t a, BoundEvaluator& evaluator,
                 const syntax::Sources& sources) {
  syntax::Stmt& s = *site.real;
  syntax::Expr& arg = *s.expr->args[a];
  const std::string what = "argument " + std::to_string(a + 1) + " of " + s.expr->text;
  const Value v =
      evaluator.value(bound_name(site, a), s.names[0], what, arg.pos, arg.length, site.in_body);
  if (v.type() != Type::U64) {
    sources.fail(arg.pos,
                 "cursor '" + s.names[0] + "': " + what + " is " + v.to_string() +
                     (v.is_none() ? "" : " of type " + std::string(type_name(v.type()))) +
                     ", not an unsigned integer",
                 arg.length, "cursor bounds and counts are u64 values");
  }
  const syntax::AstBuilder b(arg.pos);
  syntax::ExprPtr literal = b.literal(v);
  literal->length = arg.length;
  s.expr->args[a] = std::move(literal);
}

// An `over NAME` whose wire is a str: the partition spec it holds.
void write_over(const Site& site, BoundEvaluator& evaluator) {
  syntax::Stmt& s = *site.real;
  const std::string name = over_name(site);
  if (evaluator.type(name) != Type::Str) return;  // a partition wire: lowered as it is
  const Value spec =
      evaluator.value(name, s.names[0], "'over " + s.over + "'", s.over_pos, s.over.size(), false);
  s.over = spec.as_str();
  s.over_spec = true;
}

}  // namespace

void resolve_cursor_bounds(syntax::Ast& ast, std::vector<syntax::Stmt>& traversals,
                           const ProbeCompiler& compile_probe, const syntax::Sources& sources) {
  bool any = false;
  for (const syntax::Stmt& s : ast.statements) any = any || needs_evaluation(s, false);
  for (const syntax::Stmt& t : traversals) {
    for (const syntax::Stmt& s : t.body) any = any || needs_evaluation(s, true);
  }
  if (!any) return;
  // The probe compiles a copy: the real tree is still as parsed here.
  syntax::Ast probe = syntax::clone(ast);
  std::vector<syntax::Stmt> probe_traversals;
  for (const syntax::Stmt& t : traversals) probe_traversals.push_back(syntax::clone(t));
  const std::vector<Site> sites = sites_of(ast, traversals, probe, probe_traversals);
  const ProbeRequest request = make_probe(probe, sites);
  const std::shared_ptr<const Program> program = compile_probe(std::move(probe), request);
  BoundEvaluator evaluator(*program, sources);
  for (const Site& site : sites) {
    for (size_t a = 0; a < site.real->expr->args.size(); ++a) {
      if (site.real->expr->args[a]->kind != syntax::ExprKind::Int) {
        write_bound(site, a, evaluator, sources);
      }
    }
    if (!site.in_body && !site.real->over.empty() && !site.real->over_spec) {
      write_over(site, evaluator);
    }
  }
  // A param only the bounds read stays an extern of the program (its value
  // the param's), as nmbrs hands every param to the program, so that the
  // host may still name it. (Inserting moves the statements the sites point
  // at: the position is taken first.)
  const syntax::SourcePos at = sites.front().real->pos;
  for (const ir::Extern* e : evaluator.externs_read(request.outputs)) {
    bool declared = false;
    for (const syntax::Stmt& s : ast.statements) {
      declared = declared || (s.kind == syntax::StmtKind::Extern && s.names[0] == e->name);
    }
    if (declared) continue;
    syntax::Stmt extern_stmt = syntax::AstBuilder(at).statement(syntax::StmtKind::Extern, e->name);
    extern_stmt.type = e->type;
    ast.statements.insert(ast.statements.begin(), std::move(extern_stmt));
  }
}

}  // namespace polyrt
