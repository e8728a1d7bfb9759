#include "program/top_level_cursors.hpp"

#include "dsl/ast_builder.hpp"
#include "polyrt/error.hpp"
#include "program/body_cursors.hpp"
#include "program/call_source.hpp"

namespace polyrt {

namespace {

// What the host chose for cursor `name`: its own entry, else the one for
// every cursor (key "").
std::optional<uint64_t> choice_for(const std::map<std::string, uint64_t>& choices,
                                   const std::string& name) {
  if (auto it = choices.find(name); it != choices.end()) return it->second;
  if (auto it = choices.find(""); it != choices.end()) return it->second;
  return std::nullopt;
}

// The coordinate a top-level cursor walks: the program's first declared
// input, else `cycle` (inferred like any name the program reads).
std::string walked_input(const dsl::Ast& ast) {
  for (const dsl::Stmt& s : ast.statements) {
    if (s.kind == dsl::StmtKind::Input) return s.names[0];
  }
  return "cycle";
}

std::vector<dsl::ExprPtr> args_of(dsl::ExprPtr a, dsl::ExprPtr b) {
  std::vector<dsl::ExprPtr> args;
  args.push_back(std::move(a));
  args.push_back(std::move(b));
  return args;
}

class CursorLowering {
 public:
  CursorLowering(const std::map<std::string, uint64_t>& choices, dsl::Sources& sources,
                 std::string input)
      : choices_(choices), sources_(sources), input_(std::move(input)) {}

  // The statements cursor `s` stands for, appended to `out`.
  CursorInfo lower(dsl::Stmt& s, std::vector<dsl::Stmt>& out) {
    dsl::Expr& range = *s.expr;
    if (range.kind != dsl::ExprKind::Call || range.text != "range" || range.args.size() != 2) {
      sources_.fail(range.pos, "a cursor's constructor is range(START, END)", range.length,
                    "e.g. cursor rows = range(0, 1000000) over \"*/4\"");
    }
    CursorInfo info;
    info.name = s.names[0];
    const dsl::Expr &start = *range.args[0], &end = *range.args[1];
    if (start.kind != dsl::ExprKind::Int || end.kind != dsl::ExprKind::Int || end.u < start.u) {
      sources_.fail(range.pos,
                    "a top-level cursor's constructor is range(START, END) with integers START <= "
                    "END (its partitions are resolved when the program compiles)",
                    range.length, "e.g. cursor rows = range(0, 1000000) over \"*/4\"");
    }
    const uint64_t extent = end.u - start.u;
    const dsl::AstBuilder b(s.pos);
    const std::string prefix = info.name + "__";
    dsl::Stmt partition;
    if (!s.over.empty() && !s.over_spec) {
      partition = b.binding(prefix + "cursor", b.name(s.over), true);
      partition.declared.push_back(
          {0, Type::Partition, "'over " + s.over + "' of cursor '" + info.name + "'"});
    } else {
      const std::string spec = s.over_spec ? s.over : "*/1";
      const std::vector<Value> partitions = resolve(s, spec, extent);
      info.partitions = partitions.size();
      info.partition = chosen(s, info);
      const Value one[] = {partitions.at(info.partition)};
      const uint64_t first = call_source_values("start_of", one).at(0).as_u64();
      info.first = start.u + first;
      info.size = call_source_values("end_of", one).at(0).as_u64() - first;
      dsl::ExprPtr list =
          b.call("partitions", args_of(b.literal(Value::str(spec)), b.literal(Value::u64(extent))));
      partition = b.binding(
          prefix + "cursor",
          b.call("partition_at", args_of(std::move(list), b.literal(Value::u64(info.partition)))),
          true);
    }
    out.push_back(std::move(partition));
    out.push_back(
        b.binding(prefix + "ordinal",
                  b.binary("+", b.literal(Value::u64(start.u)),
                           b.call("mod_in", args_of(b.name(input_), b.name(prefix + "cursor")))),
                  true));
    declare_partition_fields(b, info.name, out);
    return info;
  }

