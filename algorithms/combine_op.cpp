#include "algorithms/combine_op.h"

#include <algorithm>

#include "systemc/core/config_error.h"
#include "systemc/core/registry.h"

namespace wn::alg {
namespace {

Word op_sum(Word a, Word b) { return a + b; }
Word op_max(Word a, Word b) { return std::max(a, b); }
Word op_min(Word a, Word b) { return std::min(a, b); }
// (a1,b1) o (a2,b2): apply map 2 first, then map 1: x -> a1*(a2*x+b2)+b1.
Word op_affine(Word l, Word r) {
  const uint32_t a1 = l >> 16, b1 = l & 0xffffu, a2 = r >> 16, b2 = r & 0xffffu;
  const uint32_t a = (a1 * a2) & 0xffffu, b = (a1 * b2 + b1) & 0xffffu;
  return (a << 16) | b;
}

std::vector<CombineOpInfo>& table() {
  static std::vector<CombineOpInfo> ops = {
      {"copy", nullptr, true, "incoming word overwrites memory"},
      {"sum", op_sum, true, "unsigned sum mod 2^32"},
      {"max", op_max, true, "unsigned maximum"},
      {"min", op_min, true, "unsigned minimum"},
      {"affine", op_affine, false, "composition of affine maps x -> a*x+b mod 2^16 (associative)"},
  };
  return ops;
}

}  // namespace

const std::vector<CombineOpInfo>& combine_ops() { return table(); }

OpId find_combine_op(const std::string& name) {
  // "copy" is how a receive without an operator stores; it reduces nothing, so --op does not offer it.
  const auto& ops = table();
  std::vector<CombineOpInfo> reducing;
  for (const auto& op : ops)
    if (op.fn) reducing.push_back(op);
  const std::string& found = find_by_name(reducing, name, Param::op, "operator").name;
  for (size_t i = 0; i < ops.size(); ++i)
    if (ops[i].name == found) return OpId(i);
  return 0;
}

OpId register_combine_op(const CombineOpInfo& info) {
  for (size_t i = 0; i < table().size(); ++i)
    if (table()[i].name == info.name) throw ConfigError(Param::op, "operator '" + info.name + "' already registered");
  table().push_back(info);
  return OpId(table().size() - 1);
}

Word fold(OpId op, const std::vector<Word>& xs) {
  if (xs.empty()) return 0;
  Word acc = xs[0];
  for (size_t i = 1; i < xs.size(); ++i) acc = apply(Combine{op, false}, acc, xs[i]);
  return acc;
}

}  // namespace wn::alg
