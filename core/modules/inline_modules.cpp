#include "modules/inline_modules.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "nodes/registry.hpp"
#include "polyrt/error.hpp"
#include "syntax/tree_walk.hpp"

namespace polyrt::modules {

namespace {

using syntax::Expr;
using syntax::ExprKind;
using syntax::ExprPtr;
using syntax::Param;
using syntax::Stmt;
using syntax::StmtKind;

bool is_number(const Expr& e) {
  return e.kind == ExprKind::Int || e.kind == ExprKind::Float;
}

bool is_literal(const Expr& e) {
  return is_number(e) || e.kind == ExprKind::Str ||
         (e.kind == ExprKind::Unary && e.text == "-" && is_number(*e.args[0]));
}

ExprPtr identifier(const std::string& name, SourcePos pos, size_t length) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::Ident;
  e->text = name;
  e->pos = pos;
  e->length = length;
  return e;
}

// `a as type`, positioned at `a`.
ExprPtr cast_to(ExprPtr a, Type type) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::Cast;
  e->pos = a->pos;
  e->length = a->length;
  e->depth = a->depth + 1;
  e->cast_type = type;
  e->args.push_back(std::move(a));
  return e;
}

std::string signature(const ModuleDef& m) {
  auto list = [](const std::vector<Param>& ps) {
    std::string out = "(";
    for (size_t i = 0; i < ps.size(); ++i) {
      out += (i ? ", " : "") + ps[i].name;
      if (ps[i].type) out += ": " + std::string(type_name(*ps[i].type));
    }
    return out + ")";
  };
  return m.name + list(m.params) + " -> " + list(m.outputs);
}

// What a parameter stands for in the inlined body.
struct Substitute {
  ExprPtr literal;     // a literal argument, copied to each use
  std::string hidden;  // else the hidden binding holding the argument
};

class Inliner {
 public:
  Inliner(Sources& sources, ModuleLibrary& library) : sources_(sources), library_(library) {}

  // `program` lives until the inlining is done: local_ points into its modules.
  syntax::Ast run(syntax::Ast program) {
    for (const ModuleDef& m : program.modules) {
      auto [it, fresh] = local_.emplace(m.name, FoundModule{&m, &sources_.text_of(SourcePos{})});
      if (!fresh) {
        sources_.fail(m.pos, "module '" + m.name + "' is already defined", m.name.size(),
                      "first defined at " + sources_.location(it->second.def->pos));
      }
    }
    for (const Stmt& s : program.statements) {
      if (s.kind != StmtKind::Input) program_names_.insert(s.names.begin(), s.names.end());
    }
    for (const ModuleDef& m : program.modules) check_definition(m);
    syntax::Ast out;
    out.warnings = std::move(program.warnings);
    out.tokens = program.tokens;
    for (Stmt& s : program.statements) {
      if (s.kind == StmtKind::Binding) {
        expand_or_defer(std::move(s), out.statements);
      } else {
        out.statements.push_back(std::move(s));
      }
    }
    return out;
  }

  // A top-level binding expanded, or, when that fails, kept as a stand-in
  // that carries the error (Stmt::deferred_error) with nothing half-inlined
  // left behind.
  void expand_or_defer(Stmt s, std::vector<Stmt>& out) {
    Stmt stand_in;
    stand_in.kind = StmtKind::Binding;
    stand_in.pos = s.pos;
    stand_in.names = s.names;
    stand_in.name_pos = s.name_pos;
    stand_in.is_private = s.is_private;
    stand_in.expr = std::make_unique<Expr>();
    stand_in.expr->kind = ExprKind::Int;
    stand_in.expr->pos = s.pos;
    const size_t kept = out.size();
    try {
      expand_statement(std::move(s), out);
    } catch (const CompileError& e) {
      out.erase(out.begin() + (std::ptrdiff_t)kept, out.end());
      stand_in.deferred_error = std::make_shared<const CompileError>(e);
      out.push_back(std::move(stand_in));
    }
  }

 private:
  // The module a call names, if it names one: the program's own modules
  // first (they shadow nodes), then nodes, then the library.
  std::optional<FoundModule> resolve(const Expr& call) {
    if (auto local = local_.find(call.text); local != local_.end()) return local->second;
    if (syntax::is_intrinsic(call.text) || nodes::find_node(call.text) ||
        syntax::is_table_form(call.text)) {
      return std::nullopt;
    }
    if (auto found = library_.find(call.text, call.pos)) return found;
    refuse_unknown(call);
  }

