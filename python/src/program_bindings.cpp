// compile(), Program and State: the per-request API.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <mutex>
#include <string>
#include <vector>

#include "polyrt/polyrt.hpp"
#include "python/src/bindings.hpp"
#include "python/src/native_program.hpp"
#include "python/src/values.hpp"

namespace nb = nanobind;

namespace polyrt::python {
namespace {

Engine engine_named(const std::string& name) {
  if (name == "interpreter") return Engine::Interpreter;
  if (name == "closures") return Engine::Closures;
  if (name == "native") return Engine::Native;
  throw WriteError("unknown engine '" + name + "'; valid: interpreter, closures, native");
}

Provenance provenance_named(const std::string& name) {
  if (name == "auto") return Provenance::Auto;
  if (name == "raw") return Provenance::Raw;
  if (name == "pull") return Provenance::Pull;
  if (name == "push_pull") return Provenance::PushPull;
  throw WriteError("unknown provenance '" + name + "'; valid: auto, raw, pull, push_pull");
}

CompileOptions options_of(const std::string& file_name, const std::string& engine,
                          const std::string& provenance, const std::vector<std::string>& outputs) {
  CompileOptions options;
  options.file_name = file_name;
  options.engine = engine_named(engine);
  options.provenance = provenance_named(provenance);
  options.required_outputs = outputs;
  return options;
}

// A State and the lock that lets it run without the GIL: a State belongs to
// one thread at a time, and Python threads may share the object.
struct NativeState {
  std::shared_ptr<const Program> program;  // outlives the state
  State state;
  std::mutex lock;

  // Runs without the GIL (a pull may run a long program); the lock is never
  // held while waiting for the GIL, so the two cannot deadlock.
  nb::object pull(size_t index) {
    Value value;
    {
      nb::gil_scoped_release release;
      const std::lock_guard guard(lock);
      value = state.pull_at(index);
    }
    return to_python(value);
  }
};

void set_externs(NativeState& s, const nb::dict& externs) {
  const Program& p = *s.program;
  for (auto [key, value] : externs) {
    const std::string name = nb::cast<std::string>(key);
    const ExternInfo* info = nullptr;
    for (const ExternInfo& e : p.externs()) {
      if (e.name == name) info = &e;
    }
    if (!info) {
      std::string known;
      for (const ExternInfo& e : p.externs()) known += (known.empty() ? "" : ", ") + e.name;
      throw WriteError("unknown extern '" + name +
                       "'; the program's externs: " + (known.empty() ? "(none)" : known));
    }
    const Value v = from_python(value, info->type, name);
    const std::lock_guard guard(s.lock);
    s.state.set_input(name, v);
  }
}

void set_inputs(NativeState& s, const std::vector<uint64_t>& coordinates) {
  const std::lock_guard guard(s.lock);
  s.state.set_inputs(coordinates);
}

}  // namespace

void bind_program(nb::module_& m) {
  nb::class_<NativeProgram>(m, "NativeProgram")
      .def_prop_ro("input_names", [](const NativeProgram& p) { return p.program->input_names(); })
      .def_prop_ro("output_names", [](const NativeProgram& p) { return p.program->output_names(); })
      .def_prop_ro("output_types",
                   [](const NativeProgram& p) {
                     std::vector<std::string> types;
                     for (size_t o = 0; o < p.program->output_names().size(); ++o) {
                       types.emplace_back(type_name(p.program->output_type(o)));
                     }
                     return types;
                   })
      .def_prop_ro("externs",
                   [](const NativeProgram& p) {
                     nb::list externs;
                     for (const ExternInfo& e : p.program->externs()) {
                       externs.append(nb::make_tuple(e.name, std::string(type_name(e.type)),
                                                     to_python(e.default_value)));
                     }
                     return externs;
                   })
      .def_prop_ro("warnings", [](const NativeProgram& p) { return p.program->warnings(); })
      .def_prop_ro("engine", [](const NativeProgram& p) { return p.program->engine_name(); })
      .def(
          "new_state",
          [](const NativeProgram& p) {
            auto* s = new NativeState{p.program, p.program->new_state(), {}};
            return s;
          },
          nb::rv_policy::take_ownership);

  m.def(
      "compile_source",
      [](const std::string& source, const std::string& file_name, const std::string& engine,
         const std::string& provenance, const std::vector<std::string>& outputs) {
        const CompileOptions options = options_of(file_name, engine, provenance, outputs);
        nb::gil_scoped_release release;
        return NativeProgram{compile(source, options)};
      },
      nb::arg("source"), nb::arg("file_name"), nb::arg("engine"), nb::arg("provenance"),
      nb::arg("outputs"));
  m.def(
      "compile_file",
      [](const std::string& path, const std::string& engine, const std::string& provenance,
         const std::vector<std::string>& outputs) {
        CompileOptions options = options_of(path, engine, provenance, outputs);
        nb::gil_scoped_release release;
        return NativeProgram{compile_file(path, std::move(options))};
      },
      nb::arg("path"), nb::arg("engine"), nb::arg("provenance"), nb::arg("outputs"));

  nb::class_<NativeState>(m, "NativeState")
      .def("set_inputs", &set_inputs)
      .def("set_externs", &set_externs)
      .def("output_index", [](const NativeState& s,
                              const std::string& name) { return s.program->require_output(name); })
      .def("pull", &NativeState::pull)
      .def("eval",
           [](NativeState& s) {
             nb::gil_scoped_release release;
             const std::lock_guard guard(s.lock);
             s.state.eval();
           })
      .def_prop_ro("engine", [](const NativeState& s) { return s.state.engine(); });
}

}  // namespace polyrt::python
