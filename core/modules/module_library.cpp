#include "modules/module_library.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include "io/regular_file.hpp"
#include "modules/standard_library.hpp"
#include "nodes/registry.hpp"
#include "polyrt/error.hpp"
#include "syntax/tree_walk.hpp"

namespace polyrt::modules {

using namespace syntax;

namespace {

constexpr std::string_view kExtension = ".polydat";
constexpr std::string_view kStandardPrefix = "<stdlib>/";

// The names an expression reads (identifiers, not callees).
void names_read(const Expr& root, std::vector<std::string>& out) {
  walk(root, [&](const Expr& e) {
    if (e.kind == ExprKind::Ident) out.push_back(e.text);
  });
}

Stmt copy_statement(const Stmt& s) {
  Stmt c;
  c.kind = s.kind;
  c.pos = s.pos;
  c.names = s.names;
  c.name_pos = s.name_pos;
  c.type = s.type;
  if (s.expr) c.expr = clone(*s.expr, s.expr->pos.origin);
  c.is_const = s.is_const;
  c.is_volatile = s.is_volatile;
  c.is_shared = s.is_shared;
  c.is_private = s.is_private;
  return c;
}

}  // namespace

std::optional<ModuleDef> export_binding(const Ast& file, const std::string& name) {
  std::map<std::string, const Stmt*> binding_of;
  for (const Stmt& s : file.statements) {
    if (s.kind != StmtKind::Binding) continue;
    for (const std::string& n : s.names) binding_of.emplace(n, &s);
  }
  auto root = binding_of.find(name);
  if (root == binding_of.end()) return std::nullopt;
  std::set<const Stmt*> body;
  std::set<std::string> free;
  std::vector<const Stmt*> pending{root->second};
  while (!pending.empty()) {
    const Stmt* s = pending.back();
    pending.pop_back();
    if (!body.insert(s).second) continue;
    std::vector<std::string> read;
    names_read(*s->expr, read);
    for (const std::string& n : read) {
      auto b = binding_of.find(n);
      if (b != binding_of.end()) {
        pending.push_back(b->second);
      } else {
        free.insert(n);
      }
    }
  }
  ModuleDef m;
  m.name = name;
  m.pos = root->second->pos;
  for (const std::string& n : free) m.params.push_back(Param{n, std::nullopt, m.pos});
  m.outputs.push_back(Param{name, std::nullopt, m.pos});
  for (const Stmt& s : file.statements) {
    if (body.count(&s)) m.body.push_back(copy_statement(s));
  }
  return m;
}

ModuleLibrary::ModuleLibrary(Sources& sources, std::vector<LibraryDirectory> directories,
                             std::string program_path)
    : sources_(sources),
      directories_(std::move(directories)),
      program_path_(std::move(program_path)) {}

std::vector<std::string> ModuleLibrary::files_of(const LibraryDirectory& dir, SourcePos call) {
  auto cached = listings_.find(dir.path);
  if (cached != listings_.end()) return cached->second;
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<std::string> files;
  fs::directory_iterator it(dir.path, ec);
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string file = it->path().filename().string();
    const bool is_program = !program_path_.empty() && fs::equivalent(it->path(), program_path_, ec);
    ec.clear();
    if (file.size() > kExtension.size() && file.ends_with(kExtension) && !is_program)
      files.push_back(it->path().string());
  }
  if (ec == std::errc::no_such_file_or_directory && dir.optional) {
    return listings_[dir.path] = {};
  }
  if (ec) {
    sources_.fail(call,
                  "cannot read the module directory '" + dir.path + "' (from " + dir.origin +
                      "): " + ec.message(),
                  1, "fix or remove the directory on the module path");
  }
  std::sort(files.begin(), files.end());
  return listings_[dir.path] = files;
}

std::vector<std::string> ModuleLibrary::files_read() const {
  std::vector<std::string> paths;
  for (const auto& [path, file] : files_) {
    if (file.text && !path.starts_with(kStandardPrefix)) paths.push_back(path);
  }
  return paths;
}

ModuleLibrary::File& ModuleLibrary::load(const std::string& key, const std::string& display,
                                         std::string text) {
  File& file = files_[key];
  file.text = &sources_.keep(std::make_unique<SourceText>(display, std::move(text)));
  file.ast = std::make_unique<Ast>(
      parse(*file.text, nodes::comprehension_call_element));  // a failure leaves it null: unusable
  return file;
}

ModuleLibrary::File* ModuleLibrary::read_file(const std::string& path, bool required,
                                              const std::string& name, SourcePos call) {
  auto cached = files_.find(path);
  if (cached != files_.end()) return cached->second.ast ? &cached->second : nullptr;
  const std::string context =
      "\n  while looking for module '" + name + "' called at " + sources_.location(call);
  io::RegularFile read = io::read_regular_file(path, kMaxSourceBytes, true);
  if (read.outcome != io::RegularFile::Outcome::Read) {
    files_[path];  // remembered as unusable
    if (!required) {
      skipped_.push_back(path + " (" + read.why + ")");
      return nullptr;
    }
    sources_.fail(call, "cannot read module file '" + path + "': it is " + read.why);
  }
  try {
    return &load(path, path, std::move(read.bytes));
  } catch (const CompileError& e) {
    if (!required) {
      skipped_.push_back(path + " (it does not parse: line " + std::to_string(e.line()) + ")");
      return nullptr;
    }
    throw CompileError(e.what() + context, e.file(), e.line(), e.column());
  }
}

std::vector<ModuleLibrary::File*> ModuleLibrary::standard_files() {
  std::vector<File*> out;
  for (const EmbeddedFile& f : standard_library_files()) {
    const std::string key = std::string(kStandardPrefix) + std::string(f.name);
    auto cached = files_.find(key);
    out.push_back(cached != files_.end() ? &cached->second : &load(key, key, std::string(f.text)));
  }
  return out;
}

std::vector<std::string> ModuleLibrary::standard_module_names() {
  std::vector<std::string> names;
  for (File* f : standard_files()) {
    for (const ModuleDef& m : f->ast->modules) names.push_back(m.name);
  }
  return names;
}

std::optional<FoundModule> ModuleLibrary::find_in(File& file, const std::string& name) {
  for (const ModuleDef& m : file.ast->modules) {
    if (m.name == name) return FoundModule{&m, file.text};
  }
  auto exported = file.exports.find(name);
  if (exported == file.exports.end()) {
    std::optional<ModuleDef> made = export_binding(*file.ast, name);
    if (!made) return std::nullopt;
    exported = file.exports.emplace(name, std::move(*made)).first;
  }
  return FoundModule{&exported->second, file.text};
}

std::optional<FoundModule> ModuleLibrary::find(const std::string& name, SourcePos call) {
  for (const LibraryDirectory& dir : directories_) {
    const std::vector<std::string> files = files_of(dir, call);
    const std::string named =
        (std::filesystem::path(dir.path) / (name + std::string(kExtension))).string();
    if (std::binary_search(files.begin(), files.end(), named)) {
      if (File* f = read_file(named, true, name, call)) {
        if (auto found = find_in(*f, name)) return found;
      }
    }
    for (const std::string& path : files) {
      if (path == named) continue;
      if (File* f = read_file(path, false, name, call)) {
        if (auto found = find_in(*f, name)) return found;
      }
    }
  }
  for (File* f : standard_files()) {
    if (auto found = find_in(*f, name)) return found;
  }
  return std::nullopt;
}

}  // namespace polyrt::modules
