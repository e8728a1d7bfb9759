// The kinds of device a batch runs on, one definition for the back ends
// (batch::BatchBackend::device) and the API (DeviceColumn).
#pragma once

#include <cstdint>

namespace polyrt {

enum class DeviceKind : uint8_t { Cpu, Gpu };

}  // namespace polyrt
