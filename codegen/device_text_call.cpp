#include "codegen/device_text_call.hpp"

#include <llvm/IR/Module.h>

#include "codegen/native_call.hpp"
#include "nodes/device_text_form.hpp"
#include "nodes/printf_format.hpp"
#include "nodes/registry.hpp"
#include "polyrt/error.hpp"
#include "polyrt/numeric_types.hpp"

namespace polyrt::codegen {

namespace {

llvm::Value* global_array(llvm::Module& m, llvm::Constant* init, const char* name) {
  return new llvm::GlobalVariable(m, init->getType(), true, llvm::GlobalValue::PrivateLinkage, init,
                                  name);
}

// The inputs of a concatenation or format, written where the text goes on.
class Pieces {
 public:
  Pieces(llvm::IRBuilder<>& ir, llvm::Module& m, RtlibLinker& rtlib, llvm::Value* out,
         const std::function<llvm::Value*(size_t input)>& input_word,
         const std::function<TextRef(size_t input)>& input_text,
         const std::vector<Type>& input_types)
      : ir_(ir),
        m_(m),
        rtlib_(rtlib),
        out_(out),
        input_word_(input_word),
        input_text_(input_text),
        input_types_(input_types),
        length_(ir.getInt64(0)) {}

  llvm::Value* length() const { return length_; }

  void literal(std::string_view text) {
    if (text.empty()) return;
    const TextRef constant = constant_text(ir_, m_, text);
    append(call("pd_text_copy", {at(), constant.bytes, constant.length}));
  }

  // Input k's Display form (the host's write_display).
  void display(size_t k) { append(write_display(k)); }

  // Input k as a JSON value (__json_object's members, json_array's items):
  // a str quoted and escaped, bytes as a base64 string, a float's JSON number
  // or null; integers and bools as Display.
  void json_value(size_t k) {
    const Type t = input_types_[k];
    if (t == Type::Str) {
      const TextRef text = input_text_(k);
      append(call("pd_text_json_string", {at(), text.bytes, text.length}));
    } else if (t == Type::Bytes) {
      const TextRef bytes = input_text_(k);
      literal("\"");
      append(call("pd_text_base64", {at(), bytes.bytes, bytes.length}));
      literal("\"");
    } else if (t == Type::F64 || t == Type::F32) {
      append(call("pd_text_json_f64", {at(), as_f64(input_word_(k))}));
    } else {
      append(write_display(k));
    }
  }

  // Input k as a printf placeholder writes it (the host's write_field).
  void field(size_t k, const rt::FormatSegment& spec) {
    const Type t = input_types_[k];
    if (spec.escape != rt::TextEscape::None) {  // a str, with no other spec
      const TextRef text = input_text_(k);
      append(call("pd_text_tile_escaped",
                  {at(), text.bytes, text.length, ir_.getInt64((uint64_t)spec.escape)}));
      return;
    }
    llvm::Value* written = nullptr;
    if (is_integer(t) && spec.radix != 0) {
      // Two's complement at the integer's width, as Rust's {:x} shows it.
      const int bits = integer_bits(t);
      llvm::Value* word = input_word_(k);
      if (bits < 64) word = ir_.CreateAnd(word, ir_.getInt64(((uint64_t)1 << bits) - 1));
      written = call("pd_text_u64_digits", {at(), word, ir_.getInt64((uint64_t)spec.base()),
                                            ir_.getInt64(spec.radix == 'X')});
    } else if ((t == Type::F64 || t == Type::F32) && spec.precision >= 0) {
      // An f32 holds its value as an f64: the same fixed decimals.
      written =
          call("pd_text_f64_fixed", {at(), input_word_(k), ir_.getInt64((uint64_t)spec.precision)});
    } else if (t == Type::F64 || t == Type::F32) {
      written = call(t == Type::F64 ? "pd_text_f64_debug" : "pd_text_f32_debug",
                     {at(), as_f64(input_word_(k))});
    } else {
      written = write_display(k);
    }
    if (spec.width) {
      written = call("pd_text_pad", {at(), written, ir_.getInt64((uint64_t)spec.width),
                                     ir_.getInt64(spec.zero_pad ? 1 : 0)});
    }
    append(written);
  }

 private:
  llvm::Value* at() { return ir_.CreateInBoundsGEP(ir_.getInt8Ty(), out_, length_); }
  llvm::Value* call(std::string_view writer, std::vector<llvm::Value*> args) {
    return ir_.CreateCall(rtlib_.declare(writer), args);
  }
  void append(llvm::Value* written) { length_ = ir_.CreateAdd(length_, written); }
  llvm::Value* as_f64(llvm::Value* word) { return ir_.CreateBitCast(word, ir_.getDoubleTy()); }

  llvm::Value* write_display(size_t k) {
    const Type t = input_types_[k];
    if (t == Type::Str || is_json_text(t)) {  // a json value's Display is its text
      const TextRef text = input_text_(k);
      return call("pd_text_copy", {at(), text.bytes, text.length});
    }
    if (t == Type::F64 || t == Type::F32) {
      return call(t == Type::F64 ? "pd_text_f64_display" : "pd_text_f32_display",
                  {at(), as_f64(input_word_(k))});
    }
    if (t != Type::Bool && !is_integer(t)) {
      internal_error("device text of a " + std::string(type_name(t)));
    }
    return call(t == Type::Bool        ? "pd_text_bool"
                : is_signed_integer(t) ? "pd_text_i64"
                                       : "pd_text_u64",
                {at(), input_word_(k)});
  }

