// A comprehension's `where` predicate: or, and, orderings, arithmetic, unary forms and count().
#include "comprehension/grammar_parser.hpp"

namespace polyrt::comprehension::grammar {

std::unique_ptr<Predicate> Parser::left_associative(size_t level) {
  static const std::vector<std::vector<const char*>> kLevels = {{"||"}, {"&&"}, {"==", "!="}};
  const auto operand = [&] {
    return level + 1 < kLevels.size() ? left_associative(level + 1) : predicate_ordering();
  };
  auto left = operand();
  while (true) {
    skip_space();
    const auto op = std::find_if(kLevels[level].begin(), kLevels[level].end(),
                                 [&](const char* o) { return s_.compare(i_, 2, o) == 0; });
    if (op == kLevels[level].end()) return left;
    i_ += 2;
    left = binary(*op, std::move(left), operand());
  }
}

std::unique_ptr<Predicate> Parser::predicate_ordering() {
  auto left = predicate_arithmetic(0);
  while (true) {
    skip_space();
    if (word("in")) {
      auto in = std::make_unique<Predicate>(Predicate{Predicate::Kind::In, {}, {}, {}, {}, {}});
      skip_space();
      if (i_ >= s_.size() || s_[i_] != '[') fail(i_, "'in' takes a bracket list: {x} in [1, 2]");
      const size_t close = s_.find(']', i_);
      if (close == std::string_view::npos) fail(i_, "a bracket list ends with ']'");
      in->members = list(split_items(s_.substr(i_ + 1, close - i_ - 1), ","), i_).values;
      i_ = close + 1;
      in->args.push_back(std::move(left));
      left = std::move(in);
      continue;
    }
    std::string op;
    for (const char* o : {"<=", ">=", "<", ">"}) {
      if (s_.compare(i_, std::char_traits<char>::length(o), o) == 0) {
        op = o;
        break;
      }
    }
    if (op.empty()) return left;
    i_ += op.size();
    left = binary(op, std::move(left), predicate_arithmetic(0));
  }
}

std::unique_ptr<Predicate> Parser::predicate_arithmetic(int level) {
  const char* ops = level == 0 ? "+-" : "*/%";
  const auto operand = [&] { return level == 0 ? predicate_arithmetic(1) : predicate_unary(); };
  auto left = operand();
  while (true) {
    skip_space();
    if (i_ >= s_.size() || !std::strchr(ops, s_[i_]) ||
        (i_ + 1 < s_.size() && (s_[i_ + 1] == '=' || s_[i_ + 1] == s_[i_]))) {
      return left;
    }
    const std::string op(1, s_[i_++]);
    left = binary(op, std::move(left), operand());
  }
}

std::unique_ptr<Predicate> Parser::predicate_unary() {
  skip_space();
  count_node(i_);
  if (i_ >= s_.size()) fail(i_, "the predicate ends where a value was expected");
  const char c = s_[i_];
  if (c == '!' || c == '-') {
    ++i_;
    auto p = std::make_unique<Predicate>(
        Predicate{c == '!' ? Predicate::Kind::Not : Predicate::Kind::Negate, {}, {}, {}, {}, {}});
    p->args.push_back(predicate_unary());
    return p;
  }
  if (c == '(') {
    ++i_;
    auto inner = predicate_or();
    skip_space();
    if (i_ >= s_.size() || s_[i_] != ')') fail(i_, "expected ')'");
    ++i_;
    return inner;
  }
  auto p = std::make_unique<Predicate>(Predicate{Predicate::Kind::Literal, {}, {}, {}, {}, {}});
  const size_t at = i_;
  if (c == '{') {
    const size_t close = s_.find('}', i_);
    if (close == std::string_view::npos) fail(i_, "'{' without '}'");
    p->kind = Predicate::Kind::Reference;
    p->name = std::string(s_.substr(i_ + 1, close - i_ - 1));
    i_ = close + 1;
    return p;
  }
  if (c == '"' || c == '\'') {
    const size_t close = s_.find(c, i_ + 1);
    if (close == std::string_view::npos) fail(i_, "unterminated string");
    i_ = close + 1;
  } else {
    while (i_ < s_.size() && (ident_char(s_[i_]) || s_[i_] == '.')) ++i_;
    if (i_ == at) fail(at, "unexpected '" + std::string(1, c) + "' in the predicate");
  }
  const std::string_view token = s_.substr(at, i_ - at);
  const Value v = typed_token(token);
  if (v.type() == Type::Str && token.front() != '"' && token.front() != '\'') {
    // polydat: a bare word in a predicate is a name, never a string.
    p->kind = Predicate::Kind::Reference;
    p->name = std::string(token);
    return p;
  }
  p->literal = v;
  return p;
}

void Parser::count_node(size_t at) {
  if (++nodes_ > kMaxPredicateNodes) {
    fail(at, "the predicate has more than " + std::to_string(kMaxPredicateNodes) +
                 " operators and values");
  }
}

std::unique_ptr<Predicate> Parser::binary(std::string op, std::unique_ptr<Predicate> a,
                                          std::unique_ptr<Predicate> b) {
  count_node(i_);
  auto p = std::make_unique<Predicate>(Predicate{Predicate::Kind::Binary, {}, {}, op, {}, {}});
  p->args.push_back(std::move(a));
  p->args.push_back(std::move(b));
  return p;
}

}  // namespace polyrt::comprehension::grammar
