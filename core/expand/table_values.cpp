#include "expand/table_values.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "syntax/tree_walk.hpp"

namespace polyrt::expand {

// The syntax tree these expansions rewrite.
using namespace polyrt::syntax;

namespace {

// The distributions a LUT descriptor names, with their parameter counts.
struct LutKind {
  const char* node;
  size_t params;
  const char* signature;
};
constexpr LutKind kLutKinds[] = {
    {"dist_normal", 2, "dist_normal(mean, stddev)"},
    {"dist_exponential", 1, "dist_exponential(rate)"},
    {"dist_pareto", 2, "dist_pareto(scale, shape)"},
};
constexpr const char* kLutForms =
    "dist_normal(mean, stddev), dist_exponential(rate) or dist_pareto(scale, shape)";

// A table descriptor: the call that describes it (a LUT's dist_* call or an
// alias_table call) and whether it is an alias table.
struct Table {
  const Expr* descriptor = nullptr;
  bool alias = false;
};

std::optional<Table> descriptor_of(const Expr& e) {
  if (e.kind != ExprKind::Call) return std::nullopt;
  if (e.text == "alias_table") return Table{&e, true};
  for (const LutKind& k : kLutKinds) {
    if (e.text == k.node && e.args.size() == k.params) return Table{&e, false};
  }
  return std::nullopt;
}

class TableResolver {
 public:
  TableResolver(Ast& ast, const Sources& sources) : ast_(ast), sources_(sources) {
    for (size_t i = 0; i < ast.statements.size(); ++i) {
      const Stmt& s = ast.statements[i];
      if (s.kind == StmtKind::Binding && s.names.size() == 1) binding_[s.names[0]] = i;
    }
  }

  void run() {
    find_tables();
    for (Stmt& s : ast_.statements) {
      if (s.kind == StmtKind::Binding && !tables_.count(s.names[0])) rewrite(*s.expr);
    }
    std::vector<Stmt> kept;
    for (Stmt& s : ast_.statements) {
      if (s.kind == StmtKind::Binding && s.names.size() == 1 && tables_.count(s.names[0])) {
        if (!s.hidden && !sampled_.count(s.names[0])) {
          ast_.warnings.push_back(
              Warning{s.name_pos[0], s.names[0].size(),
                      "'" + s.names[0] +
                          "' is a table value and no output; nothing samples it (sample it with " +
                          (tables_.at(s.names[0]).alias ? "alias_sample(h, " : "lut_sample(q, ") +
                          s.names[0] + "))"});
        }
        continue;
      }
      kept.push_back(std::move(s));
    }
    ast_.statements = std::move(kept);
  }

 private:
  // Every binding that is a table: a descriptor, or a name bound to a table
  // (followed through aliases, as module parameters are inlined).
  void find_tables() {
    for (const auto& [name, index] : binding_) {
      if (std::optional<Table> t = table_named(name, 0)) tables_[name] = *t;
    }
  }

  std::optional<Table> table_named(const std::string& name, size_t hops) {
    const auto it = binding_.find(name);
    if (it == binding_.end() || hops > binding_.size()) return std::nullopt;
    const Expr& e = *ast_.statements[it->second].expr;
    if (std::optional<Table> t = descriptor_of(e)) return t;
    if (e.kind == ExprKind::Ident) return table_named(e.text, hops + 1);
    return std::nullopt;
  }

  std::optional<Table> table_in(const Expr& e) {
    if (std::optional<Table> t = descriptor_of(e)) return t;
    if (e.kind != ExprKind::Ident) return std::nullopt;
    const auto it = tables_.find(e.text);
    if (it == tables_.end()) return std::nullopt;
    // The name and every name it is bound to (a module parameter's argument).
    for (std::string name = e.text; tables_.count(name) && sampled_.insert(name).second;) {
      const Expr& bound = *ast_.statements[binding_.at(name)].expr;
      if (bound.kind != ExprKind::Ident) break;
      name = bound.text;
    }
    return it->second;
  }

  // Rewrites the samplings in `root` and refuses any other use of a table.
  void rewrite(Expr& root) {
    walk(root, [&](Expr& e) {
      if (e.kind == ExprKind::Call && (e.text == "lut_sample" || e.text == "alias_sample")) {
        sample(e);
      } else if (e.kind == ExprKind::Ident && tables_.count(e.text)) {
        sources_.fail(
            e.pos, "'" + e.text + "' is a table value, which has no value of its own", e.length,
            std::string("sample it: ") +
                (tables_.at(e.text).alias ? "alias_sample(h, " : "lut_sample(q, ") + e.text + ")");
      }
    });
  }

  // The list literal `e` is, or the one a name it reads is bound to
  // (legacy alias_table(weights) over a binding `weights := [...]`).
  const Expr* array_in(const Expr& e, size_t hops) const {
    if (e.kind == ExprKind::Array) return &e;
    if (e.kind != ExprKind::Ident || hops > binding_.size()) return nullptr;
    const auto it = binding_.find(e.text);
    if (it == binding_.end()) return nullptr;
    return array_in(*ast_.statements[it->second].expr, hops + 1);
  }

  // lut_sample(q, T) -> dist_X(q, params...); alias_sample(h, T) ->
  // alias_sample(h, weights...). An alias_sample of plain weights is
  // polyrt's own node and stays.
  void sample(Expr& call) {
    const bool lut = call.text == "lut_sample";
    const std::optional<Table> table =
        call.args.size() == 2 ? table_in(*call.args[1]) : std::nullopt;
    if (!table) {
      if (!lut) return;
      sources_.fail(call.pos, "lut_sample(q, T) samples a table T: " + std::string(kLutForms),
                    call.length, "e.g. init t = dist_normal(0.0, 1.0) ... lut_sample(u, t)");
    }
    if (table->alias == lut) {
      sources_.fail(call.args[1]->pos,
                    lut ? "lut_sample samples a distribution table, and this is an alias "
                          "table: sample it with alias_sample(h, T)"
                        : "alias_sample samples an alias table, and this is a distribution "
                          "table: sample it with lut_sample(q, T)",
                    call.args[1]->length);
    }
    const Expr& d = *table->descriptor;
    std::vector<ExprPtr> args;
    args.push_back(std::move(call.args[0]));
    const Expr* weights = table->alias && d.args.size() == 1 ? array_in(*d.args[0], 0) : nullptr;
    if (weights) {
      for (const ExprPtr& w : weights->args) args.push_back(clone(*w, w->pos.origin));
    } else {
      for (const ExprPtr& a : d.args) args.push_back(clone(*a, a->pos.origin));
    }
    call.text = lut ? d.text : "alias_sample";
    call.args = std::move(args);
    call.arg_names.assign(call.args.size(), "");
  }

  Ast& ast_;
  const Sources& sources_;
  std::map<std::string, size_t> binding_;  // single-name bindings, by name
  std::map<std::string, Table> tables_;
  std::set<std::string> sampled_;
};

}  // namespace

void resolve_table_values(Ast& ast, const Sources& sources) {
  TableResolver(ast, sources).run();
}

}  // namespace polyrt::expand
