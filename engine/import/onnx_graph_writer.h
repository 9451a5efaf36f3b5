// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to engine/import: builds an ONNX GraphProto (opset 17) op by op, tracks shapes with
// symbolic dims, emits shape-only weights (external data that is never written) and derives a
// backward pass from a tape of the forward ops. Builder bugs (shape mismatches, unknown names)
// throw std::logic_error; nothing here reads user input.

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace elk::import::detail {

/// One dimension: a number, or a symbol ("batch", "past + seq", "batch * seq").
struct Dim {
    std::int64_t value = 0;
    std::string param;
    Dim(std::int64_t v)
        : value(v)
    {
    }
    Dim(const char* p)
        : param(p)
    {
    }
    Dim(std::string p)
        : param(std::move(p))
    {
    }
    bool symbolic() const { return !param.empty(); }
    bool operator==(const Dim&) const = default;
};
using Shape = std::vector<Dim>;

Dim operator+(const Dim& a, const Dim& b);
Dim operator*(const Dim& a, const Dim& b);
std::string toString(const Shape& shape);

inline constexpr int kF16 = onnx::TensorProto_DataType_FLOAT16;
inline constexpr int kF32 = onnx::TensorProto_DataType_FLOAT;
inline constexpr int kI64 = onnx::TensorProto_DataType_INT64;
inline constexpr int kBool = onnx::TensorProto_DataType_BOOL;

/// Where weights without bytes point; the file never exists.
inline constexpr const char* kShapeOnlyDataFile = "__shape_only_no_data__.bin";

struct ValueInfo {
    Shape shape;
    int elemType = kF16;
    bool requiresGrad = false;
};

struct WeightInfo {
    std::string name;
    Shape shape;
    int elemType = kF16;
    bool trainable = true;
};

class OnnxGraphWriter {
public:
    explicit OnnxGraphWriter(onnx::GraphProto& graph);

    /// Prefix of generated value names ("l12."); each scope has its own counter.
    void setScope(std::string scope) { m_scope = std::move(scope); }
    const std::string& scope() const { return m_scope; }

    std::string input(const std::string& name, int elemType, Shape shape);
    /// Lists a value as a graph output with its tracked shape.
    void output(const std::string& name);
    /// A weight: external data in kShapeOnlyDataFile at the next running offset, no bytes.
    std::string weight(const std::string& name, Shape shape, bool trainable = true, int elemType = kF16);
    /// Small inline constants, shared by value (int64 vectors, fp scalars or short vectors).
    std::string ints(const std::vector<std::int64_t>& values);
    std::string scalar(double value, int elemType = kF16);
    std::string floats(const std::vector<double>& values, int elemType = kF16);

    // Ops. `name` empty: a generated name in the current scope. All return the output name.
    std::string matMul(const std::string& a, const std::string& b, const std::string& name = {});
    std::string gemm(
        const std::string& a, const std::string& b, bool transA, bool transB, const std::string& name = {});
    std::string add(const std::string& a, const std::string& b, const std::string& name = {});
    std::string sub(const std::string& a, const std::string& b, const std::string& name = {});
    std::string mul(const std::string& a, const std::string& b, const std::string& name = {});
    std::string div(const std::string& a, const std::string& b, const std::string& name = {});
    /// Sqrt, Neg, Tanh, Sigmoid, Relu, Exp.
    std::string unary(const char* opType, const std::string& x, const std::string& name = {});
    std::string softmax(const std::string& x, const std::string& name = {});
    std::string reduceMean(const std::string& x, const std::string& name = {}); ///< last axis, keepdims
    /// Axes empty: all axes.
    std::string reduceSum(
        const std::string& x, const std::vector<std::int64_t>& axes, bool keepDims, const std::string& name = {});
    std::string reshape(const std::string& x, const Shape& target, const std::string& name = {});
    std::string transpose(const std::string& x, const std::vector<std::int64_t>& perm, const std::string& name = {});
    std::string transposeLast2(const std::string& x);
    std::vector<std::string> split(const std::string& x, std::int64_t axis, const std::vector<std::int64_t>& sizes);
    std::string concat(const std::vector<std::string>& xs, std::int64_t axis, const std::string& name = {});
    std::string unsqueeze(const std::string& x, std::int64_t axis);
    std::string gather(const std::string& table, const std::string& ids, const std::string& name = {});
    std::string cast(const std::string& x, int elemType, const std::string& name = {});
    std::string expand(const std::string& x, const Shape& target);
    /// LayerNormalization over the last axis with scale and bias. Mean/InvStdDev (fp32) are requested
    /// only when a backward pass will need them.
    std::string layerNorm(const std::string& x, const std::string& scale, const std::string& bias, double epsilon,
        bool withStats, const std::string& name = {});
    /// Conv whose kernel equals its stride (a patch embedding), no padding.
    std::string patchConv(const std::string& x, const std::string& w, const std::string& b, std::int64_t patch,
        const std::string& name = {});
    std::string oneHot(const std::string& ids, std::int64_t depth);
    /// Cross-entropy summed over all positions, classes on the last axis of `scores`, spelled as
    /// LogSoftmax, GatherElements, ReduceSum, Neg (no reshape, so it works with several symbolic
    /// dims). Returns {loss, log_prob}.
    std::pair<std::string, std::string> crossEntropy(const std::string& scores, const std::string& labels);

    const ValueInfo& value(const std::string& name) const;
    const std::vector<WeightInfo>& weights() const { return m_weights; }
    std::int64_t externalBytes() const { return m_externalOffset; }

    /// Backward pass: `grad` is d(loss)/d(`name`); walks the tape in reverse and emits the gradient
    /// ops of every forward op on a path from a trainable weight to `name`.
    void backward(const std::string& name, const std::string& grad);
    /// Gradient of a value after backward(), if it received any.
    std::optional<std::string> gradient(const std::string& name) const;

private:
    struct Attr {
        std::string name;
        std::optional<std::int64_t> i;
        std::optional<float> f;
        std::optional<std::string> s;
        std::vector<std::int64_t> ints;
        const onnx::TensorProto* t = nullptr;
        Attr(std::string n, std::int64_t v)
            : name(std::move(n))
            , i(v)
        {
        }
        Attr(std::string n, float v)
            : name(std::move(n))
            , f(v)
        {
        }
        Attr(std::string n, std::string v)
            : name(std::move(n))
            , s(std::move(v))
        {
        }
        Attr(std::string n, std::vector<std::int64_t> v)
            : name(std::move(n))
            , ints(std::move(v))
        {
        }
        Attr(std::string n, const onnx::TensorProto* v)
            : name(std::move(n))
            , t(v)
        {
        }
    };
    struct TapeEntry {
        std::string opType;
        std::vector<std::string> inputs;
        std::vector<std::string> outputs;
        std::vector<std::int64_t> ints = {}; // perm of a Transpose
        std::int64_t axis = 0; // Split/Concat axis, Conv patch size
        std::string scope = {};
    };

    std::string newName(const std::string& name);
    void define(const std::string& name, Shape shape, int elemType, bool requiresGrad);
    bool anyRequiresGrad(const std::vector<std::string>& inputs) const;
    void emit(const std::string& opType, const std::vector<std::string>& inputs,
        const std::vector<std::string>& outputs, const std::vector<Attr>& attrs = {});
    void record(TapeEntry entry);
    std::string binary(const char* opType, const std::string& a, const std::string& b, const std::string& name);
    std::vector<std::int64_t> reshapeSpec(const Shape& from, const Shape& to) const;

    // Backward helpers.
    void accumulate(const std::string& name, std::string grad);
    std::string unbroadcast(const std::string& grad, const Shape& target);
    void backwardOf(const TapeEntry& e);
    void gatherBackward(const TapeEntry& e, const std::string& gy);
    void layerNormBackward(const TapeEntry& e, const std::string& gy);
    void patchConvBackward(const TapeEntry& e, const std::string& gy);

    onnx::GraphProto& m_graph;
    std::string m_scope;
    std::map<std::string, int> m_counters;
    std::map<std::string, ValueInfo> m_values;
    std::map<std::string, std::string> m_constants; // key → name
    std::map<std::string, std::string> m_memo; // "op|input|args" → output, for views made twice
    std::map<std::string, std::pair<std::string, std::vector<std::int64_t>>> m_transposeSource; // output → input, perm
    std::vector<WeightInfo> m_weights;
    std::int64_t m_externalOffset = 0;
    std::vector<TapeEntry> m_tape;
    std::map<std::string, std::string> m_grads;
    bool m_recording = true; // off while the backward pass emits its own ops
    int m_constantCount = 0;
};

} // namespace elk::import::detail
