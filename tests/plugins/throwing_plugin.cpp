// A plugin whose register function throws what is not a std::exception (an
// int): loading it must be a RegistrationError, never the end of the process
// (it once aborted the command, exit 134).
#include "polyrt/host_nodes.hpp"

extern "C" void polyrt_plugin_register(polyrt::HostRegistry&) {
  throw 42;
}
