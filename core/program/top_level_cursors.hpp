// The cursors of a program's top level, `cursor q = range(A, B) [over
// "SPEC" | over P]`: the ordinal domain [A, B), narrowed to one partition
// for the whole run. A spec that resolves to several partitions needs the
// host's choice (CompileOptions::cursor_partitions, `polyrt --partition`),
// as one fiber of polydat's takes one partition. The program then reads
// `q.cursor` (the partition, with `.idx`, `.partition_count`,
// `.start_ordinal`, `.end_ordinal`) and `q.ordinal`, the ordinal the row's
// coordinate maps to: A + mod_in(coordinate, q.cursor), so coordinates
// 0 .. size-1 walk the slice and later ones wrap inside it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "polyrt/polyrt.hpp"
#include "syntax/ast.hpp"
#include "syntax/sources.hpp"

namespace polyrt {

// Replaces each top-level cursor statement by hidden bindings of what a
// program reads of it and returns the cursors. CompileError for a
// constructor other than range(START, END), literal bounds that end before
// they start, a bad spec, a spec of several partitions without a choice (or
// a choice past its partitions), and a choice naming no such cursor.
std::vector<CursorInfo> take_top_level_cursors(syntax::Ast& ast,
                                               const std::map<std::string, uint64_t>& choices,
                                               syntax::Sources& sources);

}  // namespace polyrt
