#include "program/top_level_cursors.hpp"

#include "nodes/call_node.hpp"
#include "polyrt/error.hpp"
#include "program/body_cursors.hpp"
#include "syntax/ast_builder.hpp"

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
std::string walked_input(const syntax::Ast& ast) {
  for (const syntax::Stmt& s : ast.statements) {
    if (s.kind == syntax::StmtKind::Input) return s.names[0];
  }
  return "cycle";
}

std::vector<syntax::ExprPtr> args_of(syntax::ExprPtr a, syntax::ExprPtr b) {
  std::vector<syntax::ExprPtr> args;
  args.push_back(std::move(a));
  args.push_back(std::move(b));
  return args;
}

// The ordinal domain a constructor makes: [start, start + extent), and the
// wall-clock rule of an extending cursor whose length is one.
struct Domain {
  uint64_t start = 0, extent = 0;
  std::optional<CursorInfo::WallClock> wall_clock;
  bool extending = false;  // an until_* cursor
};

// nmbrs's extending cursors: `base` ordinals, then `delta` (default base)
// more at a time while the policy's target is not reached.
struct Extending {
  std::string_view name;
  size_t min_args;  // without the optional trailing delta
  bool timed, passes, counted;
};
constexpr Extending kExtending[] = {
    {"until_elapsed", 2, true, false, false},
    {"until_passes", 2, false, true, false},
    {"until_count", 2, false, false, true},
    {"until_elapsed_and_passes", 3, true, true, false},
    {"until_elapsed_or_passes", 3, true, true, false},
};

