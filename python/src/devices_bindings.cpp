// polyrt.devices(): what the batch tier can run on here, as plain data.
#include <nanobind/stl/string.h>

#include "polyrt/devices.hpp"
#include "python/src/bindings.hpp"

namespace nb = nanobind;

namespace polyrt::python {

void bind_devices(nb::module_& m) {
  m.def("devices", [] {
    const Devices d = devices();
    nb::dict cpu;
    cpu["cores"] = d.cpu.cores;
    cpu["target"] = d.cpu.target;
    cpu["vector_isa"] = d.cpu.vector_isa;
    nb::list gpus;
    for (const GpuDeviceInfo& g : d.gpus) {
      nb::dict gpu;
      gpu["index"] = g.index;
      gpu["name"] = g.name;
      gpu["compute_capability"] = g.compute_capability;
      gpu["multiprocessors"] = g.multiprocessors;
      gpu["memory_bytes"] = g.memory_bytes;
      gpu["fault"] = g.fault.empty() ? nb::none() : nb::object(nb::str(g.fault.c_str()));
      gpus.append(gpu);
    }
    nb::dict out;
    out["cpu"] = cpu;
    out["gpus"] = gpus;
    out["no_gpu_reason"] =
        d.no_gpu_reason.empty() ? nb::none() : nb::object(nb::str(d.no_gpu_reason.c_str()));
    out["cuda_driver_version"] = d.cuda_driver_version;
    out["cuda_driver_library"] = d.cuda_driver_library;
    out["text"] = describe_devices(d);
    return out;
  });
}

}  // namespace polyrt::python
