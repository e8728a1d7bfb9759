#include "tests/differential/random_traversal.hpp"

#include <bit>
#include <random>
#include <vector>

#include "polyrt/batch.hpp"
#include "polyrt/traversal.hpp"
#include "tests/differential/differential.hpp"

namespace polyrt::difftest {

namespace {

class Generator {
 public:
  // One seed in three writes a traversal the batch tier runs (a literal
  // lattice, no where, lex at most, a body that reads nothing of the
  // parent); the choice reads the seed, so other seeds keep their programs.
  explicit Generator(uint64_t seed) : rng_(seed), lattice_(seed % 3 == 0) {}

  std::string run() {
    std::string text = "input cycle\nbase := cycle * 7 + 3\nlabel := \"n\" + format_u64(cycle)\n";
    if (!lattice_ && pick(10) == 0) {
      const std::string comprehension = intervals();  // before the body reads its elements
      return text + "for " + comprehension + " {\n" + body("v") + "}\n";
    }
    const bool union_form = !lattice_ && pick(8) == 0;
    // The clauses first: the union's second alternative copies their shape.
    std::string comprehension = clauses();
    union_ = union_form;
    if (union_form) comprehension = "[for " + comprehension + ", for " + same_shape() + "]";
    if (!lattice_ && pick(3) == 0) comprehension += " where " + predicate();
    if (lattice_ && pick(2) == 0) comprehension += " order lex/" + std::to_string(1 + pick(9));
    if (!lattice_ && pick(2) == 0) comprehension += " order " + order();
    std::string inner = body("v");
    if (!lattice_ && pick(5) == 0) {
      // A body cursor whose bounds are expressions of the program's values.
      const std::string lo = std::to_string(pick(4));
      text += pick(2) ? "extern span: u64 = " + std::to_string(1 + pick(6)) + "\n"
                      : "const span := " + std::to_string(pick(4)) + " * 2 + 1\n";
      inner = "  cursor rows = range(" + lo + ", " + lo + " + span)\n" +
              "  walked := rows * 3 + rows.cursor.idx\n" + inner;
    } else if (!lattice_ && pick(4) == 0) {
      inner += nested();
    }
    text += "for " + comprehension + " {\n" + inner + "}\n";
    return text;
  }

 private:
  size_t pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }

  struct Element {
    std::string name;
    char type;  // 'u', 'f', 's'
  };

  std::string source(char type) {
    if (type == 'u') {
      switch (pick(5)) {
        case 0:
          return std::to_string(pick(5)) + ".." + std::to_string(pick(9));
        case 1: {
          const size_t a = pick(20);
          return std::to_string(a) + "..=" + std::to_string(a + pick(30)) + " step " +
                 std::to_string(1 + pick(7));
        }
        case 2:
          return "[" + std::to_string(pick(100)) + ", " + std::to_string(pick(100)) + ", " +
                 std::to_string(pick(1000)) + "]";
        case 3:
          return std::string(pick(2) ? "fib(" : "pow2(") + std::to_string(pick(7)) + ")";
        default:
          return std::to_string(pick(50)) + ", " + std::to_string(pick(50));
      }
    }
    if (type == 'f') {
      switch (pick(3)) {
        case 0:
          return "linear_steps(0, " + std::to_string(1 + pick(9)) + ", " + std::to_string(pick(5)) +
                 ")";
        case 1:
          return "geometric(1.5, 2, " + std::to_string(pick(4)) + ")";
        default:
          return "[0.5, 2.25, -1.5]";
      }
    }
    static const char* const kWords[] = {"p", "q", "alpha", "beta", "x-y"};
    std::string list;
    const size_t n = 1 + pick(4);
    for (size_t k = 0; k < n; ++k) list += (k ? ", " : "") + std::string(kWords[pick(5)]);
    // One bare word is a name (polydat's reading); one word of text is quoted.
    if (n == 1 && list != "x-y") return pick(2) ? "'" + list + "'" : "\"" + list + "\"";
    return pick(2) ? list : "\"" + list + "\"";
  }

