// compile(), Program and State: the per-request API.
#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <bit>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "polyrt/introspect.hpp"
#include "polyrt/numeric_types.hpp"
#include "polyrt/polyrt.hpp"
#include "polyrt/traversal.hpp"
#include "polyrt/traversal_rows.hpp"
#include "python/src/bindings.hpp"
#include "python/src/interruptible.hpp"
#include "python/src/native_program.hpp"
#include "python/src/numpy_columns.hpp"
#include "python/src/values.hpp"

namespace nb = nanobind;

namespace polyrt::python {
namespace {

// CompileOptions::untrusted, data_roots and allowed_env, as Python passes them.
using Confinement = std::tuple<bool, std::vector<std::string>, std::vector<std::string>>;

CompileOptions options_of(const std::string& file_name, const std::string& engine,
                          const std::string& provenance, const std::vector<std::string>& outputs,
                          const std::vector<std::string>& library_paths,
                          const std::map<std::string, uint64_t>& partitions,
                          const Confinement& confinement, std::optional<uint64_t> seed,
                          const std::map<std::string, std::string>& params) {
  CompileOptions options;
  options.seed = seed;
  options.params = params;
  options.file_name = file_name;
  options.library_paths = library_paths;
  options.cursor_partitions = partitions;
  std::tie(options.untrusted, options.data_roots, options.allowed_env) = confinement;
  const std::optional<Engine> engine_value = engine_named(engine);
  if (!engine_value) {
    throw WriteError("unknown engine '" + engine + "'; valid: " + kEngineNames);
  }
  const std::optional<Provenance> provenance_value = provenance_named(provenance);
  if (!provenance_value) {
    throw WriteError("unknown provenance '" + provenance + "'; valid: " + kProvenanceNames);
  }
  options.engine = *engine_value;
  options.provenance = *provenance_value;
  options.required_outputs = outputs;
  return options;
}

// A State and the lock that lets it run without the GIL: a State belongs to
// one thread at a time, and Python threads may share the object. The lock
// is never held while waiting for the GIL, so the two cannot deadlock.
struct NativeState {
  std::shared_ptr<const Program> program;  // outlives the state
  State state;
  std::mutex lock;

  size_t index_of(std::string_view name) const {
    if (const std::optional<size_t> index = program->output_index(name)) return *index;
    return program->require_output(name);  // throws WriteError listing the outputs
  }

  // A current scalar output is read with the GIL held (a few loads: cheaper
  // than releasing it); anything that runs the program runs without it.
  nb::object pull(std::string_view name) {
    const size_t index = index_of(name);
    const Type type = program->output_type(index);
    // A nullable output's word is its value's on null rows too: pull_at says.
    if (!is_payload(type) && !program->output_nullable(index) && lock.try_lock()) {
      const std::optional<uint64_t> word = state.current_word(index);
      lock.unlock();
      if (word) return word_to_python(*word, type);
    }
    Value value;
    {
      nb::gil_scoped_release release;
      const std::lock_guard guard(lock);
      value = state.pull_at(index);
    }
    return to_python(value);
  }

  static nb::object word_to_python(uint64_t word, Type type) {
    if (type == Type::Bool) return nb::bool_(word != 0);
    if (is_float(type)) return nb::float_(std::bit_cast<double>(word));
    if (is_signed_integer(type)) return nb::int_((int64_t)word);
    return nb::int_(word);
  }

  // `count` values of one call: on the stack for the usual few (no heap
  // allocation per request), else on the heap. Not copied: `values` may
  // point into it.
  template <typename T>
  struct CallBuffer {
    T few[8];
    std::vector<T> more;
    std::span<T> values;
    explicit CallBuffer(size_t count) : values(few, count) {
      if (count <= std::size(few)) return;
      more.resize(count);
      values = {more.data(), count};
    }
    CallBuffer(const CallBuffer&) = delete;
    CallBuffer& operator=(const CallBuffer&) = delete;
  };

  static nb::object fast_sequence(nb::handle sequence, const char* what) {
    nb::object values = nb::steal(PySequence_Fast(sequence.ptr(), what));
    if (!values.is_valid()) throw nb::python_error();
    return values;
  }

