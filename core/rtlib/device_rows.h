// The layout GPU kernels encode text rows from (device_rows.cpp): the host
// (gpu_backend) lays out one DeviceRowField per output and one for the row's
// end, in device memory, and the kernels read them. Freestanding (see
// text_writers.h).
#pragma once

#include "pd_rt.h"

namespace polyrt::rt {

// What a field's value is, per row.
enum class DeviceRowValue : uint32_t {
  None,  // no value: the prefix alone (a scalar's whole field, the row's end)
  U64,   // a word column, in decimal
  I64,
  F64,  // shortest round-trip text
  F32,  // an f32 (held as an f64): its own shortest text
  Bool,
  Text,      // a device-made str column: slots of `stride` bytes (rtlib.h)
  JsonText,  // a device-made json column: as itself in JSON Lines, else as Text
  Bytes,     // a device-made bytes column: its lowercase hex (a JSON string)
  Lane,      // the row's coordinate: `values` + row
};

struct DeviceRowField {
  uint64_t values = 0;  // the column's device address; Lane: the first row's coordinate
  uint64_t prefix = 0;  // device address of the bytes before the value
  uint32_t prefix_bytes = 0;
  uint32_t stride = 0;  // bytes per row of the column
  DeviceRowValue kind = DeviceRowValue::None;
  uint32_t unused = 0;
};

}  // namespace polyrt::rt