  // One to three clauses, sometimes a zip; a u64 clause sometimes reads an
  // earlier element or the parent (a dependent source).
  std::string clauses() {
    std::string out;
    for (size_t k = 0, n = 1 + pick(3); k < n; ++k) {
      out += k ? ", " : "";
      if (!lattice_ && pick(6) == 0) {
        const Element a{"e" + std::to_string(elements_.size()), 'u'};
        const Element b{"e" + std::to_string(elements_.size() + 1), "ufs"[pick(3)]};
        static const char* const kZips[] = {"zip_truncate", "zip_cycle"};
        static const char* const kLists[] = {"[4, 9, 1]", "[0.5, 1.5]", "[m, n]"};
        out += "(" + a.name + ", " + b.name + ") in " + kZips[pick(2)] + "(" +
               std::to_string(pick(5)) + ".." + std::to_string(pick(9)) + ", " +
               kLists[b.type == 'u'   ? 0
                      : b.type == 'f' ? 1
                                      : 2] +
               ")";
        elements_.push_back(a);
        elements_.push_back(b);
        continue;
      }
      const Element e{"e" + std::to_string(elements_.size()),
                      lattice_ ? "uufs"[pick(4)] : "uufsp"[pick(5)]};
      std::string src = e.type == 'p' ? partition_source() : source(e.type);
      if (!lattice_ && e.type == 'u' && pick(5) == 0) src = pick(2) ? "{base}" : "base";
      if (!lattice_ && e.type == 'u' && pick(7) == 0) {
        src = std::to_string(pick(30)) + ".." + (pick(2) ? "=" : "") + "{base} step " +
              std::to_string(1 + pick(9));
      }
      if (!lattice_ && e.type == 'u' && pick(6) == 0 && !elements_.empty() &&
          elements_[0].type == 'u') {
        src = "fib({" + elements_[0].name + "})";
        dependent_ = true;
      }
      out += e.name + " in " + src;
      elements_.push_back(e);
    }
    return out;
  }

  // partitions(...) of a literal spec, or subdivide(...) of an earlier
  // partition element.
  std::string partition_source() {
    for (const Element& earlier : elements_) {
      if (earlier.type == 'p' && pick(2)) {
        dependent_ = true;  // it reads an earlier element
        return "subdivide(" + earlier.name + ", " + std::to_string(1 + pick(3)) + ")";
      }
    }
    static const char* const kSpecs[] = {"*/3", "20%,30%,*", "linear:3", "*/2 random"};
    return "partitions(\"" + std::string(kSpecs[pick(4)]) + "\", " +
           std::to_string(10 + pick(100)) + ")";
  }

  // Continuous intervals and named measures, now and then beside a
  // discrete range and filtered, under a counted sampling order or extrema
  // (polydat's sampled spaces).
  std::string intervals() {
    std::string out;
    for (size_t k = 0, n = 1 + pick(3); k < n; ++k) {
      const bool discrete = k > 0 && pick(3) == 0;
      const Element e{"e" + std::to_string(elements_.size()), discrete ? 'u' : 'f'};
      static const char* const kMeasures[] = {"normal(3, 0.5)", "exponential(2) on 0.0..1.5",
                                              "pareto(1, 2)", "log_normal()", "uniform01()"};
      out += (k ? ", " : "") + e.name + " in ";
      if (discrete) {
        out += std::to_string(pick(4)) + ".." + std::to_string(4 + pick(4));
      } else {
        out += pick(3) == 0 ? std::string(kMeasures[pick(5)])
                            : std::to_string(pick(5)) + ".5.." + (pick(2) ? "=" : "") +
                                  std::to_string(6 + pick(5)) + ".25";
      }
      elements_.push_back(e);
    }
    if (pick(4) == 0) out += " where {" + elements_.front().name + "} > 3.0";
    if (pick(5) == 0) return out + " order extrema" + (pick(2) ? "/1" : "");
    static const char* const kSampling[] = {"halton", "sobol", "lhs", "shuffle"};
    return out + " order " + kSampling[pick(4)] + "/" + std::to_string(1 + pick(9));
  }

