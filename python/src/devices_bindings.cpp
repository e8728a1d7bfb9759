// polyrt.devices(): what the batch tier can run on here, as plain data: the
// CPU's properties, each GPU's, and every family's own facts under its name
// ("cuda_driver_version"), all from the families' generic descriptions.
#include <nanobind/stl/string.h>

#include "polyrt/devices.hpp"
#include "python/src/bindings.hpp"
#include "python/src/values.hpp"

namespace nb = nanobind;

namespace polyrt::python {

namespace {

void put_properties(nb::dict& into, const DeviceProperties& properties,
                    const std::string& prefix = "") {
  for (const auto& [name, value] : properties) into[(prefix + name).c_str()] = to_python(value);
}

nb::object text_or_none(const std::string& text) {
  return text.empty() ? nb::none() : nb::object(nb::str(text.c_str()));
}

}  // namespace

void bind_devices(nb::module_& m) {
  m.def("devices", [] {
    const Devices d = devices();
    nb::dict out;
    nb::dict cpu;
    for (const DeviceInfo& c : d.of_kind(DeviceKind::Cpu)) put_properties(cpu, c.properties);
    out["cpu"] = cpu;
    nb::list gpus;
    for (const DeviceInfo& g : d.of_kind(DeviceKind::Gpu)) {
      nb::dict gpu;
      gpu["index"] = g.index;
      gpu["family"] = g.family;
      gpu["name"] = g.name;
      put_properties(gpu, g.properties);
      gpu["fault"] = text_or_none(g.fault);
      gpus.append(gpu);
    }
    out["gpus"] = gpus;
    out["no_gpu_reason"] = text_or_none(d.why_none(DeviceKind::Gpu));
    for (const DeviceFamilyInfo& family : d.families) {
      put_properties(out, family.properties, family.name + "_");
    }
    out["text"] = describe_devices(d);
    return out;
  });
}

}  // namespace polyrt::python
