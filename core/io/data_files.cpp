#include "io/data_files.hpp"

#include <filesystem>

#include "io/confinement.hpp"
#include "io/regular_file.hpp"

namespace polyrt::io {

namespace {
thread_local DataFileScope* current_scope = nullptr;
}  // namespace

DataFileScope::DataFileScope(std::string base) : base_(std::move(base)), outer_(current_scope) {
  current_scope = this;
}

DataFileScope::~DataFileScope() {
  current_scope = outer_;
}

std::optional<std::string> read_data_file(const std::string& path, std::string& why) {
  namespace fs = std::filesystem;
  std::string resolved = path;
  std::error_code ec;
  if (current_scope && !current_scope->base_.empty() && fs::path(path).is_relative() &&
      !fs::exists(path, ec)) {
    const fs::path candidate = fs::path(current_scope->base_) / path;
    if (fs::exists(candidate, ec)) resolved = candidate.string();
  }
  if (const Confinement* c = confinement()) {
    why = data_file_refusal(*c, resolved);
    if (!why.empty()) return std::nullopt;
  }
  RegularFile file = read_regular_file(resolved, kMaxDataFileBytes, true);
  switch (file.outcome) {
    case RegularFile::Outcome::Read:
      if (current_scope) current_scope->files_.push_back(resolved);
      return std::move(file.bytes);
    case RegularFile::Outcome::Unreadable:
      why = file.why;
      break;
    case RegularFile::Outcome::NotRegular:
      why = "it is " + file.why + ", not a data file";
      break;
    case RegularFile::Outcome::TooBig:
      why = "it is " + file.why + "; data files are limited to " +
            std::to_string(kMaxDataFileBytes >> 20) + " MiB";
      break;
  }
  return std::nullopt;
}

}  // namespace polyrt::io