  // What can be checked of a definition the program may never call: every
  // function its body calls exists, and every declared output is bound.
  // (Its types are checked at each call, where its arguments are known.)
  void check_definition(const ModuleDef& m) {
    std::set<std::string> bound;
    for (const Stmt& s : m.body) {
      if (s.kind != StmtKind::Binding) continue;
      bound.insert(s.names.begin(), s.names.end());
      walk(*s.expr, [&](const Expr& e) {
        if (e.kind == ExprKind::Call) resolve(e);
      });
    }
    require_bound_outputs(m, bound, 0);
  }

  // Every output the signature declares is bound by the body; positions in
  // `origin` (the definition's text as it is read there).
  void require_bound_outputs(const ModuleDef& m, const std::set<std::string>& bound,
                             uint32_t origin) {
    for (const Param& o : m.outputs) {
      if (bound.count(o.name)) continue;
      SourcePos at = o.pos;
      at.origin = origin;
      sources_.fail(
          at,
          "module '" + m.name + "' declares output '" + o.name + "' but its body does not bind it",
          o.name.size());
    }
  }

  [[noreturn]] void refuse_unknown(const Expr& call) {
    std::vector<std::string> names;
    for (const nodes::NodeDef* d : nodes::all_nodes()) names.emplace_back(d->name);
    for (const auto& [name, m] : local_) names.push_back(name);
    for (const std::string& name : library_.standard_module_names()) names.push_back(name);
    const std::string near = syntax::closest_name(call.text, names);
    const std::string hint = near.empty() ? "see docs/nodes.md for the nodes and "
                                            "docs/language.md for modules and where they are "
                                            "looked up; a node the host registers needs its "
                                            "plugin (--plugin LIB; polyrt::load_plugin in "
                                            "C++) or its register_node call first"
                                          : "did you mean '" + near + "'?";
    std::string message =
        sources_.format(call.pos, "unknown function '" + call.text + "'", call.length, hint);
    const std::vector<std::string>& skipped = library_.skipped_files();
    constexpr size_t kListed = 5;
    if (!skipped.empty()) message += "\n  files on the module path that could not be used:";
    for (size_t i = 0; i < skipped.size() && i < kListed; ++i)
      message += "\n    " + syntax::printable(skipped[i]);
    if (skipped.size() > kListed) {
      message += "\n    and " + std::to_string(skipped.size() - kListed) + " more";
    }
    throw CompileError(message, sources_.text_of(call.pos).file(), call.pos.line, call.pos.col);
  }

  void expand_statement(Stmt s, std::vector<Stmt>& out) {
    if (s.names.size() > 1 && s.expr->kind == ExprKind::Call) {
      if (std::optional<FoundModule> m = resolve(*s.expr)) {
        expand_calls_in_arguments(*s.expr, out);
        const std::vector<std::string> outputs = inline_call(*s.expr, *m, out);
        if (s.names.size() > outputs.size()) {
          sources_.fail(s.name_pos[outputs.size()],
                        "module '" + m->def->name + "' has " + std::to_string(outputs.size()) +
                            " output(s) but " + std::to_string(s.names.size()) + " names are bound",
                        s.names[outputs.size()].size(), "signature: " + signature(*m->def));
        }
        for (size_t i = 0; i < s.names.size(); ++i) {
          Stmt b;
          b.kind = StmtKind::Binding;
          b.pos = s.name_pos[i];
          b.names = {s.names[i]};
          b.name_pos = {s.name_pos[i]};
          b.expr = identifier(outputs[i], s.expr->pos, s.expr->length);
          b.is_const = s.is_const;
          b.is_volatile = s.is_volatile;
          b.is_shared = s.is_shared;
          b.is_private = s.is_private;
          b.hidden = s.hidden;
          for (const Stmt::Declared& d : s.declared) {
            if (d.target == i) b.declared.push_back(Stmt::Declared{0, d.type, d.role});
          }
          emit(std::move(b), out);
        }
        return;
      }
    }
    expand_calls(s.expr, out);
    emit(std::move(s), out);
  }

