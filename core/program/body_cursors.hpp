// The cursors of a traversal's body, `cursor rows = range(a, b) [over p]`:
// the ordinal domain [a, b), narrowed at each activation to the partition
// element p (a partition made over the cursor's own extent: its ordinals
// are the cursor's), or `over "SPEC"` to the one partition a spec resolves
// to over the extent (a spec of several is refused: a `for` binds a
// list). The narrowest cursor's slice sets how many cycles the
// activation runs; at cycle i, `rows.ordinal` is the slice's start + i and
// `rows.cursor` the partition (with `.idx`, `.partition_count`,
// `.start_ordinal`, `.end_ordinal`). A cursor without `over` covers [a, b).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "polyrt/value.hpp"
#include "syntax/ast.hpp"
#include "syntax/ast_builder.hpp"
#include "syntax/sources.hpp"

namespace polyrt {

struct BodyCursor {
  std::string name;
  uint64_t start = 0, end = 0;  // range(start, end)
  std::optional<size_t> over;   // the element it ranges over
  Value partition;              // `over "SPEC"`: the one partition it resolves to
};

// Replaces each cursor statement of `body` by what the body reads of it
// (hidden externs polyrt writes per activation: the slice's start and the
// partition; hidden bindings: the ordinal and the partition's fields) and
// returns the cursors. CompileError for a constructor other than
// range(INTEGER, INTEGER), an `over` that names no partition element or a
// spec that does not resolve to exactly one partition.
std::vector<BodyCursor> take_body_cursors(std::vector<syntax::Stmt>& body,
                                          const std::vector<std::string>& elements,
                                          const std::vector<Type>& element_types,
                                          syntax::Sources& sources);

// A cursor's bare name reads its ordinal (nmbrs's workloads write
// `format_u64(row, 10)`): a hidden binding NAME := NAME.ordinal for each
// cursor whose name no statement of `out` binds or declares.
void read_bare_names_as_ordinals(const std::vector<std::string>& cursors,
                                 std::vector<syntax::Stmt>& out);

// The hidden bindings of a cursor's partition fields, `NAME.cursor.idx`,
// `.partition_count`, `.start_ordinal` and `.end_ordinal`, over the
// partition wire NAME__cursor (a body's cursors and a program's).
void declare_partition_fields(const syntax::AstBuilder& b, const std::string& cursor,
                              std::vector<syntax::Stmt>& out);

// One activation's slice of a cursor: its first ordinal, how many, and the
// partition `.cursor` reads. EvalError when the element's partition was
// made over another extent than the cursor's.
struct CursorSlice {
  uint64_t start = 0, size = 0;
  Value partition;
};
CursorSlice cursor_slice(const BodyCursor& cursor, const std::vector<Value>& tuple);

}  // namespace polyrt