  // A second alternative of a union: the same names and types.
  std::string same_shape() {
    std::string out;
    for (size_t k = 0; k < elements_.size(); ++k) {
      out +=
          (k ? ", " : "") + elements_[k].name + " in " +
          (elements_[k].type == 'u'   ? std::to_string(pick(9)) + ".." + std::to_string(9 + pick(4))
           : elements_[k].type == 'f' ? std::string("[0.125]")
           : elements_[k].type == 'p' ? std::string("partitions(\"*/2\", 8)")
                                      : std::string("'z'"));
    }
    return out;
  }

  std::string predicate() {
    const Element& e = elements_[pick(elements_.size())];
    if (e.type == 'p') return "{" + elements_[0].name + "} == {" + elements_[0].name + "}";
    if (e.type == 'u')
      return "{" + e.name + "} " + (pick(2) ? "> " : "!= ") + std::to_string(pick(20));
    if (e.type == 'f') return "{" + e.name + "} < " + std::to_string(pick(4)) + ".5";
    return "{" + e.name + "} != \"p\" || {" + elements_[0].name + "} == {" + elements_[0].name +
           "}";
  }

  std::string order() {
    static const char* const kOrders[] = {"lex",    "reverse_lex", "diagonal", "antidiagonal",
                                          "shells", "extrema",     "halton",   "sobol",
                                          "lhs",    "shuffle"};
    // A dependent cartesian has no lattice: lex and reverse_lex only; lhs
    // stratifies a lattice's axes, which a union has not.
    std::string o = kOrders[pick(dependent_ ? 2 : 10)];
    if (union_ && o == "lhs") o = "shuffle";
    if (pick(2)) o += "/" + std::to_string(1 + pick(6));
    if ((o.rfind("lhs", 0) == 0 || o.rfind("shuffle", 0) == 0) && pick(2)) {
      o = o.substr(0, o.find('/')) + "(count=" + std::to_string(1 + pick(5)) +
          ", seed=" + std::to_string(pick(1000)) + ")";
    }
    return o;
  }

  // A traversal nested in the body: its sources may read the outer
  // elements and the parent, its body both.
  std::string nested() {
    dependent_ = union_ = false;
    std::string comprehension = clauses();
    if (pick(3) == 0) comprehension += " where " + predicate();
    if (pick(3) == 0) comprehension += " order " + order();
    return "  for " + comprehension + " {\n" + body("w") + "  }\n";
  }

  // Bindings named `prefix`0, 1, ... reading the elements.
  std::string body(const std::string& prefix) {
    std::string out;
    for (size_t k = 0, n = 1 + pick(3); k < n; ++k) {
      const Element& e = elements_[pick(elements_.size())];
      std::string value;
      if (e.type == 'u') {
        value = pick(2) ? "hash(" + e.name + " + " + std::to_string(pick(9)) + ")"
                        : e.name + " * " + std::to_string(1 + pick(5)) + " % 11";
        if (!lattice_ && pick(4) == 0) value += " + base";
      } else if (e.type == 'p') {
        value =
            "start_of(" + e.name + ") * 100 + cardinality(" + e.name + ") + idx_of(" + e.name + ")";
      } else if (e.type == 'f') {
        value = e.name + " * 2.0 + " + std::to_string(pick(3)) + ".25";
      } else {
        value = e.name + " + \"-\" + format_u64(cycle)";
        if (!lattice_ && pick(4) == 0) value = e.name + " + label";
      }
      out += "  " + prefix + std::to_string(k) + " := " + value + "\n";
    }
    return out;
  }

