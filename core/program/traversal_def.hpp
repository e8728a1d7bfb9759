// A compiled traversal, `for COMPREHENSION { body }`: the comprehension, the
// body as a program of its own (an implicit `input cycle`, one extern per
// element and per value it reads from the parent; a nested traversal is a
// traversal of the body's program), and where each cascaded value comes
// from. Not installed.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "comprehension/comprehension.hpp"
#include "polyrt/polyrt.hpp"
#include "program/body_cursors.hpp"

namespace polyrt {

struct TraversalDef {
  comprehension::Comprehension comprehension;
  std::vector<Type> element_types;  // per clause: its body extern's type
  std::shared_ptr<const Program> body;
  // A parent value the body reads, written to the body's extern of the
  // same name: an output of the parent, one of its coordinate inputs, or
  // (the parent a body, the traversal nested) one of the externs polyrt
  // wrote to the parent's activation.
  struct Cascade {
    enum class From : uint8_t { Output, Input, Extern };
    std::string name;
    From from = From::Output;
    size_t index = 0;  // the output's, input's or extern's index in the parent
  };
  std::vector<Cascade> cascade;
  std::vector<BodyCursor> cursors;  // the body's, in declaration order
  // The batch form (lattice_body.hpp), when the traversal has one: one
  // program over every tuple of an opening, `lattice_tuples` rows.
  std::shared_ptr<const Program> lattice_body;
  uint64_t lattice_tuples = 0;
  std::vector<std::string> warnings;  // the program's, about this traversal
};

}  // namespace polyrt