  llvm::IRBuilder<>& ir_;
  llvm::Module& m_;
  RtlibLinker& rtlib_;
  llvm::Value* out_;
  const std::function<llvm::Value*(size_t input)>& input_word_;
  const std::function<TextRef(size_t input)>& input_text_;
  const std::vector<Type>& input_types_;
  llvm::Value* length_;
};

// A Call or Word form's call: `out` first (a Call's; none for a Word), then
// its arguments as DeviceTextArg describes them.
llvm::Value* call_form(llvm::IRBuilder<>& ir, llvm::Module& module, RtlibLinker& rtlib,
                       const ir::Node& n, llvm::Value* out,
                       const std::function<llvm::Value*(size_t input)>& input_word,
                       const std::function<TextRef(size_t input)>& input_text) {
  const nodes::DeviceTextForm& form = *n.def->device_text;
  std::vector<llvm::Value*> args;
  if (out) args.push_back(out);
  const std::vector<std::string> blobs =
      form.blobs ? form.blobs(n.params, n.prepared.get()) : std::vector<std::string>{};
  for (const nodes::DeviceTextArg a : form.args) {
    switch (a.kind) {
      case nodes::DeviceTextArg::Input:
        args.push_back(input_word(a.index));
        break;
      case nodes::DeviceTextArg::InputText: {
        const TextRef text = input_text(a.index);
        args.push_back(text.bytes);
        args.push_back(text.length);
        break;
      }
      case nodes::DeviceTextArg::Param:
        args.push_back(ir.getInt64(param_word(n.params[a.index])));
        break;
      case nodes::DeviceTextArg::Blob: {
        const std::string& blob = blobs.at(a.index);
        auto* global = new llvm::GlobalVariable(
            module, llvm::ArrayType::get(ir.getInt8Ty(), blob.size()), true,
            llvm::GlobalValue::PrivateLinkage,
            llvm::ConstantDataArray::getString(module.getContext(), blob, false), "polyrt_blob");
        global->setAlignment(llvm::Align(8));
        args.push_back(global);
        break;
      }
    }
  }
  return ir.CreateCall(rtlib.declare(form.symbol), args);
}

}  // namespace

TextRef constant_text(llvm::IRBuilder<>& ir, llvm::Module& module, std::string_view text) {
  llvm::Value* bytes = global_array(
      module, llvm::ConstantDataArray::getString(module.getContext(), text, true), "polyrt_text");
  return {bytes, ir.getInt64(text.size())};
}

llvm::Value* emit_device_text(llvm::IRBuilder<>& ir, llvm::Module& module, RtlibLinker& rtlib,
                              const ir::Node& n, llvm::Value* out,
                              const std::function<llvm::Value*(size_t input)>& input_word,
                              const std::function<TextRef(size_t input)>& input_text,
                              const std::vector<Type>& input_types) {
  const nodes::DeviceTextForm& form = *n.def->device_text;
  Pieces pieces(ir, module, rtlib, out, input_word, input_text, input_types);
  switch (form.kind) {
    case nodes::DeviceTextKind::Concat:
      for (size_t k = 0; k < n.inputs.size(); ++k) pieces.display(k);
      return pieces.length();
    case nodes::DeviceTextKind::Format: {
      size_t k = 0;
      for (const rt::FormatSegment& seg : nodes::format_of(*n.prepared).segments) {
        pieces.literal(seg.literal);
        if (seg.placeholder) pieces.field(k++, seg);
      }
      return pieces.length();
    }
    case nodes::DeviceTextKind::JsonObject: {
      const std::vector<std::string>& around = n.prepared->strs;  // keys and braces
      for (size_t k = 0; k < n.inputs.size(); ++k) {
        pieces.literal(around[k]);
        pieces.json_value(k);
      }
      pieces.literal(around.back());
      return pieces.length();
    }
    case nodes::DeviceTextKind::JsonArray:
      for (size_t k = 0; k < n.inputs.size(); ++k) {
        pieces.literal(k ? "," : "[");
        pieces.json_value(k);
      }
      pieces.literal(n.inputs.empty() ? "[]" : "]");
      return pieces.length();
    case nodes::DeviceTextKind::Call:
      break;
    case nodes::DeviceTextKind::Word:
      internal_error("a device word form emitted as a text");
  }
  return call_form(ir, module, rtlib, n, out, input_word, input_text);
}

llvm::Value* emit_device_word(llvm::IRBuilder<>& ir, llvm::Module& module, RtlibLinker& rtlib,
                              const ir::Node& n,
                              const std::function<llvm::Value*(size_t input)>& input_word,
                              const std::function<TextRef(size_t input)>& input_text) {
  if (n.def->device_text->kind != nodes::DeviceTextKind::Word) {
    internal_error("a device text form emitted as a word");
  }
  llvm::Value* result = call_form(ir, module, rtlib, n, nullptr, input_word, input_text);
  return result->getType()->isDoubleTy() ? canonical_f64_word(ir, result) : result;
}

}  // namespace polyrt::codegen
