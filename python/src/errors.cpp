// C++ exceptions become Python exceptions of the same name under one base,
// polyrt.Error, with the same message.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include "polyrt/batch.hpp"
#include "polyrt/error.hpp"
#include "polyrt/host_nodes.hpp"
#include "python/src/bindings.hpp"

namespace nb = nanobind;

namespace polyrt::python {
namespace {

template <typename T>
bool is(const Error& e) {
  return dynamic_cast<const T*>(&e) != nullptr;
}

// One Python class per C++ exception type, most derived first: the first
// that matches names the class an exception is raised as.
struct ErrorKind {
  const char* name;
  const char* doc;
  bool (*matches)(const Error&);
  PyObject* python_class = nullptr;  // made at import
};
ErrorKind kinds[] = {
    {"CompileError",
     "A parse, type or wiring error in a program; the message names file:line:col (also the "
     "file, line and column attributes).",
     is<CompileError>},
    {"ConstantFoldError", "A compile-constant node failed while being folded.",
     is<ConstantFoldError>},
    {"RefusedError", "An engine or tier cannot run a construct; the message names it.",
     is<RefusedError>},
    {"WriteError",
     "API misuse: an unknown name, a value of the wrong type, a bad range, or an output that "
     "cannot be written.",
     is<WriteError>},
    {"EvalError",
     "A node failed while evaluating; the message names the node, its position and the "
     "coordinates (the node attribute names the node).",
     is<EvalError>},
    {"DeviceError", "A GPU cannot be used, or a CUDA driver call failed.", is<DeviceError>},
    {"RegistrationError",
     "A host node that cannot be registered: its name taken or not a name, a type a host node "
     "cannot take.",
     is<RegistrationError>},
    {"StoppedError", "A batch call was stopped from another thread.", is<StoppedError>},
    {"OutputError",
     "Output that cannot be written or put in place (a symbolic link, a read-only file, a "
     "source of the program, an I/O failure); the message names the path and the reason.",
     is<OutputError>},
    {"InternalError",
     "A broken invariant of polyrt itself (a bug to report); the message names where it was "
     "detected.",
     is<InternalError>},
    {"Error", "Base of every polyrt failure: catch it to handle any of them.", is<Error>},
};

void translate(const std::exception_ptr& thrown, void*) {
  try {
    std::rethrow_exception(thrown);
  } catch (const Error& e) {
    ErrorKind* kind = kinds;
    while (!kind->matches(e)) ++kind;  // the last, Error, matches every one
    nb::object instance = nb::borrow(kind->python_class)(e.what());
    if (const auto* compile = dynamic_cast<const CompileError*>(&e)) {
      nb::setattr(instance, "file", nb::str(compile->file().c_str()));
      nb::setattr(instance, "line", nb::int_(compile->line()));
      nb::setattr(instance, "column", nb::int_(compile->column()));
    } else if (const auto* eval = dynamic_cast<const EvalError*>(&e)) {
      nb::setattr(instance, "node", nb::str(eval->node().c_str()));
    }
    PyErr_SetObject(kind->python_class, instance.ptr());
  }
}

}  // namespace

void bind_errors(nb::module_& m) {
  const auto make = [&](ErrorKind& kind, PyObject* parent) {
    kind.python_class = PyErr_NewExceptionWithDoc((std::string("polyrt.") + kind.name).c_str(),
                                                  kind.doc, parent, nullptr);
    if (!kind.python_class) throw nb::python_error();
    m.attr(kind.name) = nb::borrow(kind.python_class);
  };
  ErrorKind& base = kinds[std::size(kinds) - 1];
  make(base, PyExc_Exception);
  for (ErrorKind& kind : kinds) {
    if (&kind != &base) make(kind, base.python_class);
  }
  nb::register_exception_translator(translate);
}

}  // namespace polyrt::python
