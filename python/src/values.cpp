#include "python/src/values.hpp"

#include <bit>
#include <string>

#include "polyrt/error.hpp"
#include "polyrt/numeric_types.hpp"
#include "program/program_internals.hpp"
#include "value/vector_values.hpp"

namespace nb = nanobind;

namespace polyrt::python {

nb::object to_python(const Value& value) {
  if (value.is_none()) return nb::none();
  const Type type = value.type();
  if (type == Type::Str || is_json_text(type)) {
    return text_to_python(value.text());  // json, partitions: their text
  }
  if (type == Type::Bytes) return nb::bytes(value.as_bytes().data(), value.as_bytes().size());
  if (is_vector(type)) {  // a list of its elements, as polydat gives one
    nb::list out;
    for (const Value& element : vector_elements(value)) out.append(to_python(element));
    return out;
  }
  if (type == Type::Bool) return nb::bool_(value.as_bool());
  if (is_float(type)) return nb::float_(value.as_f64());
  if (is_signed_integer(type)) return nb::int_(value.as_i64());
  return nb::int_(value.as_u64());
}

nb::object text_to_python(std::string_view text) {
  PyObject* s = PyUnicode_DecodeUTF8(text.data(), (Py_ssize_t)text.size(), "surrogateescape");
  if (!s) throw nb::python_error();
  return nb::steal(s);
}

std::string text_from_python(nb::handle object) {
  // The str's cached UTF-8 (no new object, as per-request externs want);
  // only a str holding surrogates needs the encoder.
  Py_ssize_t size = 0;
  if (const char* utf8 = PyUnicode_AsUTF8AndSize(object.ptr(), &size)) {
    return std::string(utf8, (size_t)size);
  }
  PyErr_Clear();
  nb::object encoded =
      nb::steal(PyUnicode_AsEncodedString(object.ptr(), "utf-8", "surrogateescape"));
  if (!encoded.is_valid()) throw nb::python_error();
  return std::string(PyBytes_AS_STRING(encoded.ptr()), (size_t)PyBytes_GET_SIZE(encoded.ptr()));
}

std::string message_text(nb::handle object) {
  const nb::object text = nb::steal(PyObject_Str(object.ptr()));
  nb::object encoded =
      text.is_valid()
          ? nb::steal(PyUnicode_AsEncodedString(text.ptr(), "utf-8", "backslashreplace"))
          : nb::object();
  if (!encoded.is_valid()) {
    PyErr_Clear();
    return "(a message that cannot be shown)";
  }
  return std::string(PyBytes_AS_STRING(encoded.ptr()), (size_t)PyBytes_GET_SIZE(encoded.ptr()));
}

std::optional<uint64_t> coordinate_of(nb::handle object) {
  PyObject* v = object.ptr();
  if (PyLong_CheckExact(v)) {
    const unsigned long long c = PyLong_AsUnsignedLongLong(v);
    if (c != (unsigned long long)-1 || !PyErr_Occurred()) return c;
  } else if (!PyBool_Check(v) && PyIndex_Check(v)) {
    nb::object as_int = nb::steal(PyNumber_Index(v));
    if (as_int.is_valid()) {
      const unsigned long long c = PyLong_AsUnsignedLongLong(as_int.ptr());
      if (c != (unsigned long long)-1 || !PyErr_Occurred()) return c;
    }
  }
  PyErr_Clear();
  return std::nullopt;
}

void refuse_coordinate(nb::handle object, const std::string& what) {
  throw WriteError(what + " is " + nb::repr(object).c_str() +
                   "; coordinates are ints from 0 to 2**64 - 1");
}

std::string name_from_python(nb::handle object, const std::string& what) {
  if (!PyUnicode_Check(object.ptr())) {
    throw WriteError(what + " must be a str, got " + nb::repr(object).c_str() + " (" +
                     Py_TYPE(object.ptr())->tp_name + ")");
  }
  return text_from_python(object);
}

namespace {

[[noreturn]] void refuse(nb::handle object, Type type, std::string_view name, const char* why) {
  throw WriteError("extern '" + std::string(name) + "' is " + std::string(type_name(type)) +
                   "; got " + nb::repr(object).c_str() + " (" + why + ")");
}

// An int extern of a type other than u64: range-checked.
Value integer_from_python(nb::handle object, Type type, std::string_view name) {
  const std::string range =
      std::to_string(integer_min(type)) + " to " + std::to_string(integer_max(type));
  if (!PyLong_Check(object.ptr()) || PyBool_Check(object.ptr())) {
    refuse(object, type, name, ("an int from " + range + " is expected").c_str());
  }
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(object.ptr(), &overflow);
  if (overflow || (v == -1 && PyErr_Occurred()) || !integer_fits((uint64_t)v, Type::I64, type)) {
    PyErr_Clear();
    refuse(object, type, name, ("out of range: " + range).c_str());
  }
  return Value::of_word(type, (uint64_t)v);
}

// A sequence of numbers (a list, a tuple, a numpy array) as a vector, each
// element checked as an extern of the element type would be.
Value vector_from_python(nb::handle object, Type type, std::string_view name) {
  nb::object items = nb::borrow(object);
  if (nb::hasattr(object, "tolist")) items = object.attr("tolist")();  // numpy scalars to Python
  if (!PyList_Check(items.ptr()) && !PyTuple_Check(items.ptr())) {
    refuse(object, type, name, "a list, tuple or numpy array of numbers is expected");
  }
  const Type element = vector_element(type);
  std::string payload;
  const std::string what = std::string(name) + "[";
  Py_ssize_t i = 0;
  for (nb::handle item : items) {
    const Value v = from_python(item, element, what + std::to_string(i++) + "]");
    if (v.is_none()) refuse(object, type, name, "an element is None");
    const uint64_t word = word_of(v);
    switch (element) {
      case Type::F32:
        append_vector_element(payload, (float)std::bit_cast<double>(word));
        break;
      case Type::I32:
        append_vector_element(payload, (int32_t)(int64_t)word);
        break;
      default:
        append_vector_element(payload, word);
        break;
    }
  }
  return Value::vector(type, std::move(payload));
}

}  // namespace

Value from_python(nb::handle object, Type type, std::string_view name) {
  if (object.is_none()) return Value::none();
  if (is_integer(type) && type != Type::U64) return integer_from_python(object, type, name);
  if (type == Type::F32) return Value::f32((float)from_python(object, Type::F64, name).as_f64());
  if (type == Type::Bytes) {
    if (!PyBytes_Check(object.ptr()) && !PyByteArray_Check(object.ptr())) {
      refuse(object, type, name, "bytes or bytearray is expected");
    }
    if (PyByteArray_Check(object.ptr())) {
      return Value::bytes(std::string(PyByteArray_AS_STRING(object.ptr()),
                                      (size_t)PyByteArray_GET_SIZE(object.ptr())));
    }
    return Value::bytes(
        std::string(PyBytes_AS_STRING(object.ptr()), (size_t)PyBytes_GET_SIZE(object.ptr())));
  }
  if (is_vector(type)) return vector_from_python(object, type, name);
  if (type == Type::Json) {  // its JSON text, checked and made compact
    if (!PyUnicode_Check(object.ptr())) refuse(object, type, name, "JSON text (a str) is expected");
    return parse_value(text_from_python(object), Type::Json, "extern " + std::string(name));
  }
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
      return Value::str(text_from_python(object));
    }
    default:
      break;
  }
  refuse(object, type, name, "unknown type");
}

Value extern_from_python(const Program& program, std::string_view name, nb::handle object) {
  const size_t index = ProgramInternals::resolve_extern_write(program, name, Value::none()).first;
  return from_python(object, program.externs()[index].type, name);
}

}  // namespace polyrt::python
