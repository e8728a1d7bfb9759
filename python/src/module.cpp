// The _polyrt extension module; python/polyrt/__init__.py is its public face.
#include "polyrt/version.hpp"
#include "python/src/bindings.hpp"

NB_MODULE(_polyrt, m) {
  m.doc() = "polyrt's native core (use the polyrt package, not this module)";
  polyrt::python::bind_errors(m);
  polyrt::python::bind_program(m);
  polyrt::python::bind_batch(m);
  polyrt::python::bind_output(m);
  polyrt::python::bind_devices(m);
  polyrt::python::bind_bench(m);
  polyrt::python::bind_host_nodes(m);
  m.attr("__version__") = polyrt::build_info().version;
}
