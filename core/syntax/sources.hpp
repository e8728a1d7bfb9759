// The texts of one compilation: the program and the module files it reads,
// and one origin per inlined module call, so that a diagnostic quotes the
// right file and names the chain of calls that brought it there.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "syntax/source.hpp"

namespace polyrt::syntax {

class Sources {
 public:
  explicit Sources(const SourceText& program);

  // Keeps a module file's text alive for the compilation.
  const SourceText& keep(std::unique_ptr<SourceText> text);

  // A new origin: positions in `text`, reached through the call of module
  // `module` (defined at `defined_at` of `text`) at `call` (itself any origin).
  uint32_t add_module_call(const SourceText& text, const std::string& module, SourcePos defined_at,
                           SourcePos call);

  const SourceText& text_of(SourcePos pos) const { return *origins_[pos.origin].text; }
  size_t origin_count() const { return origins_.size(); }
  const std::string& file() const { return origins_[0].text->file(); }
  // "file:line:col" of a position.
  std::string location(SourcePos pos) const;
  // The lines naming each module call between `pos` and the program, innermost
  // first ("  in module 'm' (defined at lib.polydat:3:1), called at ..."); ""
  // for a position in the program itself.
  std::string call_chain(SourcePos pos) const;

  // A diagnostic at `pos`, formatted by its text, the call chain appended.
  std::string format(SourcePos pos, std::string_view message, size_t length = 1,
                     std::string_view hint = {}) const;
  // The same, as a warning.
  std::string warning(SourcePos pos, std::string_view message, size_t length = 1) const;
  [[noreturn]] void fail(SourcePos pos, std::string_view message, size_t length = 1,
                         std::string_view hint = {}) const;

 private:
  struct Origin {
    const SourceText* text;
    std::string module;  // "" for the program
    SourcePos defined_at;
    SourcePos call;
  };
  std::vector<Origin> origins_;
  std::vector<std::unique_ptr<SourceText>> kept_;
};

}  // namespace polyrt::syntax
