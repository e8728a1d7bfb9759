#include "python/src/values.hpp"

#include <string>

#include "polyrt/error.hpp"

namespace nb = nanobind;

namespace polyrt::python {

nb::object to_python(const Value& value) {
  if (value.is_none()) return nb::none();
  switch (value.type()) {
    case Type::U64:
      return nb::int_(value.as_u64());
    case Type::F64:
      return nb::float_(value.as_f64());
    case Type::Bool:
      return nb::bool_(value.as_bool());
    case Type::Str:
      return nb::str(value.as_str().data(), value.as_str().size());
  }
  return nb::none();
}

namespace {

[[noreturn]] void refuse(nb::handle object, Type type, std::string_view name, const char* why) {
  throw WriteError("extern '" + std::string(name) + "' is " + std::string(type_name(type)) +
                   "; got " + nb::repr(object).c_str() + " (" + why + ")");
}

}  // namespace

Value from_python(nb::handle object, Type type, std::string_view name) {
  if (object.is_none()) return Value::none();
  switch (type) {
    case Type::U64: {
      if (!PyLong_Check(object.ptr()) || PyBool_Check(object.ptr())) {
        refuse(object, type, name, "an int from 0 to 2**64 - 1 is expected");
      }
      const unsigned long long v = PyLong_AsUnsignedLongLong(object.ptr());
      if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        refuse(object, type, name, "out of range: 0 to 2**64 - 1");
      }
      return Value::u64(v);
    }
    case Type::F64:
      if (PyFloat_Check(object.ptr())) return Value::f64(PyFloat_AsDouble(object.ptr()));
      if (PyLong_Check(object.ptr()) && !PyBool_Check(object.ptr())) {
        const double d = PyLong_AsDouble(object.ptr());
        if (d == -1.0 && PyErr_Occurred()) {
          PyErr_Clear();
          refuse(object, type, name, "too large for a double");
        }
        return Value::f64(d);
      }
      refuse(object, type, name, "a float is expected");
    case Type::Bool:
      if (!PyBool_Check(object.ptr())) refuse(object, type, name, "True or False is expected");
      return Value::boolean(object.ptr() == Py_True);
    case Type::Str: {
      if (!PyUnicode_Check(object.ptr())) refuse(object, type, name, "a str is expected");
      Py_ssize_t size = 0;
      const char* text = PyUnicode_AsUTF8AndSize(object.ptr(), &size);
      if (!text) throw nb::python_error();
      return Value::str(std::string(text, (size_t)size));
    }
  }
  refuse(object, type, name, "unknown type");
}

Value extern_from_python(const Program& program, std::string_view name, nb::handle object) {
  const size_t index = program.resolve_extern_write(name, Value::none()).first;
  return from_python(object, program.externs()[index].type, name);
}

}  // namespace polyrt::python
