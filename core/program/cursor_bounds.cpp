#include "program/cursor_bounds.hpp"

#include <map>

#include "dsl/ast_builder.hpp"
#include "graph/graph.hpp"
#include "polyrt/error.hpp"
#include "program/program_internals.hpp"

namespace polyrt {

namespace {

bool is_top_level_cursor(const dsl::Stmt& s) {
  return s.kind == dsl::StmtKind::Cursor && s.expr && s.expr->kind == dsl::ExprKind::Call;
}

// What of cursor `s` must be evaluated: its non-literal arguments and an
// `over` that names a wire.
bool needs_evaluation(const dsl::Stmt& s) {
  if (!is_top_level_cursor(s)) return false;
  for (const dsl::ExprPtr& a : s.expr->args) {
    if (a->kind != dsl::ExprKind::Int) return true;
  }
  return !s.over.empty() && !s.over_spec;
}

std::string bound_name(const dsl::Stmt& cursor, size_t arg) {
  return cursor.names[0] + "__bound" + std::to_string(arg);
}

std::string over_name(const dsl::Stmt& cursor) {
  return cursor.names[0] + "__over";
}

// The probe: each cursor to evaluate stands for a one-ordinal range (so that
// what reads it still compiles), after bindings of what it is built from.
ProbeRequest make_probe(dsl::Ast& probe) {
  ProbeRequest request;
  std::vector<std::string>& outputs = request.outputs;
  std::vector<dsl::Stmt> statements;
  for (dsl::Stmt& s : probe.statements) {
    if (!needs_evaluation(s)) {
      statements.push_back(std::move(s));
      continue;
    }
    const dsl::AstBuilder b(s.pos);
    for (size_t a = 0; a < s.expr->args.size(); ++a) {
      if (s.expr->args[a]->kind == dsl::ExprKind::Int) continue;
      outputs.push_back(bound_name(s, a));
      statements.push_back(b.binding(outputs.back(), std::move(s.expr->args[a]), false));
    }
    if (!s.over.empty() && !s.over_spec) {
      outputs.push_back(over_name(s));
      statements.push_back(b.binding(outputs.back(), b.name(s.over), false));
    }
    std::vector<dsl::ExprPtr> one;
    one.push_back(b.literal(Value::u64(0)));
    one.push_back(b.literal(Value::u64(1)));
    s.expr = b.call("range", std::move(one));
    s.over.clear();
    s.over_spec = false;
    request.stand_ins.push_back(s.names[0]);
    statements.push_back(std::move(s));
  }
  probe.statements = std::move(statements);
  return request;
}

class BoundEvaluator {
 public:
  BoundEvaluator(const Program& probe, const dsl::Sources& sources)
      : probe_(probe), graph_(ProgramInternals::graph(probe)), sources_(sources) {}

  // The value of probe output `name`, which stands for `what` of cursor
  // `cursor` written at `at` (length `length`).
  Value value(const std::string& name, const std::string& cursor, const std::string& what,
              dsl::SourcePos at, size_t length) {
    const size_t index = probe_.require_output(name);
    const uint32_t node = graph_.outputs.at(index).wire.node;
    const std::string subject = "cursor '" + cursor + "': " + what;
    for (size_t c = 0; c < graph_.coordinates.size(); ++c) {
      if (!graph_.depends_on(node, c)) continue;
      sources_.fail(at,
                    subject + " reads the coordinate '" + probe_.input_names()[c] +
                        "'; a top-level cursor opens when the program compiles",
                    length,
                    "compute it from constants, const bindings and externs; a name the program "
                    "neither declares nor binds is an inferred input unless given a value: --set " +
                        probe_.input_names()[c] + "=VALUE (CompileOptions::params)");
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
                        "=VALUE (CompileOptions::params)");
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
  const dsl::Sources& sources_;
  std::optional<State> state_;
};

// Argument `a` of cursor `s` as the integer literal it evaluates to.
void write_bound(dsl::Stmt& s, size_t a, BoundEvaluator& evaluator, const dsl::Sources& sources) {
  dsl::Expr& arg = *s.expr->args[a];
  const std::string what = "argument " + std::to_string(a + 1) + " of " + s.expr->text;
  const Value v = evaluator.value(bound_name(s, a), s.names[0], what, arg.pos, arg.length);
  if (v.type() != Type::U64) {
    sources.fail(arg.pos,
                 "cursor '" + s.names[0] + "': " + what + " is " + v.to_string() +
                     (v.is_none() ? "" : " of type " + std::string(type_name(v.type()))) +
                     ", not an unsigned integer",
                 arg.length, "cursor bounds and counts are u64 values");
  }
  const dsl::AstBuilder b(arg.pos);
  dsl::ExprPtr literal = b.literal(v);
  literal->length = arg.length;
  s.expr->args[a] = std::move(literal);
}

// An `over NAME` whose wire is a str: the partition spec it holds.
void write_over(dsl::Stmt& s, BoundEvaluator& evaluator) {
  const std::string name = over_name(s);
  if (evaluator.type(name) != Type::Str) return;  // a partition wire: lowered as it is
  const Value spec =
      evaluator.value(name, s.names[0], "'over " + s.over + "'", s.over_pos, s.over.size());
  s.over = spec.as_str();
  s.over_spec = true;
}

}  // namespace

void resolve_cursor_bounds(dsl::Ast& ast, const std::function<dsl::Ast()>& parse_again,
                           const ProbeCompiler& compile_probe, const dsl::Sources& sources) {
  bool any = false;
  for (const dsl::Stmt& s : ast.statements) any = any || needs_evaluation(s);
  if (!any) return;
  dsl::Ast probe = parse_again();
  const ProbeRequest request = make_probe(probe);
  const std::vector<std::string>& outputs = request.outputs;
  const std::shared_ptr<const Program> program = compile_probe(std::move(probe), request);
  BoundEvaluator evaluator(*program, sources);
  std::optional<dsl::SourcePos> first_cursor;
  for (dsl::Stmt& s : ast.statements) {
    if (!needs_evaluation(s)) continue;
    if (!first_cursor) first_cursor = s.pos;
    for (size_t a = 0; a < s.expr->args.size(); ++a) {
      if (s.expr->args[a]->kind != dsl::ExprKind::Int) write_bound(s, a, evaluator, sources);
    }
    if (!s.over.empty() && !s.over_spec) write_over(s, evaluator);
  }
  // A param only the bounds read stays an extern of the program (its value
  // the param's), as nmbrs hands every param to the program, so that the
  // host may still name it.
  for (const ir::Extern* e : evaluator.externs_read(outputs)) {
    bool declared = false;
    for (const dsl::Stmt& s : ast.statements) {
      declared = declared || (s.kind == dsl::StmtKind::Extern && s.names[0] == e->name);
    }
    if (declared) continue;
    dsl::Stmt extern_stmt =
        dsl::AstBuilder(*first_cursor).statement(dsl::StmtKind::Extern, e->name);
    extern_stmt.type = e->type;
    ast.statements.insert(ast.statements.begin(), std::move(extern_stmt));
  }
}

}  // namespace polyrt
