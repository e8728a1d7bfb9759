// What each binding file adds to the _polyrt module.
#pragma once

#include <nanobind/nanobind.h>

namespace polyrt::python {

// polyrt.Error and one subclass per C++ exception type, with the same
// messages (CompileError also carries file, line and column; EvalError the
// failing node).
void bind_errors(nanobind::module_& m);
// compile(), Program, State.
void bind_program(nanobind::module_& m);
// Program.batch's native half: evaluation into numpy arrays.
void bind_batch(nanobind::module_& m);
// write_parquet's files (the command's rules) and valid UTF-8 for Arrow.
void bind_output(nanobind::module_& m);
// devices(): the CPU and GPUs the batch tier can use, or why no GPU.
void bind_devices(nanobind::module_& m);
// bench(): a program measured on every tier and device here.
void bind_bench(nanobind::module_& m);
// register_node(): a Python function as a host node.
void bind_host_nodes(nanobind::module_& m);

}  // namespace polyrt::python
