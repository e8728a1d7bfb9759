#include "polyrt/device_info.hpp"

namespace polyrt {

const Value* find_property(const DeviceProperties& properties, std::string_view key) {
  for (const auto& [name, value] : properties) {
    if (name == key) return &value;
  }
  return nullptr;
}

}  // namespace polyrt