  // Every call in `root` that names a module, innermost first, replaced by
  // the hidden binding of its output.
  void expand_calls(ExprPtr& root, std::vector<Stmt>& out) {
    std::vector<ExprPtr*> preorder;
    walk_slots(root, [&](ExprPtr& e) {
      preorder.push_back(&e);
      return true;
    });
    for (auto it = preorder.rbegin(); it != preorder.rend(); ++it) {
      ExprPtr& slot = **it;
      if (slot->kind != ExprKind::Call) continue;
      std::optional<FoundModule> m = resolve(*slot);
      if (!m) continue;
      const std::vector<std::string> outputs = inline_call(*slot, *m, out);
      if (outputs.size() != 1) {
        sources_.fail(slot->pos,
                      "module '" + m->def->name + "' has " + std::to_string(outputs.size()) +
                          " outputs; bind them with (a, b, ...) := " + m->def->name + "(...)",
                      slot->length, "signature: " + signature(*m->def));
      }
      slot = identifier(outputs[0], slot->pos, slot->length);
    }
  }

  void expand_calls_in_arguments(Expr& call, std::vector<Stmt>& out) {
    for (ExprPtr& a : call.args) expand_calls(a, out);
  }

  // The arguments of `call` in the order of the module's parameters.
  std::vector<ExprPtr> match_arguments(Expr& call, const ModuleDef& m) {
    std::vector<ExprPtr> given(m.params.size());
    size_t next = 0;
    for (size_t i = 0; i < call.args.size(); ++i) {
      ExprPtr& a = call.args[i];
      size_t k = 0;
      if (!call.arg_names[i].empty()) {
        while (k < m.params.size() && m.params[k].name != call.arg_names[i]) ++k;
        if (k == m.params.size()) {
          std::vector<std::string> names;
          for (const Param& p : m.params) names.push_back(p.name);
          const std::string near = syntax::closest_name(call.arg_names[i], names);
          sources_.fail(
              a->pos, "module '" + m.name + "' has no parameter named '" + call.arg_names[i] + "'",
              a->length,
              near.empty() ? "signature: " + signature(m) : "did you mean '" + near + "'?");
        }
      } else {
        while (next < m.params.size() && given[next]) ++next;
        if (next == m.params.size()) {
          sources_.fail(a->pos,
                        "too many arguments to module '" + m.name + "' (it takes " +
                            std::to_string(m.params.size()) + ")",
                        a->length, "signature: " + signature(m));
        }
        k = next;
      }
      if (given[k]) {
        sources_.fail(a->pos, "parameter '" + m.params[k].name + "' is given twice", a->length);
      }
      given[k] = std::move(a);
    }
    for (size_t k = 0; k < m.params.size(); ++k) {
      if (!given[k]) {
        sources_.fail(call.pos,
                      "missing argument '" + m.params[k].name + "' of module '" + m.name + "'",
                      call.length, "signature: " + signature(m));
      }
    }
    return given;
  }

  // A literal argument as the parameter's declared type holds it: an integer
  // for an f64 parameter becomes the float of the same (exact) value.
  ExprPtr literal_argument(ExprPtr a, const Param& p, const ModuleDef& m) {
    if (!p.type) return a;
    const std::string what = "parameter '" + p.name + "' of module '" + m.name + "' is declared " +
                             std::string(type_name(*p.type));
    const bool text = a->kind == ExprKind::Str;
    switch (*p.type) {
      case Type::U64:
        if (a->kind == ExprKind::Int) return a;
        sources_.fail(a->pos, what + "; pass a non-negative integer", a->length,
                      "signature: " + signature(m));
      case Type::F64:
        if (text) sources_.fail(a->pos, what + "; pass a number", a->length);
        if (a->kind == ExprKind::Int) {
          const double d = (double)a->u;
          if (d >= 18446744073709551616.0 || (uint64_t)d != a->u) {
            sources_.fail(
                a->pos,
                "integer " + std::to_string(a->u) + " has no exact f64 value (" + what + ")",
                a->length, "write it as a float literal to accept rounding");
          }
          a->kind = ExprKind::Float;
          a->f = d;
        }
        return a;
      case Type::Str:
        if (text) return a;
        sources_.fail(a->pos, what + "; pass a string literal", a->length);
      case Type::Bool:
        sources_.fail(a->pos, what + "; pass a comparison or a bool value, not a literal",
                      a->length);
      case Type::Bytes:
      case Type::Json:
      case Type::Partition:
      case Type::PartitionList:
        return a;  // its type is checked where the parameter is bound
      default:
        // The other numeric types: the literal as that type (`as` checks
        // that it fits).
        if (text) sources_.fail(a->pos, what + "; pass a number", a->length);
        return cast_to(std::move(a), *p.type);
    }
  }

