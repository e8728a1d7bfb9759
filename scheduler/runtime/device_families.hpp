// The registered device families (batch/device_family.hpp), the CPU first:
// the one table that names the back ends. A new kind of device is a
// back-end folder implementing batch::DeviceFamily and one line in
// device_families.cpp.
#pragma once

#include <vector>

#include "batch/device_family.hpp"

namespace polyrt::scheduler {

const std::vector<const batch::DeviceFamily*>& device_families();

// The first family of `kind` (InternalError without one).
const batch::DeviceFamily& family_of(batch::DeviceKind kind);

}  // namespace polyrt::scheduler
