#include "scheduler/output/temporary_files.hpp"

#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <filesystem>
#include <string>
#include <vector>

namespace polyrt::scheduler {

namespace {

std::string prefix_of(const std::string& name) {
  return "." + name + ".polyrt-tmp-";
}

std::string host_name() {
  char host[HOST_NAME_MAX + 1] = {};
  if (::gethostname(host, sizeof host - 1) != 0) return "unknown";
  return host;
}

bool process_exists(long pid) {
  return ::kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

}  // namespace

std::string temporary_name(const std::string& name) {
  return prefix_of(name) + std::to_string(::getpid()) + "-" + host_name();
}

void remove_stale_temporaries(const std::string& dir, const std::string& name) {
  const std::string prefix = prefix_of(name);
  const std::string host = host_name();
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  std::vector<std::string> stale;
  while (const dirent* e = ::readdir(d)) {
    const std::string entry = e->d_name;
    if (entry.compare(0, prefix.size(), prefix) != 0) continue;
    size_t at = prefix.size();
    long pid = 0;
    while (at < entry.size() && entry[at] >= '0' && entry[at] <= '9' && pid < 1L << 40)
      pid = pid * 10 + (entry[at++] - '0');
    if (pid <= 0 || at >= entry.size() || entry[at] != '-') continue;
    const std::string rest = entry.substr(at + 1);  // HOST or HOST-XXXXXX
    const bool ours = rest == host || (rest.size() == host.size() + 7 &&
                                       rest.compare(0, host.size() + 1, host + "-") == 0);
    if (ours && !process_exists(pid)) stale.push_back(dir + "/" + entry);
  }
  ::closedir(d);
  for (const std::string& path : stale) {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
}

}  // namespace polyrt::scheduler
