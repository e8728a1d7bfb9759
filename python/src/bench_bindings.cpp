// polyrt.bench(): the measurements of `polyrt bench` as plain data.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>

#include "polyrt/bench.hpp"
#include "python/src/bindings.hpp"
#include "python/src/values.hpp"

namespace nb = nanobind;

namespace polyrt::python {

namespace {

nb::dict report_dict(const BenchReport& r) {
  nb::list compiles, states, batches;
  for (const BenchCompile& c : r.compiles) {
    nb::dict row;
    row["engine"] = c.engine;
    row["cold_ms"] = c.cold_ms;
    row["cached_ms"] = c.cached_ms;
    compiles.append(row);
  }
  for (const BenchState& s : r.states) {
    nb::dict row;
    row["engine"] = s.engine;
    row["ns_per_pull"] = s.ns_per_pull;
    row["pulls_per_second"] = s.pulls_per_second;
    row["requests"] = s.requests;
    row["p50_ns"] = s.p50_ns;
    row["p99_ns"] = s.p99_ns;
    row["p999_ns"] = s.p999_ns;
    states.append(row);
  }
  for (const BenchBatch& b : r.batches) {
    nb::dict row;
    row["device"] = b.device;
    row["rows"] = b.rows;
    row["rows_per_second"] = b.rows_per_second;
    row["gb_per_second"] = b.gb_per_second;
    row["skipped"] = b.skipped.empty() ? nb::none() : nb::object(nb::str(b.skipped.c_str()));
    batches.append(row);
  }
  nb::dict out;
  out["program"] = r.program;
  out["seconds"] = r.seconds;
  out["compile"] = compiles;
  out["per_state"] = states;
  out["batch"] = batches;
  out["all_of_sum"] = r.all_of_sum ? nb::object(nb::float_(*r.all_of_sum)) : nb::none();
  out["text"] = r.text();
  return out;
}

// The inputs and externs typed by the program's declarations (an
// interpreter compile: it builds no code, so the timed compiles stay cold).
void type_settings(const std::string& path, BenchOptions& options, const nb::dict& inputs,
                   const nb::dict& externs) {
  CompileOptions interpreter = options.compile;
  interpreter.engine = Engine::Interpreter;
  const std::shared_ptr<const Program> p = compile_file(path, interpreter);
  const std::vector<std::string>& names = p->input_names();
  options.coordinates.assign(names.size(), 0);
  for (auto [key, value] : inputs) {
    const std::string name = name_from_python(key, "a name in inputs");
    const auto at = std::find(names.begin(), names.end(), name);
    if (at == names.end() || at == names.begin()) {
      throw WriteError(
          "bench(inputs=...) names '" + name + "', which is not " +
          (at == names.begin() ? "fixed: the first input iterates" : "an input of the program"));
    }
    options.coordinates[(size_t)(at - names.begin())] =
        coordinate_from_python(value, [&] { return "inputs['" + name + "']"; });
  }
  for (auto [key, value] : externs) {
    const std::string name = name_from_python(key, "a name in externs");
    options.externs.emplace_back(name, extern_from_python(*p, name, value));
  }
}

}  // namespace

void bind_bench(nb::module_& m) {
  m.def(
      "bench",
      [](const std::string& path, double seconds, size_t threads,
         const std::vector<std::string>& outputs, const nb::dict& inputs, const nb::dict& externs,
         const std::vector<std::string>& library_paths) {
        BenchOptions options;
        options.seconds = seconds;
        options.threads = threads;
        options.outputs = outputs;
        options.compile.library_paths = library_paths;
        type_settings(path, options, inputs, externs);
        BenchReport report;
        {
          nb::gil_scoped_release release;
          report = bench_file(path, options);
        }
        return report_dict(report);
      },
      nb::arg("path"), nb::arg("seconds"), nb::arg("threads"), nb::arg("outputs"),
      nb::arg("inputs"), nb::arg("externs"), nb::arg("library_paths"));
}

}  // namespace polyrt::python
