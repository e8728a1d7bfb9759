// The on-disk cache of compiled code (host objects, PTX). Each entry is one
// file named by its key and the kind's suffix, with a header (magic, format version, key, length,
// checksum) that is verified on load: a corrupt or truncated file is ignored, deleted and later
// replaced, never loaded. Writes go to a temporary file renamed into place, so
// concurrent processes never see half an entry. The cache is best effort: an
// I/O failure only costs a recompile.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace polyrt::cache {

// POLYRT_CACHE=off, 0, false or no (any case) disables the cache (nullopt). Otherwise
// POLYRT_CACHE_DIR, else $XDG_CACHE_HOME/polyrt, else $HOME/.cache/polyrt.
std::optional<std::string> default_cache_dir();

class DiskCache {
 public:
  // suffix: the kind of entry (".o", ".ptx"), for whoever lists the directory.
  DiskCache(std::optional<std::string> dir, std::string suffix)
      : dir_(std::move(dir)), suffix_(std::move(suffix)) {}
  bool enabled() const { return dir_.has_value(); }
  const std::optional<std::string>& dir() const { return dir_; }
  std::optional<std::string> load(const std::string& key) const;
  void store(const std::string& key, std::string_view payload) const;
  std::string path_of(const std::string& key) const;

 private:
  std::optional<std::string> dir_;
  std::string suffix_;
};

}  // namespace polyrt::cache