  // The coordinates of a Python sequence (a tuple or list: indexed, not
  // iterated, so no iterator object per call).
  struct Coordinates {
    nb::object sequence;
    CallBuffer<uint64_t> words;
    explicit Coordinates(nb::handle values)
        : sequence(fast_sequence(values, "coordinates are a sequence of ints")),
          words((size_t)PySequence_Fast_GET_SIZE(sequence.ptr())) {
      PyObject** items = PySequence_Fast_ITEMS(sequence.ptr());
      for (size_t k = 0; k < words.values.size(); ++k) {
        words.values[k] =
            coordinate_from_python(items[k], [k] { return "coordinate " + std::to_string(k); });
      }
    }
  };

  // set_inputs(7), set_inputs(7, 1) or set_inputs([7, 1]).
  void set_inputs(const nb::args& args) {
    nb::handle values = args;
    if (args.size() == 1) {
      PyObject* only = args[0].ptr();
      if (PySequence_Check(only) && !PyUnicode_Check(only) && !PyBytes_Check(only)) values = only;
    }
    const Coordinates coordinates(values);
    const std::lock_guard guard(lock);
    state.set_inputs(coordinates.words.values);
  }

  // The outputs of the names of the last request whose names came as a
  // tuple of str: immutable, so the same tuple names the same outputs, and
  // a request loop passing one tuple looks its names up once (the lookups
  // were a third of a request). Read and written with the GIL held.
  nb::object request_names;
  std::vector<size_t> request_outputs;

  const std::vector<size_t>& outputs_named(nb::handle names) {
    if (names.ptr() == request_names.ptr()) return request_outputs;
    const nb::object list = fast_sequence(names, "request's outputs are a sequence of names");
    const auto count = (size_t)PySequence_Fast_GET_SIZE(list.ptr());
    std::vector<size_t> outputs(count);
    bool every_str = true;
    for (size_t k = 0; k < count; ++k) {
      PyObject* name = PySequence_Fast_GET_ITEM(list.ptr(), k);
      every_str = every_str && PyUnicode_CheckExact(name);
      outputs[k] = index_of(name_from_python(name, "an output's name"));
    }
    request_outputs = std::move(outputs);
    request_names = PyTuple_CheckExact(names.ptr()) && every_str ? nb::borrow(names) : nb::object();
    return request_outputs;
  }

  // request((7, 1), ("a", "b")): set_inputs, then each named scalar
  // output's value, in one call (State::request).
  nb::tuple request(nb::handle coordinate_values, nb::handle names) {
    const Coordinates coordinates(coordinate_values);
    // A copy of the outputs: another thread may ask for other names while
    // this one runs without the GIL. The usual few stay on the stack.
    const std::vector<size_t>& named = outputs_named(names);
    for (const size_t o : named) {  // in Python's words, before the engine's
      if (is_payload(program->output_type(o))) {
        throw WriteError("request returns scalar outputs; '" + program->output_names()[o] +
                         "' is a " + std::string(type_name(program->output_type(o))) +
                         ": read it with state.pull('" + program->output_names()[o] +
                         "') or state['" + program->output_names()[o] + "']");
      }
    }
    const size_t count = named.size();
    CallBuffer<size_t> output_buffer(count);
    CallBuffer<uint64_t> word_buffer(count);
    const std::span<size_t> outputs = output_buffer.values;
    const std::span<uint64_t> words = word_buffer.values;
    std::copy(named.begin(), named.end(), outputs.begin());
    {
      nb::gil_scoped_release release;
      const std::lock_guard guard(lock);
      state.request(coordinates.words.values, outputs, words);
    }
    nb::tuple out = nb::steal<nb::tuple>(PyTuple_New((Py_ssize_t)count));
    for (size_t k = 0; k < count; ++k) {
      PyTuple_SET_ITEM(out.ptr(), k,
                       word_to_python(words[k], program->output_type(outputs[k])).release().ptr());
    }
    return out;
  }

