// Element operators for copies and reductions. Elements are 32-bit words.
// Built-ins: copy, sum (mod 2^32), max, min (unsigned), and `affine`, a
// non-commutative associative operator (composition of affine maps
// x -> a*x + b mod 2^16, with a in the high and b in the low half-word) used
// to prove that a reduction combines in the order it claims. Users add their
// own with register_combine_op(); operators are looked up by name from the CLI.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace wn::alg {

using Word = uint32_t;
using CombineFn = Word (*)(Word mem, Word incoming);

struct CombineOpInfo {
  std::string name;
  CombineFn fn = nullptr;  // nullptr = copy (incoming overwrites)
  bool commutative = true;
  std::string description;
};

// Index into the operator table; 0 is copy.
using OpId = uint16_t;
constexpr OpId kCopy = 0;

// How a received (or locally read) word merges into memory. For a
// non-commutative operator the order is explicit: by default the result is
// op(memory, incoming) (memory is the left operand); incoming_first swaps it.
struct Combine {
  OpId op = kCopy;
  bool incoming_first = false;
};

const std::vector<CombineOpInfo>& combine_ops();
// Throws ConfigError(Param::op, allowed names) on an unknown name.
OpId find_combine_op(const std::string& name);
OpId register_combine_op(const CombineOpInfo& info);

inline Word apply(const Combine& c, Word mem, Word incoming) {
  const CombineFn fn = combine_ops()[c.op].fn;
  if (!fn) return incoming;
  return c.incoming_first ? fn(incoming, mem) : fn(mem, incoming);
}

// Left fold op(op(op(x0, x1), x2), ...) — the oracle of an ordered reduction.
Word fold(OpId op, const std::vector<Word>& xs);

}  // namespace wn::alg
