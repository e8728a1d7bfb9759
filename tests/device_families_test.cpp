// The device families (batch/device_family.hpp), registered in one table:
// each describes itself and its devices in generic terms, `polyrt devices`
// and polyrt::devices() loop over them, and the back ends for every
// BatchDevice come from them.
#include "scheduler/runtime/device_families.hpp"

#include <gtest/gtest.h>

#include "polyrt/batch.hpp"
#include "polyrt/devices.hpp"
#include "tests/test_support.hpp"

namespace polyrt {
namespace {

TEST(DeviceFamilies, TheCpuComesFirstAndEveryFamilyDescribesItself) {
  const std::vector<const batch::DeviceFamily*>& families = scheduler::device_families();
  ASSERT_GE(families.size(), 2u);
  EXPECT_EQ(families[0]->name(), "cpu");
  EXPECT_EQ(&scheduler::family_of(batch::DeviceKind::Cpu), families[0]);
  EXPECT_EQ(scheduler::family_of(batch::DeviceKind::Gpu).name(), "cuda");
  const Devices here = devices();
  ASSERT_EQ(here.families.size(), families.size());
  const std::vector<DeviceInfo> cpus = here.of_kind(DeviceKind::Cpu);
  ASSERT_EQ(cpus.size(), 1u);
  const Value* cores = find_property(cpus[0].properties, "cores");
  ASSERT_NE(cores, nullptr);
  EXPECT_GE(cores->as_u64(), 1u);
  EXPECT_EQ(cpus[0].description.rfind("cpu: " + std::to_string(cores->as_u64()) + " cores, ", 0),
            0u);
  EXPECT_EQ(here.why_none(DeviceKind::Cpu), "");
  const std::string text = describe_devices(here);
  EXPECT_EQ(text.rfind(cpus[0].description + "\n", 0), 0u) << text;
  const std::vector<DeviceInfo> gpus = here.of_kind(DeviceKind::Gpu);
  if (gpus.empty()) {
    // No driver (or no device): the reason is the family's, and the line says it.
    EXPECT_FALSE(here.why_none(DeviceKind::Gpu).empty());
    EXPECT_NE(text.find("gpu: none (" + here.why_none(DeviceKind::Gpu) + ")\n"), std::string::npos);
    return;
  }
  for (const DeviceInfo& g : gpus) {
    EXPECT_EQ(g.family, "cuda");
    ASSERT_NE(find_property(g.properties, "compute_capability"), nullptr);
    EXPECT_GE(find_property(g.properties, "compute_capability")->as_u64(), 60u);
    EXPECT_NE(text.find(g.description), std::string::npos);
  }
  EXPECT_NE(find_property(here.families[1].properties, "driver_version"), nullptr);
  EXPECT_EQ(here.why_none(DeviceKind::Gpu), "");
}

TEST(DeviceFamilies, TheCpuFamilyHasOneDeviceThatRunsTheBatch) {
  const batch::DeviceFamily& cpu = scheduler::family_of(batch::DeviceKind::Cpu);
  std::string why;
  EXPECT_EQ(cpu.usable_devices(why), std::vector<int>{0});
  EXPECT_EQ(why, "");
  BatchOptions options;
  options.device = BatchDevice::Cpu;
  const BatchEvaluator batch(compile("input c\nv := hash(c)\n"), options);
  EXPECT_EQ(batch.device_name(), "cpu");
  EXPECT_EQ(batch.evaluate(3, 1)[0].words.size(), 1u);
}

}  // namespace
}  // namespace polyrt
