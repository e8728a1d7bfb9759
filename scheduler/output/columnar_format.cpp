#include "scheduler/output/columnar_format.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string_view>

#include "polyrt/error.hpp"
#include "scheduler/output/columnar_module.hpp"
#include "scheduler/output/output_sink.hpp"

namespace polyrt::scheduler {

namespace {

constexpr const char* kModuleName = "libpolyrt_arrow.so";

// Where the module may be: POLYRT_ARROW_MODULE, else beside the binary that
// holds polyrt (the build tree's cli/), else its installed place
// (PREFIX/lib/polyrt/ beside PREFIX/bin/).
std::vector<std::string> module_candidates() {
  if (const char* path = std::getenv("POLYRT_ARROW_MODULE"); path && *path) return {path};
  Dl_info info{};
  std::filesystem::path self = "/proc/self/exe";
  // Inside the program itself dladdr names it as it was started: a bare
  // `polyrt` when found on the PATH, which /proc/self/exe resolves.
  if (::dladdr(reinterpret_cast<void*>(&module_candidates), &info) != 0 && info.dli_fname &&
      std::string_view(info.dli_fname).find('/') != std::string_view::npos) {
    self = info.dli_fname;
  }
  std::error_code ec;
  const std::filesystem::path dir = std::filesystem::canonical(self, ec).parent_path();
  return {(dir / kModuleName).string(), (dir / ".." / "lib" / "polyrt" / kModuleName).string()};
}

struct Module {
  OpenColumnarWriter open = nullptr;
  std::string error;  // why it could not be loaded
};

const Module& module() {
  static Module loaded;
  static std::once_flag once;
  std::call_once(once, [] {
    std::string tried;
    for (const std::string& path : module_candidates()) {
      if (!std::filesystem::exists(path)) {
        tried += (tried.empty() ? "" : ", ") + path;
        continue;
      }
      void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!handle) {
        loaded.error = "polyrt's Arrow module " + path + " cannot be loaded: " + ::dlerror();
        return;
      }
      loaded.open = reinterpret_cast<OpenColumnarWriter>(::dlsym(handle, kOpenColumnarWriter));
      if (!loaded.open) loaded.error = path + " is not polyrt's Arrow module of this version";
      return;
    }
    loaded.error = "polyrt was built without its Arrow module (" + std::string(kModuleName) +
                   ", looked for at " + tried +
                   "); it is built when the pyarrow wheel (its Arrow and Parquet C++ "
                   "libraries) is installed where polyrt's build looks (`make build` installs it; "
                   "see docs/output.md)";
  });
  return loaded;
}

class HostSink final : public ByteSink {
 public:
  explicit HostSink(OutputSink& sink) : sink_(sink) {}
  void write(std::string_view bytes) override { sink_.write(bytes); }

 private:
  OutputSink& sink_;
};

// Module calls, their failures as OutputError (polyrt's own errors, such
// as an interruption, pass as they are).
template <typename F>
auto guarded(F&& call) {
  try {
    return call();
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw OutputError(e.what());
  }
}

class ColumnarFileWriter final : public FormatWriter {
 public:
  ColumnarFileWriter(const ColumnarSpec& spec, const OutputPlace& place)
      : sink_(place), host_sink_(sink_) {
    std::string error;
    writer_.reset(module().open(&spec, &host_sink_, &error));
    if (!writer_) throw OutputError("--format " + spec.format + ": " + error);
  }
  void encode(const ColumnChunk& chunk, std::string& bytes) const override {
    guarded([&] { writer_->encode(chunk, bytes); });
  }
  void write(std::string_view bytes) override {
    guarded([&] { writer_->write(bytes); });
  }
  void write_taking(std::string& bytes) override {
    guarded([&] { writer_->write_taking(bytes); });
  }
  void commit() override {
    guarded([&] { writer_->finish(); });
    writer_.reset();
    sink_.commit();
  }
  bool keeps_partial_output() const override { return sink_.keeps_partial_output(); }

 private:
  OutputSink sink_;
  HostSink host_sink_;
  std::unique_ptr<ColumnarWriter> writer_;
};

}  // namespace

std::string ColumnarFormat::module_error() {
  return module().open ? std::string() : module().error;
}

std::vector<Codec> ColumnarFormat::codecs() const {
  if (name_ == "parquet") return {Codec::Zstd, Codec::Snappy, Codec::Gzip, Codec::None};
  return {Codec::None, Codec::Zstd};  // Arrow IPC's body compression
}

std::unique_ptr<FormatWriter> ColumnarFormat::open(const OutputPlace& place,
                                                   const OutputColumns& columns) const {
  if (place.path.empty() && ::isatty(STDOUT_FILENO) == 1) {
    throw OutputError("--format " + std::string(name_) +
                      " is binary and is not written to a terminal; pass --out FILE or "
                      "redirect standard output" +
                      (name_ == "arrows" ? " (to a reader such as `| duckdb`)" : ""));
  }
  const Module& loaded = module();
  if (!loaded.open) throw OutputError("--format " + std::string(name_) + ": " + loaded.error);
  const Compression compression = columns.compression.value_or(Compression{codecs()[0], 0});
  ColumnarSpec spec{
      .format = std::string(name_),
      .names = columns.names,
      .types = columns.types,
      .dimensions = columns.dimensions,
      .logical_types = columns.logical_types,
      .nullable = columns.nullable,
      .codec = std::string(codec_name(compression.codec)),
      .level = compression.level,
      .row_group_rows = columns.row_group_rows ? columns.row_group_rows : kRowGroupRows};
  spec.dimensions.resize(spec.names.size());
  spec.logical_types.resize(spec.names.size());
  spec.nullable.resize(spec.names.size(), true);  // not said: it may be
  return std::make_unique<ColumnarFileWriter>(spec, place);
}

}  // namespace polyrt::scheduler
