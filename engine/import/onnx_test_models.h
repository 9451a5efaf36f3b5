// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Test support: hand-made ONNX models as plain structs, serialized to ModelProto bytes, so tests
// can build valid and broken models without including ONNX headers (those stay in engine/import).
// Nothing is checked here: a cyclic graph or a wrong shape is written as given.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace elk::import::onnxtest {

/// ONNX element type numbers (TensorProto.DataType).
enum ElemType : int {
    kFloat = 1,
    kUint8 = 2,
    kInt8 = 3,
    kInt32 = 6,
    kInt64 = 7,
    kString = 8,
    kBool = 9,
    kFloat16 = 10,
    kDouble = 11,
    kBFloat16 = 16,
};

/// One dimension: a size, or a symbolic name (dim_param).
struct Dim {
    std::int64_t value = 0;
    std::string param;
    Dim(std::int64_t v)
        : value(v)
    {
    }
    Dim(int v)
        : value(v)
    {
    }
    Dim(const char* p)
        : param(p)
    {
    }
};

/// A graph input, output or value_info entry.
struct ValueInfo {
    enum class Kind { Tensor, Sequence, Optional };
    std::string name;
    int elemType = kFloat;
    std::vector<Dim> dims;
    bool hasShape = true;
    Kind kind = Kind::Tensor;
};

/// An initializer (or a Constant's value). `external`: its data lives in a file that does not
/// exist (the shape-only convention); otherwise `ints`/`floats` are stored inline.
struct TensorData {
    std::string name;
    int elemType = kFloat;
    std::vector<std::int64_t> dims;
    std::vector<std::int64_t> ints;
    std::vector<double> floats;
    bool external = false;
};

struct Graph;

struct Attribute {
    enum class Kind { Int, Float, String, Ints, Tensor, Graph };
    std::string name;
    Kind kind = Kind::Int;
    std::int64_t i = 0;
    double f = 0;
    std::string s;
    std::vector<std::int64_t> ints;
    TensorData tensor;
    std::shared_ptr<const Graph> graph;
};

Attribute attrInt(std::string name, std::int64_t value);
Attribute attrFloat(std::string name, double value);
Attribute attrString(std::string name, std::string value);
Attribute attrInts(std::string name, std::vector<std::int64_t> values);
Attribute attrTensor(std::string name, TensorData value);
Attribute attrGraph(std::string name, Graph graph);

struct Node {
    std::string opType;
    std::vector<std::string> inputs;
    std::vector<std::string> outputs;
    std::vector<Attribute> attributes = {};
    std::string name = {};
    std::string domain = {};
};

struct Graph {
    std::string name = "test";
    std::vector<Node> nodes;
    std::vector<ValueInfo> inputs;
    std::vector<ValueInfo> outputs;
    std::vector<TensorData> initializers = {};
    std::vector<ValueInfo> valueInfo = {};
};

struct Model {
    std::int64_t irVersion = 8;
    std::vector<std::pair<std::string, std::int64_t>> opsets = { { "", 17 } };
    Graph graph;
};

/// The serialized ModelProto.
std::string serialize(const Model& model);

/// Dims of a serialized TensorProto (the test_data_set_*/output_*.pb files); nullopt if it does
/// not parse.
std::optional<std::vector<std::int64_t>> tensorProtoDims(const std::string& bytes);

/// A serialized TensorProto (a test_data_set_*/input_*.pb file): its name, dims, and its values
/// when it is an integer tensor of at most 64 elements stored inline.
struct TensorFile {
    std::string name;
    std::vector<std::int64_t> dims;
    std::optional<std::vector<std::int64_t>> ints;
};
std::optional<TensorFile> readTensorFile(const std::string& bytes);

/// An int64 vector initializer stored inline (shapes, axes, split sizes).
TensorData int64s(std::string name, std::vector<std::int64_t> values);
/// A weight whose bytes are external data in a missing file: only dims and type are known.
TensorData weight(std::string name, std::vector<std::int64_t> dims, int elemType = kFloat16);

} // namespace elk::import::onnxtest
