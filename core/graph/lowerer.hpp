// The lowering of a checked syntax tree to the graph (graph/lower.hpp), one
// class over four files by responsibility: names, declarations and literal
// defaults (lower_declarations.cpp), nodes and bindings in dependency order
// (lower_bindings.cpp), expressions, operators, conversions and logical
// types (lower_expressions.cpp), node calls and their arguments
// (lower_calls.cpp). Included by those files only.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "graph/evaluate_node.hpp"
#include "graph/hash_provenance.hpp"
#include "graph/lower.hpp"
#include "polyrt/error.hpp"
#include "polyrt/numeric_types.hpp"
#include "rtlib/splitmix.h"
#include "rtlib/text.hpp"
#include "syntax/lexer.hpp"

namespace polyrt::ir::lowering {

using nodes::ArgKind;
using nodes::NodeDef;
using nodes::PortType;
using syntax::Expr;
using syntax::ExprKind;
using syntax::Stmt;
using syntax::StmtKind;

struct Typed {
  Wire wire;
  Type type;
  // What the word means to a writer (`as timestamp`, ...): kept by a binding
  // of the value, dropped by arithmetic on it.
  LogicalType logical = {};
  // A nullable value: a u64 word, 1 where the row has a value and 0 where it
  // is null (null_if, an `if` with a None branch). A node's result is null
  // where any input is (SQL's propagation); absent: never null.
  std::optional<Wire> present = {};
};

struct BindingInfo {
  const Stmt* stmt = nullptr;
  size_t target = 0;  // index into stmt->names
};

enum class Visit : uint8_t { NotStarted, InProgress, Done };

class Lowerer {
 public:
  Lowerer(const syntax::Sources& src, const syntax::Ast& ast, const CompileOptions& options)
      : src_(src), ast_(ast), strict_inputs_(options.strict_inputs), params_(options.params) {
    if (options.seed) seed_key_ = rt::splitmix64(*options.seed);
  }

  Graph run() {
    g_.nodes.reserve(ast_.tokens + 16);
    declare_all();
    lower_every_binding();
    std::vector<std::pair<size_t, Wire>> nullable;  // output, its presence
    for (const Stmt& s : ast_.statements) {
      if (s.kind != StmtKind::Binding || s.hidden) continue;
      if (s.is_private) {
        g_.private_bindings.insert(g_.private_bindings.end(), s.names.begin(), s.names.end());
        continue;
      }
      for (const std::string& name : s.names) {
        const Typed& t = bound_.at(name);
        g_.outputs.push_back(Output{name, t.wire, t.type, t.logical});
        if (t.present) nullable.emplace_back(g_.outputs.size() - 1, *t.present);
      }
    }
    // Each nullable output's presence word: an output of its own after the
    // program's, which the engines compute like any other.
    for (const auto& [output, present] : nullable) {
      g_.outputs[output].presence = (uint32_t)g_.outputs.size();
      g_.outputs.push_back(
          Output{g_.outputs[output].name + std::string(kPresenceSuffix), present, Type::U64});
      g_.outputs.back().hidden = true;
    }
    for (uint32_t o = 0; o < src_.origin_count(); ++o) {
      const SourcePos start{0, 0, o};
      g_.origins.push_back(SourceOrigin{src_.text_of(start).file(), src_.call_chain(start)});
    }
    return std::move(g_);
  }

 private:
  // ---- declarations -------------------------------------------------------

  void claim_name(const std::string& name, SourcePos pos, bool hidden = false);

  void declare_all();

  // polydat's pragmas. polyrt already holds what they ask for: constant
  // arguments are checked at compile time and a zero divisor of mod_wire or
  // div_wire fails its row (strict_values); wires are statically typed
  // (strict_types); strict adds name checks in comprehensions, which polyrt
  // does not have yet.
  static bool is_known_pragma(const std::string& name);

  void declare_extern(Extern e, SourcePos pos);

  // A param's text as the value of the extern that declares it. A bad one
  // is the caller's error, not the program's: a CompileError without a line.
  Value declared_param(const Extern& e, const std::string& text);

  // A param of a name the program does not declare, typed as nmbrs types a
  // workload's params: an integer literal is a u64, another number an f64,
  // true or false a bool, anything else a str.
  static Value undeclared_param(const std::string& text);

  void declare_coordinate(const std::string& name, SourcePos pos);

  // polydat's inferred inputs: a name the program reads but neither declares
  // nor binds is a coordinate the host supplies, after the declared ones, in
  // the order of first use. A likely misspelling of a declared or bound name
  // (syntax::typo_of) stays unknown: lookup reports it with "did you mean".
  void infer_inputs();

  // An extern's default that is no literal of its type: an expression of
  // literals (constant_default), else a CompileError.
  Value non_literal_default(const Expr& e, Type type);

  Value literal_default(const Expr& e, Type type);

  // An extern's default written as an expression of literals and pure nodes
  // (`2 * 1024`, `"user-" + "x"`, `hash(42)`): lowered and evaluated here,
  // once. It reads no coordinate, extern or binding (a default is the
  // host's value before it writes one).
  Value constant_default(const Expr& e, Type type);