  std::vector<std::string> inline_call(Expr& call, const FoundModule& found,
                                       std::vector<Stmt>& out) {
    const ModuleDef& m = *found.def;
    if (std::find(active_.begin(), active_.end(), &m) != active_.end()) {
      std::string chain;
      for (const ModuleDef* a : active_) chain += a->name + " -> ";
      sources_.fail(call.pos, "module '" + m.name + "' calls itself: " + chain + m.name,
                    call.length, "modules are inlined at compile time, so they cannot recurse");
    }
    if (active_.size() >= kMaxModuleDepth) {
      sources_.fail(call.pos,
                    "module calls nest more than " + std::to_string(kMaxModuleDepth) +
                        " deep (calling '" + m.name + "')",
                    call.length, "flatten the chain of modules");
    }
    const uint32_t origin = sources_.add_module_call(*found.text, m.name, m.pos, call.pos);
    const std::string prefix = m.name + "#" + std::to_string(++calls_) + ".";

    std::vector<ExprPtr> given = match_arguments(call, m);
    std::map<std::string, Substitute> substitutes;
    for (size_t k = 0; k < m.params.size(); ++k) {
      const Param& p = m.params[k];
      Substitute& sub = substitutes[p.name];
      if (is_literal(*given[k])) {
        sub.literal = literal_argument(std::move(given[k]), p, m);
        continue;
      }
      sub.hidden = prefix + p.name;
      Stmt b;
      b.kind = StmtKind::Binding;
      b.pos = given[k]->pos;
      b.names = {sub.hidden};
      b.name_pos = {given[k]->pos};
      b.hidden = true;
      const std::string role = "parameter '" + p.name + "' of module '" + m.name + "'";
      if (p.type) b.declared.push_back(Stmt::Declared{0, *p.type, role});
      b.role = role;
      b.expr = std::move(given[k]);
      emit(std::move(b), out);
    }

    std::set<std::string> body_names;
    for (const Stmt& s : m.body) {
      if (s.kind == StmtKind::Binding) body_names.insert(s.names.begin(), s.names.end());
    }
    std::map<std::string, const Param*> outputs;
    for (const Param& o : m.outputs) outputs[o.name] = &o;

    active_.push_back(&m);
    for (const Stmt& s : m.body)
      inline_statement(s, m, origin, prefix, substitutes, body_names, outputs, out);
    active_.pop_back();

    require_bound_outputs(m, body_names, origin);
    std::vector<std::string> names;
    for (const Param& o : m.outputs) names.push_back(prefix + o.name);
    return names;
  }