  std::mt19937_64 rng_;
  std::vector<Element> elements_;
  bool lattice_;
  bool dependent_ = false, union_ = false;
};

// Every row of the openings at parent coordinates 0, 1 and 5 on one engine:
// "tuple values -> outputs", or the failure's message.
std::vector<std::string> rows_of(const Program& program) {
  std::vector<std::string> rows;
  try {
    State parent = program.new_state();
    for (uint64_t coordinate : {0, 1, 5}) {
      parent.set_inputs(std::vector<uint64_t>{coordinate});
      const Traversal opening = open_traversal(parent, std::vector<uint64_t>{coordinate}, 0);
      for_each_innermost_activation(
          opening, [&](std::span<const Value> outer, const Traversal& t, size_t a) {
            std::string row = std::to_string(coordinate) + ":";
            for (const Value& v : outer) row += " " + v.to_string();
            for (const Value& v : t.tuples()[a]) row += " " + v.to_string();
            // A body with a cursor runs its slice: its first cycle and its last.
            const uint64_t cycles = t.cycles(a);
            if (cycles != 1) row += " cycles " + std::to_string(cycles);
            std::vector<uint64_t> read{0};
            if (cycles > 1) read.push_back(cycles - 1);
            for (const uint64_t cycle : read) {
              State body = t.activation(a, cycle);
              for (size_t o = 0; o < t.body().output_names().size(); ++o) {
                const Value v = body.pull_at(o);
                row += " | " + v.to_string() +
                       (v.type() == Type::F64
                            ? "#" + std::to_string(std::bit_cast<uint64_t>(v.as_f64()))
                            : "");
              }
            }
            rows.push_back(row);
          });
    }
  } catch (const Error& e) {
    rows.push_back(std::string("error: ") + e.what());
  }
  return rows;
}

Value value_at(const Column& c, uint64_t row) {
  if (c.is_none) return Value::none();
  switch (c.type) {
    case Type::F64:
      return Value::f64(std::bit_cast<double>(c.words[row]));
    case Type::Str:
      return Value::str(std::string(c.text(row)));
    case Type::Bool:
      return Value::boolean(c.words[row] != 0);
    default:
      return Value::u64(c.words[row]);
  }
}

// The lattice body's rows for parent coordinates 0, 1 and 5, formatted as
// rows_of formats them.
std::vector<std::string> lattice_rows(const Program& program) {
  const TraversalInfo info = traversal_info(program, 0);
  const BatchEvaluator batch(info.lattice_body, BatchOptions{.coordinates = {0, 0}});
  const std::vector<Column> columns = batch.evaluate(0, 3 * info.lattice_tuples);
  const size_t elements = info.names.size();
  std::vector<std::string> rows;
  const uint64_t coordinates[] = {0, 1, 5};
  for (uint64_t r = 0; r < 3 * info.lattice_tuples; ++r) {
    std::string row = std::to_string(coordinates[r / info.lattice_tuples]) + ":";
    for (size_t c = 0; c < columns.size(); ++c) {
      const Value v = value_at(columns[c], r);
      if (c < elements) {
        row += " " + v.to_string();
      } else {
        row += " | " + v.to_string() +
               (v.type() == Type::F64 ? "#" + std::to_string(std::bit_cast<uint64_t>(v.as_f64()))
                                      : "");
      }
    }
    rows.push_back(row);
  }
  return rows;
}

std::optional<std::string> differ(const std::string& program, const char* engine,
                                  const std::vector<std::string>& want,
                                  const std::vector<std::string>& got) {
  for (size_t r = 0; r < std::max(want.size(), got.size()); ++r) {
    const std::string w = r < want.size() ? want[r] : "(no row)";
    const std::string g = r < got.size() ? got[r] : "(no row)";
    if (w != g) {
      return std::string(engine) + " differs from the interpreter at row " + std::to_string(r) +
             ":\n  interpreter: " + w + "\n  " + engine + ": " + g + "\n--- program\n" + program;
    }
  }
  return std::nullopt;
}

}  // namespace

std::string traversal_program_for_seed(uint64_t seed) {
  return Generator(seed).run();
}

std::optional<std::string> check_traversal_seed(uint64_t seed) {
  const std::string source = traversal_program_for_seed(seed);
  std::vector<std::string> oracle;
  std::shared_ptr<const Program> interpreted;
  try {
    interpreted = compile(source, CompileOptions{.engine = Engine::Interpreter});
  } catch (const CompileError& e) {
    return "seed " + std::to_string(seed) + " does not compile: " + e.what() + "\n" + source;
  }
  oracle = rows_of(*interpreted);
  for (const EngineConfig& config : kEngineConfigs) {
    const auto program =
        compile(source, CompileOptions{.engine = config.engine, .provenance = config.provenance});
    if (auto d = differ(source, config.name, oracle, rows_of(*program))) return d;
  }
  if (traversal_info(*interpreted, 0).lattice_body) {
    if (auto d =
            differ(source, "the lattice body (batch tier)", oracle, lattice_rows(*interpreted))) {
      return d;
    }
  }
  return std::nullopt;
}

}  // namespace polyrt::difftest