  // The starting value of a `shared` cell annotated with a number type other
  // than u64, when it is a number literal: a constant of that type.
  std::optional<Value> shared_literal(const Stmt& s);

  static bool is_negative_literal(const Expr& e);

  // A number literal (or a negated one) as a value of the narrow, signed or
  // f32 type `type`; nullopt when `e` is no number literal. An integer
  // outside the type's range is a compile error; a float literal for an
  // integer type too.
  std::optional<Value> numeric_literal(const Expr& e, Type type);

  static bool is_number(const Expr& e);
  static double number_of(const Expr& e);

  double exact_f64(const Expr& e);

  // ---- nodes --------------------------------------------------------------

  uint32_t add_node(Node n);

  std::string anon_name();

  Typed constant(Value v, SourcePos pos);

  // Adds a call node whose arguments are already lowered and type-checked; a
  // table pick becomes its native index node and the pick of that entry
  // (nodes::TablePick), both labelled with the called node's name.
  std::vector<Typed> call_node(const NodeDef& def, std::vector<Typed> inputs,
                               std::vector<Value> params, SourcePos pos, size_t length,
                               const std::vector<SourcePos>& param_pos = {});

  // A node that picks by its input's value, fed a coordinate that no hash
  // mixed: rows step through its table in turn (weighted_strings(cycle,
  // "a:70;b:30") gives a and b half the rows each, not 70 % and 30 %).
  void warn_if_unhashed(const NodeDef& def, Wire input, SourcePos pos, size_t length);

  // 1 where both are present (either may be always present).
  std::optional<Wire> both_present(std::optional<Wire> a, std::optional<Wire> b, SourcePos pos,
                                   size_t length);

  // call_node without the presence of its results.
  std::vector<Typed> call_node_values(const NodeDef& def, std::vector<Typed> inputs,
                                      std::vector<Value> params, SourcePos pos, size_t length,
                                      const std::vector<SourcePos>& param_pos);

  // A call node of `def`, its constant arguments checked and prepared (a bad
  // one is a CompileError at its position) and its output types decided.
  Node checked_call(const NodeDef& def, const std::vector<Typed>& inputs, std::vector<Value> params,
                    SourcePos pos, size_t length, const std::vector<SourcePos>& param_pos = {});

  std::vector<Typed> add_call(Node n);

  Typed call1(const NodeDef& def, std::vector<Typed> inputs, const Expr& at);
  Typed call1(std::string_view name, std::vector<Typed> inputs, const Expr& at);

  // ---- bindings -----------------------------------------------------------

  // The bindings a statement's expression names, in the order lowering meets them.
  std::vector<const Stmt*> referenced_bindings(const Stmt& s) const;

  // Every binding's own error, not only the first: a binding that fails is
  // reported and those that read it are skipped (their errors would only
  // repeat it); the program then fails with all of them, in order.
  void lower_every_binding();

  // Bindings in an order where each comes after the bindings it reads (source
  // order otherwise). An explicit stack, not recursion: a forward chain may be
  // as long as the program.
  std::vector<const Stmt*> dependency_order();

  // Lowers one binding; every binding it reads is already lowered.
  void lower_binding(const Stmt& s);

  // A module's parameter or output as the type its signature declares: the
  // value itself, or its implicit widening (a bool passes for a u64, as
  // everywhere).
  Typed declared_value(const Stmt& s, const Stmt::Declared& d, const Typed& v);

  // How to reach integer type `want` from `got` explicitly, when it is one.
  static std::string narrowing_hint(Type got, Type want);

  std::string array_text(const Expr& e);

  // ---- expressions --------------------------------------------------------

  Typed lookup(const Expr& e);

  Typed lower_expr(const Expr& e);

  // A numeric operand as f64; an integer literal becomes an f64 constant.
  Typed to_f64(const Typed& t, const Expr& e);

  Typed to_str(const Typed& t, const Expr& e);

  // `v` as type `to`: what `as` converts (`is_cast`), or what the checker
  // converts silently (only the widenings that never fail: widens_implicitly).
  Typed convert(const Typed& v, Type to, const Expr& e, bool is_cast);

  Typed retag(const Typed& v, Type to, const Expr& e);

  // An unsigned integer (or bool) operand of u64 operators.
  Typed require_u64(const Typed& t, const Expr& e, const std::string& what);

  Typed truth(const Typed& t, const Expr& e);

  // The type two numeric operands meet in: f64 when either is a float, u64
  // when both are unsigned (or bool), i64 when one is signed and both widen
  // to i64; nullopt for a signed integer and a u64 (no type holds both).
  static std::optional<Type> common_numeric(Type a, Type b);

  // An integer literal operand beside a signed one is an i64 constant.
  Typed signed_operand(const Typed& t, const Expr& e, Type other);

  // The common type of the operands of `op` (see common_numeric), or a
  // compile error naming both.
  Type meet(const Expr& op, Type a, Type b);