 private:
  // The partitions `spec` resolves to over `extent` ordinals.
  std::vector<Value> resolve(const dsl::Stmt& s, const std::string& spec, uint64_t extent) {
    const Value args[] = {Value::str(spec), Value::u64(extent)};
    try {
      return call_source_values("partitions", args);
    } catch (const EvalError& e) {
      sources_.fail(s.over_pos, "'over \"" + spec + "\"': " + e.what(), spec.size() + 2);
    }
  }

  // The partition the run takes: the only one, or the host's choice.
  uint64_t chosen(const dsl::Stmt& s, const CursorInfo& info) {
    if (info.partitions == 0) {
      sources_.fail(s.over_pos,
                    "cursor '" + info.name + "' over \"" + s.over +
                        "\" resolves to no partition of its 0 ordinals",
                    s.over.size() + 2, "give the range at least one ordinal");
    }
    if (info.partitions == 1) {
      // Only a choice naming this cursor is its own; "" is for cursors of several.
      const auto named = choices_.find(info.name);
      if (named != choices_.end() && named->second != 0) refuse_choice(s, info, named->second);
      return 0;
    }
    const std::optional<uint64_t> choice = choice_for(choices_, info.name);
    if (!choice) {
      sources_.fail(s.over_pos,
                    "cursor '" + info.name + "' over \"" + s.over + "\" resolves to " +
                        std::to_string(info.partitions) +
                        " partitions; a run takes one, as one fiber of polydat's does",
                    s.over.size() + 2,
                    "choose one with --partition I, I in 0.." +
                        std::to_string(info.partitions - 1) +
                        " (CompileOptions::cursor_partitions)");
    }
    if (*choice >= info.partitions) refuse_choice(s, info, *choice);
    return *choice;
  }

  [[noreturn]] void refuse_choice(const dsl::Stmt& s, const CursorInfo& info, uint64_t choice) {
    sources_.fail(s.pos,
                  "partition " + std::to_string(choice) + " of cursor '" + info.name +
                      "' does not exist: it has " + std::to_string(info.partitions) +
                      (info.partitions == 1 ? " partition" : " partitions"),
                  6, "choose I in 0.." + std::to_string(info.partitions - 1));
  }

  const std::map<std::string, uint64_t>& choices_;
  dsl::Sources& sources_;
  std::string input_;
};

}  // namespace

std::vector<CursorInfo> take_top_level_cursors(dsl::Ast& ast,
                                               const std::map<std::string, uint64_t>& choices,
                                               dsl::Sources& sources) {
  std::vector<CursorInfo> cursors;
  CursorLowering lowering(choices, sources, walked_input(ast));
  std::vector<dsl::Stmt> out;
  for (dsl::Stmt& s : ast.statements) {
    if (s.kind == dsl::StmtKind::Cursor) {
      for (const CursorInfo& earlier : cursors) {
        if (earlier.name == s.names[0]) {
          sources.fail(s.pos, "cursor '" + s.names[0] + "' is declared twice", 6,
                       "give each cursor its own name");
        }
      }
      cursors.push_back(lowering.lower(s, out));
    } else {
      out.push_back(std::move(s));
    }
  }
  std::vector<std::string> names;
  for (const CursorInfo& c : cursors) names.push_back(c.name);
  read_bare_names_as_ordinals(names, out);
  ast.statements = std::move(out);
  for (const auto& [name, index] : choices) {
    if (name.empty()) continue;
    std::string names;
    bool found = false;
    for (const CursorInfo& c : cursors) {
      names += (names.empty() ? "" : ", ") + c.name;
      found |= c.name == name;
    }
    if (!found) {
      throw CompileError(
          sources.file() + ": --partition " + name + "=" + std::to_string(index) +
              " names no top-level cursor; " +
              (cursors.empty() ? "the program declares none" : "the program's cursors: " + names),
          sources.file(), 0, 0);
    }
  }
  return cursors;
}

}  // namespace polyrt
