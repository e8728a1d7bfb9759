#include "syntax/tree_text.hpp"

#include <cmath>

#include "rtlib/shortest_double.hpp"
#include "syntax/source.hpp"

namespace polyrt::syntax {

namespace {

std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out.push_back('\\');
    if (c == '{' || c == '}') out.push_back(c);  // a literal brace is doubled
    out.push_back(c);
  }
  return printable(out + "\"");
}

// Debug's shortest text, which reads back to the same double ("0.15", not
// "0.14999999999999999"); an integral value keeps its ".0" (a float literal).
std::string float_text(double f) {
  char buffer[64];
  std::string text(buffer, rt::write_f64_debug(buffer, f));
  if (std::isfinite(f) && text.find_first_of(".eE") == std::string::npos) text += ".0";
  return text;
}

// An expression, every operation parenthesized (the tree's shape, not the
// source's spelling). An explicit stack would not help the reader; the
// parser bounds the depth of what it builds (Expr::depth), and a left
// spine is written in a loop.
void write(const Expr& e, std::string& out) {
  switch (e.kind) {
    case ExprKind::Int:
      out += std::to_string(e.u);
      return;
    case ExprKind::Float:
      out += float_text(e.f);
      return;
    case ExprKind::Str:
      out += quoted(e.text);
      return;
    case ExprKind::Ident:
      out += e.text;
      return;
    case ExprKind::Array:
    case ExprKind::Call:
    case ExprKind::If: {
      out += e.kind == ExprKind::Array ? "[" : (e.kind == ExprKind::If ? "if" : e.text) + "(";
      for (size_t i = 0; i < e.args.size(); ++i) {
        if (i) out += ", ";
        if (i < e.arg_names.size() && !e.arg_names[i].empty()) out += e.arg_names[i] + ": ";
        write(*e.args[i], out);
      }
      out += e.kind == ExprKind::Array ? "]" : ")";
      return;
    }
    case ExprKind::Unary:
      out += "(" + e.text;
      write(*e.args[0], out);
      out += ")";
      return;
    case ExprKind::Cast:
      out += "(";
      write(*e.args[0], out);
      out += " as " +
             (e.cast_logical.is_none() ? std::string(type_name(e.cast_type))
                                       : logical_type_name(e.cast_logical)) +
             ")";
      return;
    case ExprKind::Binary: {
      // The left spine of a chain (a + b + c ...) in a loop: it may be as
      // long as the file.
      std::vector<const Expr*> spine{&e};
      while (spine.back()->args[0]->kind == ExprKind::Binary)
        spine.push_back(spine.back()->args[0].get());
      out.append(spine.size(), '(');
      write(*spine.back()->args[0], out);
      for (auto it = spine.rbegin(); it != spine.rend(); ++it) {
        out += " " + (*it)->text + " ";
        write(*(*it)->args[1], out);
        out += ")";
      }
      return;
    }
  }
}

std::string names_of(const Stmt& s) {
  if (s.names.size() == 1) return s.names[0];
  std::string out = "(";
  for (size_t i = 0; i < s.names.size(); ++i) out += (i ? ", " : "") + s.names[i];
  return out + ")";
}

void write(const Stmt& s, const std::string& indent, std::string& out);

void write_body(const std::vector<Stmt>& body, const std::string& indent, std::string& out) {
  for (const Stmt& s : body) write(s, indent + "  ", out);
}

void write(const Stmt& s, const std::string& indent, std::string& out) {
  out += indent;
  switch (s.kind) {
    case StmtKind::Input:
      out += "input " + names_of(s);
      break;
    case StmtKind::Extern:
      out += "extern " + s.names[0];
      if (s.type) out += ": " + std::string(type_name(*s.type));
      if (s.expr) {
        out += " = ";
        write(*s.expr, out);
      }
      break;
    case StmtKind::Pragma:
      out += "pragma " + names_of(s);
      break;
    case StmtKind::Cursor:
      out += "cursor " + s.names[0] + " = ";
      write(*s.expr, out);
      if (!s.over.empty()) out += " over " + (s.over_spec ? quoted(s.over) : s.over);
      break;
    case StmtKind::Traversal:
      out += "for " + s.comprehension.canonical + " {\n";
      write_body(s.body, indent, out);
      out += indent + "}";
      break;
    case StmtKind::Binding:
      if (s.is_private) out += "private ";
      if (s.is_shared) out += "shared ";
      if (s.is_const) out += "const ";
      if (s.is_volatile) out += "volatile ";
      out += names_of(s);
      if (s.type) out += ": " + std::string(type_name(*s.type));
      out += " := ";
      if (s.is_producer) {
        out += "for " + s.comprehension.canonical;
      } else if (s.expr) {
        write(*s.expr, out);
      }
      if (s.hidden) out += "  // hidden" + (s.role.empty() ? "" : ": " + s.role);
      if (s.deferred_error) out += "  // stands in for an error";
      break;
  }
  out += "\n";
}

std::string signature_part(const std::vector<Param>& params) {
  std::string out = "(";
  for (size_t i = 0; i < params.size(); ++i) {
    out += (i ? ", " : "") + params[i].name;
    if (params[i].type) out += ": " + std::string(type_name(*params[i].type));
  }
  return out + ")";
}

}  // namespace

std::string tree_text(const Expr& e) {
  std::string out;
  write(e, out);
  return out;
}

std::string tree_text(const Ast& ast) {
  std::string out;
  for (const ModuleDef& m : ast.modules) {
    out += m.name + signature_part(m.params) + " -> " + signature_part(m.outputs) + " := {\n";
    write_body(m.body, "", out);
    out += "}\n";
  }
  for (const Stmt& s : ast.statements) write(s, "", out);
  return out;
}

}  // namespace polyrt::syntax