const Extending* extending_named(std::string_view name) {
  for (const Extending& e : kExtending) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

class CursorLowering {
 public:
  CursorLowering(const std::map<std::string, uint64_t>& choices, syntax::Sources& sources,
                 std::string input)
      : choices_(choices), sources_(sources), input_(std::move(input)) {}

  // The statements cursor `s` stands for, appended to `out`.
  CursorInfo lower(syntax::Stmt& s, std::vector<syntax::Stmt>& out) {
    CursorInfo info;
    info.name = s.names[0];
    const Domain domain = domain_of(s);
    info.wall_clock = domain.wall_clock;
    if (!domain.extending) info.range = std::pair(domain.start, domain.start + domain.extent);
    if (domain.extending && s.over_spec) {
      sources_.fail(s.over_pos,
                    "cursor '" + info.name + "' extends by its stop rule (" + s.expr->text +
                        "), so 'over \"" + s.over + "\"' has no extent to divide",
                    s.over.size() + 2,
                    "narrow a range(START, END) cursor with a spec, or range the extending "
                    "cursor over a partition wire (nmbrs refuses a spec for an open extent too)");
    }
    const uint64_t extent = domain.extent;
    const syntax::AstBuilder b(s.pos);
    const std::string prefix = info.name + "__";
    syntax::Stmt partition;
    if (!s.over.empty() && !s.over_spec) {
      partition = b.binding(prefix + "cursor", b.name(s.over), true);
      partition.declared.push_back(
          {0, Type::Partition, "'over " + s.over + "' of cursor '" + info.name + "'"});
    } else {
      const std::string spec = s.over_spec ? s.over : "*/1";
      const std::vector<Value> partitions = resolve(s, spec, extent);
      info.partitions = partitions.size();
      const std::optional<uint64_t> picked = chosen(s, info, partitions);
      if (!picked) return every_partition(s, info, domain, spec, bounds_of(partitions), out);
      info.partition = *picked;
      const Bounds slice = bounds_of(partitions.at(info.partition));
      info.first = domain.start + slice.start;
      if (!domain.wall_clock) info.size = slice.end - slice.start;
      partition = b.binding(prefix + "cursor",
                            b.call("partition_at", args_of(partition_list(b, spec, extent),
                                                           b.literal(Value::u64(info.partition)))),
                            true);
    }
    out.push_back(std::move(partition));
    out.push_back(
        b.binding(prefix + "ordinal",
                  b.binary("+", b.literal(Value::u64(domain.start)),
                           b.call("mod_in", args_of(b.name(input_), b.name(prefix + "cursor")))),
                  true));
    declare_partition_fields(b, info.name, out);
    return info;
  }

 private:
  // More would make each row's partition a long chain of comparisons.
  static constexpr size_t kMaxPartitionsInTurn = 64;

  struct Bounds {
    uint64_t start, end;
  };

  static Bounds bounds_of(const Value& partition) {
    const Value one[] = {partition};
    return {nodes::call_node_elements("start_of", one).at(0).as_u64(),
            nodes::call_node_elements("end_of", one).at(0).as_u64()};
  }

  static std::vector<Bounds> bounds_of(const std::vector<Value>& partitions) {
    std::vector<Bounds> out;
    for (const Value& p : partitions) out.push_back(bounds_of(p));
    return out;
  }

  // Whether each partition starts where the one before it ends.
  static bool tiles(const std::vector<Bounds>& bounds) {
    for (size_t k = 1; k < bounds.size(); ++k) {
      if (bounds[k].start != bounds[k - 1].end) return false;
    }
    return true;
  }

  static syntax::ExprPtr partition_list(const syntax::AstBuilder& b, const std::string& spec,
                                        uint64_t extent) {
    return b.call("partitions",
                  args_of(b.literal(Value::str(spec)), b.literal(Value::u64(extent))));
  }

  // No partition chosen of several that tile their span: coordinates walk
  // every partition in turn (row i of the span, wrapping), and `q.cursor` is
  // the partition the row's ordinal falls in.
  CursorInfo every_partition(const syntax::Stmt& s, CursorInfo info, const Domain& domain,
                             const std::string& spec, const std::vector<Bounds>& bounds,
                             std::vector<syntax::Stmt>& out) {
    const syntax::AstBuilder b(s.pos);
    const std::string prefix = info.name + "__";
    const uint64_t span = bounds.back().end - bounds.front().start;
    info.every_partition = true;
    info.first = domain.start + bounds.front().start;
    info.size = span;
    out.push_back(b.binding(prefix + "slot",
                            b.binary("%", b.name(input_), b.literal(Value::u64(span ? span : 1))),
                            true));
    syntax::ExprPtr index = b.literal(Value::u64(0));
    for (size_t k = 1; k < bounds.size(); ++k) {
      index = b.binary("+", std::move(index),
                       b.binary(">=", b.name(prefix + "slot"),
                                b.literal(Value::u64(bounds[k].start - bounds.front().start))));
    }
    out.push_back(b.binding(
        prefix + "cursor",
        b.call("partition_at", args_of(partition_list(b, spec, domain.extent), std::move(index))),
        true));
    out.push_back(b.binding(
        prefix + "ordinal",
        b.binary("+", b.literal(Value::u64(*info.first)), b.name(prefix + "slot")), true));
    declare_partition_fields(b, info.name, out);
    return info;
  }

  // The ordinals cursor `s`'s constructor makes; CompileError for another
  // constructor, or arguments out of their range. Its arguments are
  // literals by now (program/cursor_bounds.hpp).
  Domain domain_of(const syntax::Stmt& s) {
    const syntax::Expr& c = *s.expr;
    const std::string hint =
        "e.g. cursor rows = range(0, 1000000) over \"*/4\", or cursor op = until_passes(1000, 5)";
    if (c.kind != syntax::ExprKind::Call) {
      sources_.fail(c.pos, "a cursor's constructor is range(START, END) or an until_* cursor",
                    c.length, hint);
    }
    std::vector<uint64_t> args;
    for (const syntax::ExprPtr& a : c.args) {
      if (a->kind != syntax::ExprKind::Int) {
        sources_.fail(a->pos, "a cursor's bounds are unsigned integers", a->length, hint);
      }
      args.push_back(a->u);
    }
    Domain d;
    if (c.text == "range") {
      if (args.size() != 2 || args[1] < args[0]) {
        sources_.fail(c.pos,
                      "cursor '" + s.names[0] +
                          "': range(START, END) takes two integers START <= "
                          "END" +
                          (args.size() == 2 ? ", got range(" + std::to_string(args[0]) + ", " +
                                                  std::to_string(args[1]) + ")"
                                            : ""),
                      c.length, hint);
      }
      d.start = args[0];
      d.extent = args[1] - args[0];
      return d;
    }
    const Extending* e = extending_named(c.text);
    if (!e) {
      sources_.fail(
          c.pos,
          "'" + c.text +
              "' is not a cursor constructor: range, until_elapsed, "
              "until_passes, until_count, until_elapsed_and_passes, until_elapsed_or_passes",
          c.text.size(), hint);
    }
    const std::string shape = std::string(e->name) +
                              (e->min_args == 2 ? "(BASE, " : "(BASE, MS, ") +
                              (e->timed && e->min_args == 2 ? "MS"
                               : e->counted                 ? "COUNT"
                                                            : "PASSES") +
                              "[, DELTA])";
    if (args.size() < e->min_args || args.size() > e->min_args + 1) {
      sources_.fail(c.pos,
                    "cursor '" + s.names[0] + "': " + shape + " takes " +
                        std::to_string(e->min_args) + " or " + std::to_string(e->min_args + 1) +
                        " arguments",
                    c.length, hint);
    }
    const uint64_t base = args[0], delta = args.size() > e->min_args ? args.back() : base;
    if (base == 0 || delta == 0) {
      sources_.fail(c.pos,
                    "cursor '" + s.names[0] + "': " + shape +
                        " needs BASE and DELTA of at least "
                        "1, got BASE " +
                        std::to_string(base) + ", DELTA " + std::to_string(delta),
                    c.length, "BASE is the first pass's ordinals, DELTA each extension's");
    }
    d.extending = true;
    // The ordinals the pass or count target reaches: the first extent
    // base + k * delta at or past it.
    uint64_t target_rows = base;
    if (e->passes || e->counted) {
      const uint64_t target = args[e->timed ? 2 : 1];
      unsigned __int128 wanted = e->passes ? (unsigned __int128)base * target : target;
      unsigned __int128 rows = base;
      if (wanted > rows) rows += ((wanted - rows + delta - 1) / delta) * delta;
      if (rows > UINT64_MAX) {
        sources_.fail(c.pos,
                      "cursor '" + s.names[0] + "': " + shape + " extends past 2^64 ordinals",
                      c.length);
      }
      target_rows = (uint64_t)rows;
    }
    if (!e->timed) {
      d.extent = target_rows;
      return d;
    }
    CursorInfo::WallClock clock;
    clock.base = base;
    clock.delta = delta;
    clock.min_ms = args[1];
    const bool both = e->name == "until_elapsed_and_passes";
    clock.min_rows = e->passes && !both ? target_rows : 0;
    clock.max_rows = both ? target_rows : UINT64_MAX;
    d.extent = clock.max_rows;
    d.wall_clock = clock;
    return d;
  }

  // The partitions `spec` resolves to over `extent` ordinals.
  std::vector<Value> resolve(const syntax::Stmt& s, const std::string& spec, uint64_t extent) {
    const Value args[] = {Value::str(spec), Value::u64(extent)};
    try {
      return nodes::call_node_elements("partitions", args);
    } catch (const EvalError& e) {
      sources_.fail(s.over_pos, "'over \"" + spec + "\"': " + e.what(), spec.size() + 2);
    }
  }

  // The partition the run takes: the only one, the host's choice, or none
  // (nullopt: every partition in turn, when they tile their span; only then
  // are their bounds read, a spec may resolve to millions).
  std::optional<uint64_t> chosen(const syntax::Stmt& s, const CursorInfo& info,
                                 const std::vector<Value>& partitions) {
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
      const bool many = info.partitions > kMaxPartitionsInTurn;
      if (!many && tiles(bounds_of(partitions))) return std::nullopt;
      sources_.fail(
          s.over_pos,
          "cursor '" + info.name + "' over \"" + s.over + "\" resolves to " +
              std::to_string(info.partitions) + " partitions" +
              (many ? " (more than " + std::to_string(kMaxPartitionsInTurn) + " to walk in turn)"
                    : " that leave gaps (not walked in turn)") +
              "; a run takes one, as one fiber of polydat's does",
          s.over.size() + 2,
          "choose one with --partition I, I in 0.." + std::to_string(info.partitions - 1) +
              " (CompileOptions::cursor_partitions, Python partition=)");
    }
    if (*choice >= info.partitions) refuse_choice(s, info, *choice);
    return *choice;
  }

  [[noreturn]] void refuse_choice(const syntax::Stmt& s, const CursorInfo& info, uint64_t choice) {
    sources_.fail(s.pos,
                  "partition " + std::to_string(choice) + " of cursor '" + info.name +
                      "' does not exist: it has " + std::to_string(info.partitions) +
                      (info.partitions == 1 ? " partition" : " partitions"),
                  6, "choose I in 0.." + std::to_string(info.partitions - 1));
  }

  const std::map<std::string, uint64_t>& choices_;
  syntax::Sources& sources_;
  std::string input_;
};

}  // namespace

std::vector<CursorInfo> take_top_level_cursors(syntax::Ast& ast,
                                               const std::map<std::string, uint64_t>& choices,
                                               syntax::Sources& sources) {
  std::vector<CursorInfo> cursors;
  CursorLowering lowering(choices, sources, walked_input(ast));
  std::vector<syntax::Stmt> out;
  for (syntax::Stmt& s : ast.statements) {
    if (s.kind == syntax::StmtKind::Cursor) {
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
          sources.file() + ": the partition chosen for '" + name + "' (--partition " + name + "=" +
              std::to_string(index) +
              ", CompileOptions::cursor_partitions, Python partition=) names no top-level "
              "cursor; " +
              (cursors.empty() ? "the program declares none" : "the program's cursors: " + names),
          sources.file(), 0, 0);
    }
  }
  return cursors;
}

}  // namespace polyrt
