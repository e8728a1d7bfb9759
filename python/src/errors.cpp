// C++ exceptions become Python exceptions of the same name under one base,
// polyrt.Error, with the same message.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include "polyrt/error.hpp"
#include "python/src/bindings.hpp"

namespace nb = nanobind;

namespace polyrt::python {
namespace {

// The Python class of each C++ exception type; set once at import.
struct ErrorClasses {
  PyObject* error = nullptr;
  PyObject* compile = nullptr;
  PyObject* constant_fold = nullptr;
  PyObject* refused = nullptr;
  PyObject* write = nullptr;
  PyObject* eval = nullptr;
  PyObject* device = nullptr;
  PyObject* usage = nullptr;
};
ErrorClasses classes;

PyObject* new_class(nb::module_& m, const char* name, PyObject* base, const char* doc) {
  PyObject* cls =
      PyErr_NewExceptionWithDoc((std::string("polyrt.") + name).c_str(), doc, base, nullptr);
  if (!cls) throw nb::python_error();
  m.attr(name) = nb::borrow(cls);
  return cls;
}

// Raises `cls(message)` with extra attributes set on the instance.
void raise(PyObject* cls, const char* message, const nb::dict& attributes = {}) {
  nb::object instance = nb::borrow(cls)(message);
  for (auto [key, value] : attributes) nb::setattr(instance, key, value);
  PyErr_SetObject(cls, instance.ptr());
}

void translate(const std::exception_ptr& thrown, void*) {
  try {
    std::rethrow_exception(thrown);
  } catch (const CompileError& e) {
    nb::dict at;
    at["file"] = e.file();
    at["line"] = e.line();
    at["column"] = e.column();
    raise(classes.compile, e.what(), at);
  } catch (const EvalError& e) {
    nb::dict at;
    at["node"] = e.node();
    raise(classes.eval, e.what(), at);
  } catch (const ConstantFoldError& e) {
    raise(classes.constant_fold, e.what());
  } catch (const RefusedError& e) {
    raise(classes.refused, e.what());
  } catch (const WriteError& e) {
    raise(classes.write, e.what());
  } catch (const DeviceError& e) {
    raise(classes.device, e.what());
  } catch (const UsageError& e) {
    raise(classes.usage, e.what());
  } catch (const Error& e) {
    raise(classes.error, e.what());
  }
}

}  // namespace

void bind_errors(nb::module_& m) {
  classes.error = new_class(m, "Error", PyExc_Exception,
                            "Base of every polyrt failure: catch it to handle any of them.");
  classes.compile = new_class(m, "CompileError", classes.error,
                              "A parse, type or wiring error in a program; the message names "
                              "file:line:col (also the file, line and column attributes).");
  classes.constant_fold = new_class(m, "ConstantFoldError", classes.error,
                                    "A compile-constant node failed while being folded.");
  classes.refused = new_class(m, "RefusedError", classes.error,
                              "An engine or tier cannot run a construct; the message names it.");
  classes.write = new_class(m, "WriteError", classes.error,
                            "API misuse: an unknown name, a value of the wrong type, a bad "
                            "range, or an output that cannot be written.");
  classes.eval = new_class(m, "EvalError", classes.error,
                           "A node failed while evaluating; the message names the node, its "
                           "position and the coordinates (the node attribute names the node).");
  classes.device = new_class(m, "DeviceError", classes.error,
                             "A GPU cannot be used, or a CUDA driver call failed.");
  classes.usage = new_class(m, "UsageError", classes.error, "Bad usage or an I/O failure.");
  nb::register_exception_translator(translate);
}

}  // namespace polyrt::python