  static bool is_left_associative(const Expr& e);

  // A left-associative chain (a + b - c ...) is a deep left spine: walk it in
  // a loop so that its length never costs stack (only rhs operands recurse).
  Typed lower_binary(const Expr& e);

  // One binary operator over lowered operands.
  Typed combine(const Expr& e, Typed a, Typed b);

  Typed lower_unary(const Expr& e);

  Typed lower_cast(const Expr& e);

  // ---- logical types (polyrt/logical_type.hpp) ----------------------------

  // A conversion node of `as <label>` (what its failures name).
  Typed call_with(const NodeDef& def, const Typed& v, std::vector<uint64_t> params,
                  const std::string& label, const Expr& e);

  [[noreturn]] void refuse_logical(const Expr& e, const std::string& from, LogicalType to,
                                   const std::string& hint);

  // `v as <logical type>`.
  Typed to_logical(Typed v, LogicalType to, const Expr& e);

  // `v as timestamp`, `as timestamp_us` or `as date`, the word in its units.
  Typed to_time(const Typed& v, LogicalType from, const std::string& from_name, LogicalType to,
                const Expr& e);

  // `v as <type>` for a logical value: its text, a decimal's value (a float,
  // or rounded half to even for an integer), or a time's number.
  Typed from_logical(Typed v, Type to, const Expr& e);

  // An `if`'s condition: an integer or bool, nonzero selecting the first
  // branch (a signed one compared with 0).
  Typed condition(const Expr& cond, const char* what);

  // `None` as a branch of an if: a null, unless the program binds the name.
  bool is_null_literal(const Expr& e) const;

  // 1 where `c` is nonzero (`nonzero`) or zero (!nonzero), never null.
  Wire test_of(Typed c, bool nonzero, const Expr& e);

  // `value` where `keep` is 1, null elsewhere (and where value or the
  // condition is null).
  Typed null_unless(Typed value, Wire keep, const Typed& c, const Expr& e);

  Typed lower_if(const Expr& e);

  // `if c { a } else { b }` of lowered values: the value of the branch taken,
  // null where that branch is (or c is).
  Typed choose(Typed c, Typed a, Typed b, const Expr& e, const Expr& ea, const Expr& eb);

  // The selection of values `a` and `b` (written as `ea` and `eb`).
  Typed select_value(const Typed& c, Typed a, Typed b, const Expr& e, const Expr& ea,
                     const Expr& eb);

  // ---- calls --------------------------------------------------------------

  Value const_argument(const Expr& a, const nodes::ArgSpec& spec, const NodeDef& def);
  // The error for an expression where a constant argument must be a literal.
  [[noreturn]] void refuse_non_literal(const Expr& a, const std::string& where, const NodeDef& def);

  // The hidden binding of a module parameter that `a` names, if it does.
  const Stmt* module_parameter(const Expr& a) const;

  Typed wire_argument(const Expr& a, const nodes::ArgSpec& spec, const NodeDef& def);

  // The type a port converts its widenings to, for the ports that need a
  // conversion node for them.
  static std::optional<Type> converting_port_type(PortType port);
  // The node that reads a text as a vector of a port's type, or "".
  static std::string text_to_vector_node(PortType port);

  // null_if(cond, value) and null_with_probability(input, p, value).
  Typed lower_null(const Expr& e);

  // default_or(value, fallback) and this_or of a nullable value (its
  // arguments lowered): the value where it is present, else the fallback.
  // Of any other value they are None-aware nodes, as before (an unset extern).
  // Both take two wire arguments, `args` the expressions they were given.
  std::optional<Typed> default_of_nullable(const NodeDef& def, const std::vector<Typed>& inputs,
                                           const std::vector<const Expr*>& args, const Expr& e);

  // The call's argument for each of the node's arguments (null: not given),
  // named arguments by name, the others in order; the ones past a variadic
  // argument into `rest`. CompileError for an unknown or repeated name, a
  // named variadic argument, or too many arguments.
  std::vector<const Expr*> match_arguments(const Expr& e, const NodeDef& def,
                                           std::vector<const Expr*>& rest);

  // The index of the node's argument that call argument i names (by its
  // name or polydat's other name); CompileError for none or a variadic one.
  size_t named_argument(const Expr& e, const NodeDef& def, size_t i);

  std::vector<Typed> lower_call(const Expr& e);

  const syntax::Sources& src_;
  const syntax::Ast& ast_;
  // splitmix64(seed), XORed into every keyed_by_seed node's hashed input.
  std::optional<uint64_t> seed_key_;
  const bool strict_inputs_;
  const std::map<std::string, std::string>& params_;
  Graph g_;
  HashProvenance provenance_{g_};
  std::unordered_map<std::string, SourcePos> declared_at_;
  std::vector<std::string> known_names_;
  std::unordered_map<std::string, BindingInfo> bindings_;
  std::unordered_map<std::string, Typed> bound_;
  std::string binding_name_;
  uint32_t anon_counter_ = 0;
};

}  // namespace polyrt::ir::lowering
