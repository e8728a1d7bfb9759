// polydat's fft_analyze: a diagnostic that gathers a signal's samples in
// windows of window_size and, as each window fills, appends its discrete
// Fourier transform to a JSON Lines file. Its value is how many samples the
// window held before this one, so it depends on the order evaluations come
// in: it is volatile, a per-state engine's node (the batch tier refuses it),
// and its windows follow the rows' order only with one thread.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "io/confinement.hpp"
#include "nodes/registry.hpp"
#include "rtlib/rtlib.h"

namespace polyrt::nodes {

namespace {

using P = PortType;

// A window's transform costs window_size operations per sample.
constexpr uint64_t kMaxWindow = uint64_t(1) << 16;

// One program's analyzer: the window being filled and the file its
// transforms go to, opened (created or truncated) at the first sample.
struct Analyzer {
  std::string path;
  size_t window = 0;
  mutable std::mutex mutex;
  mutable std::vector<double> samples;
  mutable int fd = -1;
  ~Analyzer() {
    if (fd >= 0) ::close(fd);
  }
};

std::string json_numbers(const std::vector<double>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    out += (i ? "," : "") + json_of(Value::f64(values[i]));
  }
  return out + "]";
}

// The window's line: magnitudes |X_k| / n and phases atan2(im, re) for k in
// 0..n/2, with polydat's keys in serde_json's (sorted) order.
std::string transform_line(const std::vector<double>& x) {
  const size_t n = x.size();
  std::vector<double> magnitudes, phases;
  for (size_t k = 0; k <= n / 2; ++k) {
    double re = 0, im = 0;
    for (size_t i = 0; i < n; ++i) {
      const double angle = -2.0 * 3.141592653589793 * (double)k * (double)i / (double)n;
      re += x[i] * pd_cos(angle);
      im += x[i] * pd_sin(angle);
    }
    magnitudes.push_back(pd_sqrt(re * re + im * im) / (double)n);
    phases.push_back(pd_atan2(im, re));
  }
  const double fundamental = magnitudes.size() > 1 ? magnitudes[1] : 0.0;
  return "{\"dc\":" + json_of(Value::f64(magnitudes[0])) +
         ",\"fundamental\":" + json_of(Value::f64(fundamental)) +
         ",\"magnitudes\":" + json_numbers(magnitudes) + ",\"phases\":" + json_numbers(phases) +
         ",\"window_size\":" + std::to_string(n) + "}\n";
}

// Writes the whole line (a window's line is never split between writes).
void append_line(const Analyzer& a, const std::string& line) {
  for (size_t done = 0; done < line.size();) {
    const ssize_t n = ::write(a.fd, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw NodeFailure{"cannot write " + a.path + ": " + std::strerror(errno)};
    done += (size_t)n;
  }
}

// Opens (creates or truncates) the analyzer's file. Without a reader a
// pipe would block the open for ever: it is opened without blocking, and a
// pipe or socket is refused.
void open_file(const Analyzer& a) {
  const int fd =
      ::open(a.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0644);
  if (fd < 0) throw NodeFailure{"cannot create " + a.path + ": " + std::strerror(errno)};
  struct stat st {};
  if (::fstat(fd, &st) != 0 || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
    ::close(fd);
    throw NodeFailure{"cannot write " + a.path + ": a pipe or socket; fft_analyze writes a file"};
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  a.fd = fd;
}

std::shared_ptr<const Prepared> make_analyzer(const std::vector<Value>& p) {
  if (io::confinement()) {
    throw ParamError{
        0, "an untrusted program writes no file (fft_analyze writes " + p[0].as_str() + ")"};
  }
  if (p[0].as_str().empty()) throw ParamError{0, "the file name is empty"};
  const uint64_t window = p[1].as_u64();
  if (window > kMaxWindow) {
    throw ParamError{
        1, "window_size " + std::to_string(window) + " is above " + std::to_string(kMaxWindow)};
  }
  auto analyzer = std::make_shared<Analyzer>();
  analyzer->path = p[0].as_str();
  analyzer->window = window < 2 ? 2 : (size_t)window;  // polydat's least window
  auto prepared = std::make_shared<Prepared>();
  prepared->extra = analyzer;
  return prepared;
}

void analyze(Call& c) {
  const auto& a = *static_cast<const Analyzer*>(c.prepared().extra.get());
  std::lock_guard<std::mutex> hold(a.mutex);
  if (a.fd < 0) open_file(a);
  c.set_u64(a.samples.size());
  a.samples.push_back(c.f64(0));
  if (a.samples.size() < a.window) return;
  const std::string line = transform_line(a.samples);
  a.samples.clear();
  append_line(a, line);
}

}  // namespace

void register_spectrum_nodes(Registry& r) {
  r.add({.name = "fft_analyze",
         .family = "diagnostic",
         .args = {wire("signal", P::F64), konst("filename", P::Str),
                  konst("window_size", P::U64, Value::u64(256))},
         .results = {Type::U64},
         .purity = Purity::Nondeterministic,
         .can_fail = true,
         .summary =
             "How many samples the current window held before this one (0 .. window_size - 1, "
             "at least 2, at most 65536). As each window of signal's samples fills, one JSON "
             "line goes to filename (created or truncated at the first sample): \"dc\", "
             "\"fundamental\", \"magnitudes\" (|X_k| / n for k in 0..n/2), \"phases\" "
             "(atan2(im, re)) and \"window_size\" of its discrete Fourier transform. The "
             "windows follow the order evaluations come in: the rows' order with one thread "
             "(--threads 1); a per-state engine's node, refused by the batch tier and by an "
             "untrusted compile.",
         .failure = "filename cannot be created or written",
         .prepare = make_analyzer,
         .eval = analyze,
         .batch_refusal = "its windows take samples in the order evaluations come, which the "
                          "batch tier's lanes and threads do not have"});
}

}  // namespace polyrt::nodes
