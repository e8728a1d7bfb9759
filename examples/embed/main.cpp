// Embedding polyrt: compile a program, pull values per request from a State,
// and evaluate a range in bulk with the batch API; the two agree.
#include <polyrt/batch.hpp>
#include <polyrt/polyrt.hpp>
#include <polyrt/version.hpp>

#include <cstdio>

int main() {
  const char* source =
      "input cycle: u64\n"
      "extern tenant: u64 = 7\n"
      "user_id := mod(hash(cycle ^ hash(tenant)), 1000000)\n"
      "score   := dist_normal(unit_interval(hash(cycle)), 600.0, 80.0)\n"
      "email   := \"user{user_id}@example.com\"\n";
  try {
    std::shared_ptr<const polyrt::Program> program = polyrt::compile(source);

    // Per request: one State per thread, a few values at a time.
    polyrt::State state = program->new_state();
    state.set_inputs({42});
    std::printf("polyrt %s: cycle 42 -> user_id %s, email %s\n", polyrt::build_info().version,
                state.pull("user_id").to_string().c_str(), state.pull("email").to_string().c_str());

    // In bulk: columns over a range of cycles, on every core.
    polyrt::BatchOptions options;
    options.outputs = {"user_id", "score"};
    const polyrt::BatchEvaluator batch(program, options);
    const std::vector<polyrt::Column> columns = batch.evaluate(0, 100000);
    for (uint64_t row : {uint64_t{0}, uint64_t{42}, uint64_t{99999}}) {
      state.set_inputs({row});
      if (polyrt::word_of(state.pull("user_id")) != columns[0].words[row] ||
          polyrt::word_of(state.pull("score")) != columns[1].words[row]) {
        std::fprintf(stderr, "the batch and the state disagree at cycle %llu\n",
                     (unsigned long long)row);
        return 1;
      }
    }
    std::printf("batch: %zu rows of %zu columns on %s, equal to the per-request values\n",
                columns[0].words.size(), columns.size(), batch.device_name().c_str());
    return 0;
  } catch (const polyrt::Error& e) {
    std::fprintf(stderr, "polyrt: %s\n", e.what());
    return 1;
  }
}
