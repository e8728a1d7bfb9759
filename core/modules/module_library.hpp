// Where a called module is found when the program does not define it and no
// node has its name: `<name>.polydat`, then every other `.polydat` file (in
// name order) of each directory searched, then polyrt's embedded standard
// library. A file is read and parsed at most once per compilation.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "syntax/ast.hpp"
#include "syntax/sources.hpp"

namespace polyrt::modules {

using syntax::Ast;
using syntax::ModuleDef;
using syntax::SourcePos;
using syntax::Sources;
using syntax::SourceText;

// A directory searched for modules, and what put it on the path (named in
// diagnostics: "--lib", "POLYRT_LIB_PATH", "the program's directory").
struct LibraryDirectory {
  std::string path;
  std::string origin;
  // Skipped when it does not exist, as a shell skips a missing PATH entry
  // (the environment's directories); one named explicitly must exist.
  bool optional = false;
};

struct FoundModule {
  const ModuleDef* def;
  const SourceText* text;  // the file that defines it
};

class ModuleLibrary {
 public:
  // `program_path`: the program's own file, never searched ("" for none).
  ModuleLibrary(Sources& sources, std::vector<LibraryDirectory> directories,
                std::string program_path);

  // The module `name`, or nullopt when no file defines it. A read or parse
  // failure of `<name>.polydat`, or of a directory on the path, is a
  // CompileError that names `call` (the position of the call being resolved).
  std::optional<FoundModule> find(const std::string& name, SourcePos call);

  // Files of the path that could not be parsed while looking for a module
  // in files not named after it, for the hint of an unknown name.
  const std::vector<std::string>& skipped_files() const { return skipped_; }

  // The module files read from disk (not the embedded standard library):
  // what output must never replace.
  std::vector<std::string> files_read() const;

  // Every module of the embedded standard library, for "did you mean".
  std::vector<std::string> standard_module_names();

 private:
  struct File {
    const SourceText* text = nullptr;
    std::unique_ptr<Ast> ast;                  // null when it failed to parse
    std::map<std::string, ModuleDef> exports;  // bindings made into modules
  };

  File& load(const std::string& key, const std::string& display, std::string text);
  std::optional<FoundModule> find_in(File& file, const std::string& name);
  std::vector<std::string> files_of(const LibraryDirectory& dir, SourcePos call);
  File* read_file(const std::string& path, bool required, const std::string& name, SourcePos call);
  std::vector<File*> standard_files();

  Sources& sources_;
  std::vector<LibraryDirectory> directories_;
  std::string program_path_;
  std::map<std::string, File> files_;  // by path ("<stdlib>/name.polydat" for embedded)
  std::map<std::string, std::vector<std::string>> listings_;
  std::vector<std::string> skipped_;
  bool standard_loaded_ = false;
};

// A library file's binding exported as a module (polydat's compatibility
// form): its transitive bindings are the body, the names they read and do not
// bind are its parameters in name order, and the binding is its one output.
// nullopt when the file has no binding `name`.
std::optional<ModuleDef> export_binding(const Ast& file, const std::string& name);

}  // namespace polyrt::modules
