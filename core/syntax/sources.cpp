#include "syntax/sources.hpp"

#include "polyrt/error.hpp"

namespace polyrt::syntax {

Sources::Sources(const SourceText& program) {
  origins_.push_back(Origin{&program, "", {}, {}});
}

const SourceText& Sources::keep(std::unique_ptr<SourceText> text) {
  kept_.push_back(std::move(text));
  return *kept_.back();
}

uint32_t Sources::add_module_call(const SourceText& text, const std::string& module,
                                  SourcePos defined_at, SourcePos call) {
  origins_.push_back(Origin{&text, module, defined_at, call});
  return (uint32_t)(origins_.size() - 1);
}

std::string Sources::location(SourcePos pos) const {
  return printable(text_of(pos).file()) + ":" + std::to_string(pos.line) + ":" +
         std::to_string(pos.col);
}

std::string Sources::call_chain(SourcePos pos) const {
  std::string out;
  for (uint32_t o = pos.origin; o != 0;) {
    const Origin& origin = origins_[o];
    SourcePos defined = origin.defined_at;
    defined.origin = o;
    out += "\n  in module '" + printable(origin.module) + "' (defined at " + location(defined) +
           "), called at " + location(origin.call);
    o = origin.call.origin;
  }
  return out;
}

std::string Sources::format(SourcePos pos, std::string_view message, size_t length,
                            std::string_view hint) const {
  return text_of(pos).format(pos, message, length, hint) + call_chain(pos);
}

std::string Sources::warning(SourcePos pos, std::string_view message, size_t length) const {
  return text_of(pos).format(pos, message, length, {}, "warning") + call_chain(pos);
}

void Sources::fail(SourcePos pos, std::string_view message, size_t length,
                   std::string_view hint) const {
  throw CompileError(format(pos, message, length, hint), text_of(pos).file(), pos.line, pos.col);
}

}  // namespace polyrt::syntax