  void inline_statement(const Stmt& s, const ModuleDef& m, uint32_t origin,
                        const std::string& prefix, std::map<std::string, Substitute>& substitutes,
                        const std::set<std::string>& body_names,
                        const std::map<std::string, const Param*>& outputs,
                        std::vector<Stmt>& out) {
    auto at = [origin](SourcePos p) {
      p.origin = origin;
      return p;
    };
    switch (s.kind) {
      case StmtKind::Input:
        for (size_t i = 0; i < s.names.size(); ++i) {
          if (!substitutes.count(s.names[i])) {
            sources_.fail(at(s.name_pos[i]),
                          "module '" + m.name + "' declares input '" + s.names[i] +
                              "', which is not one of its parameters",
                          s.names[i].size(),
                          "a module's inputs are its parameters: add '" + s.names[i] +
                              ": u64' to its signature");
          }
        }
        return;
      case StmtKind::Extern:
        sources_.fail(at(s.name_pos[0]), "a module body cannot declare an extern",
                      s.names[0].size(), "pass the value as a parameter of the module");
      case StmtKind::Pragma: {
        Stmt p;
        p.kind = StmtKind::Pragma;
        p.pos = at(s.pos);
        p.names = s.names;
        p.name_pos = {at(s.name_pos[0])};
        out.push_back(std::move(p));
        return;
      }
      case StmtKind::Binding:
        break;
      case StmtKind::Cursor:
      case StmtKind::Traversal:
        sources_.fail(at(s.pos), "a module body cannot declare a cursor or a traversal", 3,
                      "declare it in the program");
    }
    Stmt b;
    b.kind = StmtKind::Binding;
    b.pos = at(s.pos);
    b.hidden = true;
    b.is_const = s.is_const;
    b.is_volatile = s.is_volatile;
    b.is_shared = s.is_shared;
    b.type = s.type;
    for (size_t i = 0; i < s.names.size(); ++i) {
      const std::string& name = s.names[i];
      if (substitutes.count(name)) {
        sources_.fail(
            at(s.name_pos[i]),
            "'" + name + "' is a parameter of module '" + m.name + "'; its body cannot bind it",
            name.size());
      }
      b.names.push_back(prefix + name);
      b.name_pos.push_back(at(s.name_pos[i]));
      auto o = outputs.find(name);
      if (o != outputs.end() && o->second->type) {
        b.declared.push_back(Stmt::Declared{i, *o->second->type,
                                            "output '" + name + "' of module '" + m.name + "'"});
      }
    }
    b.expr = syntax::clone(*s.expr, origin);
    rename(b.expr, m, prefix, substitutes, body_names);
    expand_statement(std::move(b), out);
  }

  // Names the body reads, made the call's own: a parameter becomes its
  // literal or hidden binding, a body binding gets the call's prefix. Any
  // other name is a coordinate of the program (declared, or inferred as
  // polydat's non-strict modules do), unless it names a binding or extern
  // of the program (which a module cannot reach) or is a near miss of the
  // module's own names (a typo).
  void rename(ExprPtr& root, const ModuleDef& m, const std::string& prefix,
              std::map<std::string, Substitute>& substitutes,
              const std::set<std::string>& body_names) {
    walk_slots(root, [&](ExprPtr& e) {
      if (e->kind != ExprKind::Ident) return true;
      if (auto sub = substitutes.find(e->text); sub != substitutes.end()) {
        if (sub->second.literal) {
          e = syntax::clone(*sub->second.literal, sub->second.literal->pos.origin);
        } else {
          e->text = sub->second.hidden;
        }
      } else if (body_names.count(e->text)) {
        e->text = prefix + e->text;
      } else if (program_names_.count(e->text)) {
        sources_.fail(
            e->pos,
            "module '" + m.name + "' reads '" + e->text + "', a binding or extern of the program",
            e->length,
            "a module reads its parameters, its own bindings and the program's "
            "coordinates; pass it as a parameter");
      } else {
        std::vector<std::string> names(body_names.begin(), body_names.end());
        for (const Param& p : m.params) names.push_back(p.name);
        const std::string near = syntax::typo_of(e->text, names);
        if (!near.empty()) {
          sources_.fail(e->pos, "unknown name '" + e->text + "' in module '" + m.name + "'",
                        e->length, "did you mean '" + near + "'?");
        }
      }
      return false;  // a substitute is the caller's expression, renamed already
    });
  }

  void emit(Stmt s, std::vector<Stmt>& out) {
    if (++inlined_ > kMaxInlinedStatements) {
      sources_.fail(
          s.pos,
          "module inlining made more than " + std::to_string(kMaxInlinedStatements) + " statements",
          1,
          "a module is called from too many places, or modules call modules many "
          "times over; call it once and share the result");
    }
    out.push_back(std::move(s));
  }

  Sources& sources_;
  ModuleLibrary& library_;
  std::map<std::string, FoundModule> local_;
  std::set<std::string> program_names_;  // bindings and externs
  std::vector<const ModuleDef*> active_;
  size_t calls_ = 0;
  size_t inlined_ = 0;
};

}  // namespace

syntax::Ast inline_modules(syntax::Ast program, Sources& sources, ModuleLibrary& library) {
  return Inliner(sources, library).run(std::move(program));
}

}  // namespace polyrt::modules
