// polyrt.register_node's native half: a Python function as a host node
// (polyrt/host_nodes.hpp). A row function takes and returns Python values;
// a vectorized one takes one numpy array per input (read-only views of the
// batch tier's columns, valid during the call) and returns an array of the
// chunk's length, and is also the row form (arrays of one row). Callbacks
// take the GIL; a Python exception becomes the EvalError of the row.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#include "polyrt/host_nodes.hpp"
#include "python/src/bindings.hpp"
#include "python/src/values.hpp"

namespace nb = nanobind;

namespace polyrt::python {
namespace {

// A type by its name in the language; register_node refuses the types a
// host node cannot take.
Type type_named(const std::string& name, const std::string& node) {
  Type type;
  if (parse_type_name(name, type)) return type;
  throw RegistrationError("host node '" + node + "': unknown type '" + name +
                          "' (valid: u64, i64, f64, bool, str)");
}

// Runs `body` with the GIL; a Python exception leaves as a std::runtime_error
// carrying its type and message (the Python error object is released under
// the GIL).
template <typename Body>
auto with_gil(const Body& body) -> decltype(body()) {
  std::string message;
  {
    nb::gil_scoped_acquire gil;
    try {
      return body();
    } catch (nb::python_error& e) {
      // "ValueError: message": the traceback is the host's, not the row's.
      message = message_text(e.type().attr("__name__")) + ": " + message_text(e.value());
    }
  }
  throw std::runtime_error(message);
}

// A row function's value as `result`, or a message in the node's words: what
// it returned and the type it was registered with (from_python speaks of
// externs).
Value row_result(nb::handle out, Type result, const std::string& name) {
  const bool is_int = PyLong_Check(out.ptr()) && !PyBool_Check(out.ptr());
  const bool fits = result == Type::Bool  ? PyBool_Check(out.ptr())
                    : result == Type::Str ? PyUnicode_Check(out.ptr())
                    : result == Type::F64 ? is_int || PyFloat_Check(out.ptr())
                                          : is_int;
  if (!fits) {
    throw std::runtime_error("host node '" + name + "' returned " + message_text(nb::repr(out)) +
                             " (a " + Py_TYPE(out.ptr())->tp_name + "), not the " +
                             std::string(type_name(result)) + " it was registered with");
  }
  try {
    return from_python(out, result, name);
  } catch (const WriteError&) {
    throw std::runtime_error("host node '" + name + "' returned " + message_text(nb::repr(out)) +
                             ", out of the range of the " + std::string(type_name(result)) +
                             " it was registered with");
  }
}

// A vectorized function's array as `result`'s dtype, refusing what numpy
// would cast unsafely (0.5 to 0, -5 to 2^64 - 5, text to numbers), as the
// row form refuses those values.
nb::object result_array(nb::handle out, Type result, const std::string& name) {
  nb::module_ np = nb::module_::import_("numpy");
  nb::object array = np.attr("asarray")(out);
  const std::string kind = nb::cast<std::string>(array.attr("dtype").attr("kind"));
  const auto refuse = [&](const std::string& why) {
    throw std::runtime_error("host node '" + name + "' returned an array of " +
                             message_text(array.attr("dtype")) + why + ", not the " +
                             std::string(type_name(result)) + " it was registered with");
  };
  const bool empty = nb::cast<size_t>(array.attr("size")) == 0;
  switch (result) {
    case Type::F64:
      if (kind != "f" && kind != "i" && kind != "u") refuse("");
      break;
    case Type::Bool:
      if (kind != "b") refuse("");
      break;
    case Type::I64:
      if (kind == "u" && !empty && nb::cast<uint64_t>(array.attr("max")()) > (uint64_t)INT64_MAX) {
        refuse(" with a value above 2**63 - 1");
      }
      if (kind != "i" && kind != "u") refuse("");
      break;
    default:  // u64
      if (kind == "i" && !empty && nb::cast<int64_t>(array.attr("min")()) < 0) {
        refuse(" with a negative value");
      }
      if (kind != "i" && kind != "u") refuse("");
      break;
  }
  return array;
}

// A column (or a scalar of the chunk) as a numpy array of `rows`.
nb::object column_array(const HostColumn& c, uint64_t rows) {
  if (c.type == Type::Str) {
    nb::list texts;
    for (uint64_t r = 0; r < rows; ++r) texts.append(text_to_python(c.text(r)));
    return texts;
  }
  const size_t shape[1] = {(size_t)rows};
  const int64_t strides[1] = {(int64_t)c.stride};
  nb::object words;
  if (c.type == Type::F64) {
    words = nb::cast(nb::ndarray<nb::numpy, const double, nb::ndim<1>>(
        reinterpret_cast<const double*>(c.words), 1, shape, nb::handle(), strides));
  } else if (c.type == Type::I64) {
    words = nb::cast(nb::ndarray<nb::numpy, const int64_t, nb::ndim<1>>(
        reinterpret_cast<const int64_t*>(c.words), 1, shape, nb::handle(), strides));
  } else {
    words = nb::cast(nb::ndarray<nb::numpy, const uint64_t, nb::ndim<1>>(c.words, 1, shape,
                                                                         nb::handle(), strides));
  }
  if (c.type == Type::Bool) return words.attr("astype")("bool");
  return words;
}

const char* dtype_of(Type t) {
  switch (t) {
    case Type::F64:
      return "float64";
    case Type::I64:
      return "int64";
    case Type::Bool:
      return "bool";
    default:
      return "uint64";
  }
}

// A vectorized function's result for a chunk: `rows` values of `result`.
void store_result(nb::handle out, Type result, uint64_t rows, const HostChunk& chunk,
                  const std::string& name) {
  const auto wrong_length = [&](size_t got) {
    return std::runtime_error("returned " + std::to_string(got) + " values for " +
                              std::to_string(rows) + " rows ('" + name + "' is vectorized)");
  };
  if (result == Type::Str) {
    const size_t got = nb::len(out);
    if (got != rows) throw wrong_length(got);
    for (nb::handle item : out) {
      if (!nb::isinstance<nb::str>(item)) {
        throw std::runtime_error("returned a non-str item for a str result");
      }
      chunk.texts->push_back(text_from_python(item));
    }
    return;
  }
  nb::module_ np = nb::module_::import_("numpy");
  nb::object array =
      np.attr("ascontiguousarray")(result_array(out, result, name), dtype_of(result));
  const size_t got = nb::cast<size_t>(array.attr("size"));
  if (got != rows || nb::cast<size_t>(array.attr("ndim")) != 1) throw wrong_length(got);
  if (result == Type::Bool) array = array.attr("astype")("uint64");
  const auto view = nb::cast<nb::ndarray<const uint8_t, nb::c_contig>>(array.attr("view")("uint8"));
  std::memcpy(chunk.words, view.data(), rows * 8);
}

// The registered functions. The registry outlives the interpreter, so
// their references are dropped when it exits (atexit), after which a host
// node's callback refuses to run.
struct Functions {
  std::vector<PyObject*> held;
  bool released = false;
};

Functions& functions() {
  static Functions f;
  return f;
}

nb::object call(PyObject* function, nb::list args) {
  if (functions().released) throw std::runtime_error("the Python interpreter has exited");
  return nb::handle(function)(*nb::tuple(args));
}

}  // namespace

void bind_host_nodes(nb::module_& m) {
  nb::module_::import_("atexit").attr("register")(nb::cpp_function([] {
    Functions& f = functions();
    for (PyObject* function : f.held) Py_DECREF(function);
    f.held.clear();
    f.released = true;
  }));
  m.def(
      "_register_node",
      [](const std::string& name, const std::vector<std::string>& inputs, const std::string& result,
         bool pure, nb::callable fn, bool vectorized, const std::string& summary) {
        HostNode node;
        node.name = name;
        for (const std::string& t : inputs) node.inputs.push_back(type_named(t, name));
        node.result = type_named(result, name);
        node.pure = pure;
        node.summary = summary;
        PyObject* const callable = fn.inc_ref().ptr();
        functions().held.push_back(callable);
        const auto function = [callable](nb::list args) { return call(callable, args); };
        const Type result_type = node.result;
        if (!vectorized) {
          node.row = [function, result_type, name](std::span<const Value> in) {
            return with_gil([&] {
              nb::list args;
              for (const Value& v : in) args.append(to_python(v));
              nb::object out = function(args);
              return row_result(out, result_type, name);
            });
          };
        } else {
          const std::vector<Type> input_types = node.inputs;
          node.columns = [function, result_type, name](const HostChunk& chunk) {
            with_gil([&] {
              nb::list args;
              for (const HostColumn& c : chunk.inputs) args.append(column_array(c, chunk.rows));
              store_result(function(args), result_type, chunk.rows, chunk, name);
              return 0;
            });
          };
          // One row: the chunk form over columns of one row.
          node.row = [columns = node.columns, input_types, result_type](std::span<const Value> in) {
            std::vector<uint64_t> words(in.size());
            std::vector<std::array<int64_t, 2>> offsets(in.size());
            std::vector<HostColumn> cols(in.size());
            for (size_t k = 0; k < in.size(); ++k) {
              cols[k].type = input_types[k];
              if (input_types[k] == Type::Str) {
                offsets[k] = {0, (int64_t)in[k].as_str().size()};
                cols[k].offsets = offsets[k].data();
                cols[k].bytes = in[k].as_str().data();
              } else {
                words[k] = input_types[k] == Type::F64    ? std::bit_cast<uint64_t>(in[k].as_f64())
                           : input_types[k] == Type::I64  ? (uint64_t)in[k].as_i64()
                           : input_types[k] == Type::Bool ? (uint64_t)in[k].as_bool()
                                                          : in[k].as_u64();
                cols[k].words = &words[k];
              }
            }
            uint64_t word = 0;
            std::vector<std::string> texts;
            columns(HostChunk{.rows = 1,
                              .inputs = cols,
                              .words = result_type == Type::Str ? nullptr : &word,
                              .texts = result_type == Type::Str ? &texts : nullptr});
            switch (result_type) {
              case Type::Str:
                return Value::str(std::move(texts.at(0)));
              case Type::F64:
                return Value::f64(std::bit_cast<double>(word));
              case Type::I64:
                return Value::i64((int64_t)word);
              case Type::Bool:
                return Value::boolean(word != 0);
              default:
                return Value::u64(word);
            }
          };
        }
        register_node(std::move(node));
      },
      nb::arg("name"), nb::arg("inputs"), nb::arg("result"), nb::arg("pure"), nb::arg("fn"),
      nb::arg("vectorized"), nb::arg("summary"));
}

}  // namespace polyrt::python