  void set_externs(const nb::kwargs& externs) {
    for (auto [key, value] : externs) {
      const std::string name = name_from_python(key, "an extern's name");
      const Value v = extern_from_python(*program, name, value);
      const std::lock_guard guard(lock);
      state.set_input(name, v);
    }
  }
};

}  // namespace

namespace {

nb::list steps_list(const std::vector<PlanStep>& steps) {
  nb::list out;
  for (const PlanStep& step : steps) {
    nb::list nodes;
    for (const PlanNode& n : step.nodes) nodes.append(nb::make_tuple(n.node, n.binding));
    nb::dict d;
    d["kind"] = step.kind;
    d["nodes"] = nodes;
    d["flags"] = step.flags;
    d["reads"] = step.reads;
    d["writes"] = step.writes;
    d["copied_before"] = step.copied_before;
    d["why_host"] = step.why_host;
    d["text_bytes_per_row"] = step.text_bytes_per_row;
    out.append(d);
  }
  return out;
}

nb::dict state_plan_dict(const StatePlanView& view) {
  nb::list slots;
  for (const PlanSlot& s : view.slots) {
    slots.append(nb::make_tuple(s.slot, s.binding, s.type, s.lifecycle));
  }
  nb::dict d;
  d["kind"] = "state";
  d["engine"] = view.engine;
  d["mode"] = view.mode;
  d["slot_count"] = view.slot_count;
  d["slots"] = slots;
  d["steps"] = steps_list(view.steps);
  return d;
}

// Traversal `index`'s rows for parent coordinates first .. first + count - 1
// (the first input iterated, the others from `coordinates`), from the one
// runner (polyrt/traversal_rows.hpp) on `device`: a dict of evaluate()'s
// entries per column (iterated input, elements of every level, innermost
// body's outputs). No outputs: every output of the innermost body. `batch`
// false keeps every row on the per-state engine (what tests compare).
nb::dict traversal_rows(const NativeProgram& native, size_t index, uint64_t first, uint64_t count,
                        std::vector<uint64_t> coordinates, const std::vector<std::string>& outputs,
                        const nb::dict& externs, bool batch, const std::string& device, int gpu,
                        size_t threads) {
  const Program& program = *native.program;
  TraversalRowsOptions options;
  options.traversal = index;
  options.outputs = outputs;
  options.coordinates = std::move(coordinates);
  for (auto [key, value] : externs) {
    const std::string name = name_from_python(key, "a name in externs");
    options.externs.emplace_back(name, extern_from_python(program, name, value));
  }
  options.batch = batch;
  const std::optional<BatchDevice> kind = batch_device_named(device);
  if (!kind) throw WriteError("unknown device '" + device + "'; valid: " + kBatchDeviceNames);
  options.device = DeviceChoice(*kind, gpu);
  options.threads = threads;
  std::atomic<bool> stop{false};
  options.stop = &stop;
  std::optional<TraversalRows> rows;
  std::vector<Column> columns;
  run_interruptible(
      [&] {
        rows.emplace(native.program, options);
        columns = rows->evaluate(first, count);
      },
      stop, count <= 1);
  nb::dict out;
  for (size_t k = 0; k < columns.size(); ++k) {
    const uint64_t rows_made =
        is_payload(columns[k].type) ? columns[k].offsets.size() - 1 : columns[k].words.size();
    const Destination d = destination_of(std::move(columns[k]), rows->nullable()[k]);
    const std::unique_ptr<PooledText> text(d.text);
    put_column(out, columns[k].name, d, rows_made);
  }
  return out;
}

nb::dict batch_plan_dict(const BatchPlanView& view) {
  nb::dict d;
  d["kind"] = "batch";
  d["device"] = view.gpu ? "gpu" : "cpu";
  d["columns"] = view.columns;
  d["scalars"] = view.scalars;
  d["steps"] = steps_list(view.steps);
  d["copied_to_host_last"] = view.copied_to_host_last;
  d["rows_on_device"] = view.rows_on_device;
  d["why_rows_on_host"] = view.why_rows_on_host;
  return d;
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
      .def_prop_ro("cursors",
                   [](const NativeProgram& p) {
                     nb::list out;
                     for (const CursorInfo& c : p.program->cursors()) {
                       nb::dict d;
                       d["name"] = c.name;
                       d["partition"] = c.partition;
                       d["partitions"] = c.partitions;
                       d["every_partition"] = c.every_partition;
                       d["first"] = c.first ? nb::object(nb::int_(*c.first)) : nb::none();
                       d["size"] = c.size ? nb::object(nb::int_(*c.size)) : nb::none();
                       d["range"] =
                           c.range ? nb::object(nb::make_tuple(c.range->first, c.range->second))
                                   : nb::none();
                       d["wall_clock"] = nb::none();
                       if (c.wall_clock) {
                         nb::dict rule;
                         rule["base"] = c.wall_clock->base;
                         rule["delta"] = c.wall_clock->delta;
                         rule["min_ms"] = c.wall_clock->min_ms;
                         rule["min_rows"] = c.wall_clock->min_rows;
                         rule["max_rows"] = c.wall_clock->max_rows;
                         d["wall_clock"] = rule;
                       }
                       out.append(d);
                     }
                     return out;
                   })
      .def_prop_ro("engine", [](const NativeProgram& p) { return p.program->engine_name(); })
      .def_prop_ro("source",
                   [](const NativeProgram& p) {
                     const std::string& text = p.program->source_text();
                     return nb::bytes(text.data(), text.size());
                   })
      .def_prop_ro("source_files", [](const NativeProgram& p) { return p.program->source_files(); })
      .def(
          "plan",
          [](const NativeProgram& p, const std::string& kind, const std::string& device,
             const std::vector<std::string>& outputs, bool llvm, unsigned sm,
             unsigned cuda_driver) {
            const GpuTarget target{sm, cuda_driver};
            if (kind == "state") {
              return llvm ? state_plan_llvm_ir(*p.program) : state_plan_text(*p.program);
            }
            if (kind != "batch") {
              throw WriteError("plan kind must be 'batch' or 'state', got '" + kind + "'");
            }
            if (device != "cpu" && device != "gpu") {
              throw WriteError("plan device must be 'cpu' or 'gpu', got '" + device + "'");
            }
            const PlanDevice on = device == "gpu" ? PlanDevice::Gpu : PlanDevice::Cpu;
            if (on == PlanDevice::Gpu) check_gpu_target(target);
            return llvm ? batch_kernels_llvm_ir(p.program, on, true, outputs, target)
                        : batch_plan_text(p.program, on, outputs, target);
          },
          nb::arg("kind"), nb::arg("device"), nb::arg("outputs"), nb::arg("llvm"), nb::arg("sm"),
          nb::arg("cuda_driver"))
      .def(
          "plan_data",
          [](const NativeProgram& p, const std::string& kind, const std::string& device,
             const std::vector<std::string>& outputs) {
            if (kind == "state") return state_plan_dict(state_plan(*p.program));
            if (kind != "batch") {
              throw WriteError("plan kind must be 'batch' or 'state', got '" + kind + "'");
            }
            if (device != "cpu" && device != "gpu") {
              throw WriteError("plan device must be 'cpu' or 'gpu', got '" + device + "'");
            }
            return batch_plan_dict(batch_plan(
                p.program, device == "gpu" ? PlanDevice::Gpu : PlanDevice::Cpu, outputs));
          },
          nb::arg("kind"), nb::arg("device"), nb::arg("outputs"))
      .def("traversal_count", [](const NativeProgram& p) { return p.program->traversal_count(); })
      .def(
          "traversal_column_types",
          [](const NativeProgram& p, size_t index) {
            const TraversalInfo info = flattened_traversal_info(*p.program, index);
            nb::dict types;
            types[nb::str(p.program->input_names().at(0).c_str())] = "u64";
            for (size_t e = 0; e < info.names.size(); ++e) {
              types[nb::str(info.names[e].c_str())] = std::string(type_name(info.types[e]));
            }
            for (size_t o = 0; o < info.body->output_names().size(); ++o) {
              types[nb::str(info.body->output_names()[o].c_str())] =
                  std::string(type_name(info.body->output_type(o)));
            }
            return types;
          },
          nb::arg("index"))
      .def(
          "traversal_outputs",
          [](const NativeProgram& p, size_t index) {
            return flattened_traversal_info(*p.program, index).body->output_names();
          },
          nb::arg("index"))
      .def("traverse", &traversal_rows, nb::arg("index"), nb::arg("first"), nb::arg("count"),
           nb::arg("coordinates"), nb::arg("outputs"), nb::arg("externs"), nb::arg("batch"),
           nb::arg("device"), nb::arg("gpu"), nb::arg("threads"))
      .def(
          "ptx",
          [](const NativeProgram& p, const std::vector<std::string>& outputs, unsigned sm,
             unsigned cuda_driver) {
            const GpuTarget target{sm, cuda_driver};
            check_gpu_target(target);
            return batch_kernels_ptx(p.program, outputs, target);
          },
          nb::arg("outputs"), nb::arg("sm"), nb::arg("cuda_driver"))
      .def(
          "new_state",
          [](const NativeProgram& p) {
            auto* s = new NativeState{p.program, p.program->new_state(), {}};
            return s;
          },
          nb::rv_policy::take_ownership);

  m.def("cuda_driver_version_named", &cuda_driver_version_named, nb::arg("text"));
  m.def(
      "compile_source",
      [](const nb::bytes& source, const std::string& file_name, const std::string& engine,
         const std::string& provenance, const std::vector<std::string>& outputs,
         const std::vector<std::string>& library_paths,
         const std::map<std::string, uint64_t>& partitions, const Confinement& confinement,
         const std::string& program_directory, std::optional<uint64_t> seed,
         const std::map<std::string, std::string>& params) {
        CompileOptions options = options_of(file_name, engine, provenance, outputs, library_paths,
                                            partitions, confinement, seed, params);
        options.program_directory = program_directory;
        const std::string text(source.c_str(), source.size());
        nb::gil_scoped_release release;
        return NativeProgram{compile(text, options)};
      },
      nb::arg("source"), nb::arg("file_name"), nb::arg("engine"), nb::arg("provenance"),
      nb::arg("outputs"), nb::arg("library_paths"), nb::arg("partitions"), nb::arg("confinement"),
      nb::arg("program_directory"), nb::arg("seed").none(), nb::arg("params"));
  m.def(
      "compile_file",
      [](const std::string& path, const std::string& engine, const std::string& provenance,
         const std::vector<std::string>& outputs, const std::vector<std::string>& library_paths,
         const std::map<std::string, uint64_t>& partitions, const Confinement& confinement,
         std::optional<uint64_t> seed, const std::map<std::string, std::string>& params) {
        CompileOptions options = options_of(path, engine, provenance, outputs, library_paths,
                                            partitions, confinement, seed, params);
        nb::gil_scoped_release release;
        return NativeProgram{compile_file(path, std::move(options))};
      },
      nb::arg("path"), nb::arg("engine"), nb::arg("provenance"), nb::arg("outputs"),
      nb::arg("library_paths"), nb::arg("partitions"), nb::arg("confinement"),
      nb::arg("seed").none(), nb::arg("params"));

  nb::class_<NativeState>(m, "State",
                          "Per-request evaluation state (Program.state): one per thread is "
                          "fastest; a shared one is serialized.")
      .def("set_inputs", &NativeState::set_inputs,
           "Writes the coordinate inputs in declaration order: set_inputs(7), set_inputs(7, 1) "
           "or set_inputs([7, 1]).")
      .def("request", &NativeState::request, nb::arg("coordinates"), nb::arg("outputs"),
           "Serves one request: set_inputs(coordinates), then the values of the named scalar "
           "outputs, as a tuple, in one call. A str output is a WriteError (use pull).")
      .def("set_externs", &NativeState::set_externs,
           "Writes externs by name; None unsets one. A value of another type is a WriteError.")
      .def("pull", &NativeState::pull, nb::arg("name"),
           "Evaluates (lazily) and returns an output: int, float, bool, str, or None.")
      .def("__getitem__", &NativeState::pull, nb::arg("name"))
      .def(
          "eval",
          [](NativeState& s) {
            nb::gil_scoped_release release;
            const std::lock_guard guard(s.lock);
            s.state.eval();
          },
          "Brings every output up to date.")
      .def_prop_ro("engine", [](const NativeState& s) { return s.state.engine(); });
}

}  // namespace polyrt::python
