// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The StableHLO text reader: every syntax form of import.md §4 parses into the same attributes
// whether written pretty or generic; bad input fails with `file:line:column: expected X, found Y`
// at the right place, and no input (truncated, mutated, deeply nested, binary) crashes or loops.
#include "engine/hlo/hlo_attrs.h"
#include "engine/hlo/hlo_reader.h"
#include "engine/hlo/mlir_lexer.h"

#include <QDir>
#include <QFileInfo>
#include <QTest>
#include <QThread>

#include <cstdio>
#include <limits>
#include <memory>
#include <random>
#include <string>

using namespace elk::hlo;

namespace {

QString q(const std::string& text)
{
    return QString::fromStdString(text);
}

std::string firstError(const ReadResult& result)
{
    return result.errors.empty() ? std::string("(no error)") : toString(result.errors.front());
}

// Wraps op lines in a function whose arguments the rows use.
std::string inFunction(const std::string& body)
{
    return "func.func @main(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %f: tensor<f32>, %i: tensor<i32>,\n"
           "    %x: tensor<4x8xf32>, %idx: tensor<4x8xi32>, %t: tuple<tensor<f32>, tensor<i32>>, %st: tensor<2xui64>,\n"
           "    %img: tensor<1x8x8x3xf32>, %ker: tensor<3x3x3x16xf32>, %nchw: tensor<1x3x8x8xf32>, %oihw: "
           "tensor<16x3x3x3xf32>) {\n"
        + body + "\n  return\n}\n";
}

// The n-th op called `name`, searching every function and region.
const Op* findOp(const Module& module, std::string_view name, int nth = 0)
{
    const Op* found = nullptr;
    for (const Function& function : module.functions)
        forEachOp(function.body, [&](const Op& op, int) {
            if (!found && op.name == name && nth-- == 0)
                found = &op;
        });
    return found;
}

std::string join(const std::vector<std::int64_t>& values)
{
    std::string text = "[";
    for (std::size_t i = 0; i < values.size(); ++i)
        text += (i ? ", " : "") + std::to_string(values[i]);
    return text + "]";
}

std::string attributeText(const Attribute& attribute)
{
    switch (attribute.kind) {
    case Attribute::Kind::Integer:
        return std::to_string(attribute.intValue);
    case Attribute::Kind::Bool:
        return attribute.boolValue ? "true" : "false";
    case Attribute::Kind::String:
    case Attribute::Kind::Enum:
        return attribute.text;
    case Attribute::Kind::Symbol:
        return "@" + attribute.text;
    case Attribute::Kind::Dialect:
        return "#" + attribute.text + "<" + attribute.body + ">";
    case Attribute::Kind::Array: {
        if (const auto ints = intList(attribute))
            return join(*ints);
        std::string text = "[";
        for (std::size_t i = 0; i < attribute.items.size(); ++i)
            text += (i ? ", " : "") + attributeText(attribute.items[i]);
        return text + "]";
    }
    case Attribute::Kind::Dense:
        if (const auto ints = intList(attribute))
            return "dense" + join(*ints);
        return "dense";
    default:
        return "?";
    }
}

// "Kind:text" of every token, newLine marked with '^'.
std::string tokensText(const std::string& text)
{
    static const char* const kNames[] = { "EndOfFile", "Error", "BareId", "PercentId", "AtId", "HashId", "BangId",
        "CaretId", "String", "Integer", "Float", "(", ")", "{", "}", "[", "]", "<", ">", ":", ",", "=", "->", "-", "+",
        "?", "*", "|", "{-#", "#-}" };
    mlir::Lexer lexer(text, 0, text.size(), 1, 0);
    std::string out;
    for (int guard = 0; guard < 1000; ++guard) {
        const mlir::Token token = lexer.next();
        if (token.kind == mlir::TokenKind::EndOfFile)
            break;
        const std::string name = kNames[int(token.kind)];
        out += (out.empty() ? "" : " ") + std::string(token.newLine ? "^" : "") + name;
        if (token.kind <= mlir::TokenKind::Float && name != std::string(token.text))
            out += ":" + std::string(token.text);
        if (token.kind == mlir::TokenKind::Error)
            break;
    }
    return out;
}

std::string groupsText(const std::vector<std::vector<std::int64_t>>& groups)
{
    std::string text = "[";
    for (std::size_t i = 0; i < groups.size(); ++i)
        text += (i ? ", " : "") + join(groups[i]);
    return text + "]";
}

std::string dotText(const DotDimensions& dims)
{
    return "b" + join(dims.lhsBatch) + "x" + join(dims.rhsBatch) + " c" + join(dims.lhsContracting) + "x"
        + join(dims.rhsContracting);
}

std::string convText(const ConvDimensions& c)
{
    std::string padding;
    for (const auto& [low, high] : c.padding)
        padding += "(" + std::to_string(low) + "," + std::to_string(high) + ")";
    return "in b" + std::to_string(c.inputBatch) + " f" + std::to_string(c.inputFeature) + " s" + join(c.inputSpatial)
        + " | k i" + std::to_string(c.kernelInputFeature) + " o" + std::to_string(c.kernelOutputFeature) + " s"
        + join(c.kernelSpatial) + " | out b" + std::to_string(c.outputBatch) + " f" + std::to_string(c.outputFeature)
        + " s" + join(c.outputSpatial) + " | stride" + join(c.strides) + " pad" + padding + " lhs" + join(c.lhsDilation)
        + " rhs" + join(c.rhsDilation) + " groups " + std::to_string(c.featureGroupCount) + "/"
        + std::to_string(c.batchGroupCount);
}

} // namespace

class TestHloReader : public QObject {
    Q_OBJECT

private slots:
    void lexer_data();
    void lexer();
    void lexerPositions();
    void attributes_data();
    void attributes();
    void types_data();
    void types();
    void dotDimensionsForms_data();
    void dotDimensionsForms();
    void convDimensionsForms_data();
    void convDimensionsForms();
    void replicaGroupsForms_data();
    void replicaGroupsForms();
    void accessors();
    void constants();
    void moduleStructure();
    void bareFunctionsAndEntry();
    void valuesAndMultipleResults();
    void reduceForms();
    void whileForms();
    void manualComputation();
    void otherPrettyForms();
    void genericUnknownDialect();
    void printerForms_data();
    void printerForms();
    void genericTopLevelFunction();
    void onlyCommentsIsNoModule_data();
    void onlyCommentsIsNoModule();
    void splitFile();
    void badInput_data();
    void badInput();
    void deepNesting_data();
    void deepNesting();
    void truncatedAndMutatedInputNeverCrash();
    void readFile();
    void typeHelpers();
};

void TestHloReader::lexer_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("tokens");
    QTest::addRow("prefixed identifiers") << "%0#1 %arg_3 @main @\"x y\" #loc3 #stablehlo.dot !stablehlo.token ^bb0"
                                          << "PercentId:%0#1 PercentId:%arg_3 AtId:@main AtId:@\"x y\" HashId:#loc3 "
                                             "HashId:#stablehlo.dot BangId:!stablehlo.token CaretId:^bb0";
    QTest::addRow("numbers")
        << "0x7FC00000 12 1.5e+03 -2.0 1. inf nan"
        << "Integer:0x7FC00000 Integer:12 Float:1.5e+03 - Float:2.0 Float:1. BareId:inf BareId:nan";
    QTest::addRow("punctuation") << "-> : , = ( ) [ ] { } < > ? * | + -"
                                 << "-> : , = ( ) [ ] { } < > ? * | + -";
    QTest::addRow("strings with escapes") << "\"a\\22b\\\\c\" \"\""
                                          << "String:\"a\\22b\\\\c\" String:\"\"";
    QTest::addRow("dialect resources") << "{-# dialect_resources: {} #-}"
                                       << "{-# BareId:dialect_resources : { } #-}";
    QTest::addRow("comments and new lines") << "a // comment { [\n  b"
                                            << "BareId:a ^BareId:b";
    QTest::addRow("loc(...) is trivia") << "x loc(\"f\"(\"a.py\":1:2)) y loc(fused[#loc1, \")\"])"
                                        << "BareId:x BareId:y";
    QTest::addRow("dotted names") << "stablehlo.add func.func f8E4M3FN"
                                  << "BareId:stablehlo.add BareId:func.func BareId:f8E4M3FN";
    QTest::addRow("conv layout")
        << "[b, 0]x[0, i]->[b, 0]"
        << "[ BareId:b , Integer:0 ] BareId:x [ Integer:0 , BareId:i ] -> [ BareId:b , Integer:0 ]";
    QTest::addRow("unterminated string") << "a \"abc"
                                         << "BareId:a Error:\"";
    QTest::addRow("stray byte") << "a \x01"
                                << "BareId:a Error:\x01";
}

void TestHloReader::lexer()
{
    QFETCH(QString, text);
    QFETCH(QString, tokens);
    QCOMPARE(QString::fromStdString(tokensText(text.toStdString())), tokens);
}

void TestHloReader::lexerPositions()
{
    const std::string text = "module {\n  %0 = \"a\\22\" loc(\n\"x\")  @f\n}";
    mlir::Lexer lexer(text, 0, text.size(), 1, 0);
    std::vector<std::string> seen;
    for (mlir::Token token = lexer.next(); token.kind != mlir::TokenKind::EndOfFile; token = lexer.next())
        seen.push_back(std::string(token.text) + "@" + std::to_string(token.line) + ":" + std::to_string(token.column));
    QCOMPARE(seen,
        (std::vector<std::string> { "module@1:1", "{@1:8", "%0@2:3", "=@2:6", "\"a\\22\"@2:8", "@f@3:7", "}@4:1" }));
    QCOMPARE(mlir::unescapeString("\"a\\22b\\\\c\\n\""), std::string("a\"b\\c\n"));

    std::vector<std::int64_t> dims;
    std::size_t errorPos = 0;
    const std::string shape = "4x?x0x!quant.uniform<i8:f32, 1.0>>";
    mlir::Lexer dimsLexer(shape, 0, shape.size(), 1, 0);
    QCOMPARE(dimsLexer.scanDimensions(dims, errorPos), mlir::Lexer::DimResult::Ok);
    QCOMPARE(dims, (std::vector<std::int64_t> { 4, kDynamicDim, 0 }));
    QCOMPARE(dimsLexer.next().text, std::string_view("!quant.uniform"));
}

void TestHloReader::attributes_data()
{
    QTest::addColumn<QString>("body");
    QTest::addColumn<QString>("opName");
    QTest::addColumn<QString>("attribute");
    QTest::addColumn<QString>("expected");

    QTest::addRow("broadcast_in_dim pretty dims → broadcast_dimensions")
        << "%0 = stablehlo.broadcast_in_dim %a, dims = [0, 2] : (tensor<2x3xf32>) -> tensor<2x5x3xf32>"
        << "stablehlo.broadcast_in_dim"
        << "broadcast_dimensions"
        << "[0, 2]";
    QTest::addRow("broadcast_in_dim generic") << "%0 = \"stablehlo.broadcast_in_dim\"(%a) <{broadcast_dimensions = "
                                                 "array<i64: 0, 2>}> : (tensor<2x3xf32>) -> tensor<2x5x3xf32>"
                                              << "stablehlo.broadcast_in_dim"
                                              << "broadcast_dimensions"
                                              << "[0, 2]";
    QTest::addRow("transpose dims → permutation, trailing dict kept")
        << "%0 = stablehlo.transpose %a, dims = [1, 0] {xla_shape = \"f32[3,2]{0,1}\"} : (tensor<2x3xf32>) -> "
           "tensor<3x2xf32>"
        << "stablehlo.transpose"
        << "permutation"
        << "[1, 0]";
    QTest::addRow("transpose trailing dict") << "%0 = stablehlo.transpose %a, dims = [1, 0] {xla_shape = "
                                                "\"f32[3,2]{0,1}\"} : (tensor<2x3xf32>) -> tensor<3x2xf32>"
                                             << "stablehlo.transpose"
                                             << "xla_shape"
                                             << "f32[3,2]{0,1}";
    QTest::addRow("iota dim → iota_dimension") << "%0 = stablehlo.iota dim = 0 : tensor<20xi32>"
                                               << "stablehlo.iota"
                                               << "iota_dimension"
                                               << "0";
    QTest::addRow("concatenate dim → dimension")
        << "%0 = stablehlo.concatenate %a, %a, dim = 1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>"
        << "stablehlo.concatenate"
        << "dimension"
        << "1";
    QTest::addRow("slice start") << "%0 = stablehlo.slice %a [0:2, 1:3:2] : (tensor<2x3xf32>) -> tensor<2x1xf32>"
                                 << "stablehlo.slice"
                                 << "start_indices"
                                 << "[0, 1]";
    QTest::addRow("slice limit") << "%0 = stablehlo.slice %a [0:2, 1:3:2] : (tensor<2x3xf32>) -> tensor<2x1xf32>"
                                 << "stablehlo.slice"
                                 << "limit_indices"
                                 << "[2, 3]";
    QTest::addRow("slice strides default 1")
        << "%0 = stablehlo.slice %a [0:2, 1:3:2] : (tensor<2x3xf32>) -> tensor<2x1xf32>"
        << "stablehlo.slice"
        << "strides"
        << "[1, 2]";
    QTest::addRow("slice generic")
        << "%0 = \"stablehlo.slice\"(%a) <{limit_indices = array<i64: 2, 3>, start_indices = array<i64: 0, 1>, strides "
           "= array<i64: 1, 2>}> : (tensor<2x3xf32>) -> tensor<2x1xf32>"
        << "stablehlo.slice"
        << "strides"
        << "[1, 2]";
    QTest::addRow("dynamic_slice sizes → slice_sizes")
        << "%0 = stablehlo.dynamic_slice %a, %i, %i, sizes = [1, 2] : (tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> "
           "tensor<1x2xf32>"
        << "stablehlo.dynamic_slice"
        << "slice_sizes"
        << "[1, 2]";
    QTest::addRow("pad low") << "%0 = stablehlo.pad %a, %f, low = [0, 1], high = [1, 0], interior = [0, 1] : "
                                "(tensor<2x3xf32>, tensor<f32>) -> tensor<3x6xf32>"
                             << "stablehlo.pad"
                             << "edge_padding_low"
                             << "[0, 1]";
    QTest::addRow("pad high") << "%0 = stablehlo.pad %a, %f, low = [0, 1], high = [1, 0], interior = [0, 1] : "
                                 "(tensor<2x3xf32>, tensor<f32>) -> tensor<3x6xf32>"
                              << "stablehlo.pad"
                              << "edge_padding_high"
                              << "[1, 0]";
    QTest::addRow("pad interior") << "%0 = stablehlo.pad %a, %f, low = [0, 1], high = [1, 0], interior = [0, 1] : "
                                     "(tensor<2x3xf32>, tensor<f32>) -> tensor<3x6xf32>"
                                  << "stablehlo.pad"
                                  << "interior_padding"
                                  << "[0, 1]";
    QTest::addRow("pad with negative padding") << "%0 = stablehlo.pad %a, %f, low = [-1, 0], high = [0, 0], interior = "
                                                  "[0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<1x3xf32>"
                                               << "stablehlo.pad"
                                               << "edge_padding_low"
                                               << "[-1, 0]";
    QTest::addRow("reverse dims → dimensions") << "%0 = stablehlo.reverse %a, dims = [0] : tensor<2x3xf32>"
                                               << "stablehlo.reverse"
                                               << "dimensions"
                                               << "[0]";
    QTest::addRow("reduce_precision exponent") << "%0 = stablehlo.reduce_precision %a, format = e5m10 : tensor<2x3xf32>"
                                               << "stablehlo.reduce_precision"
                                               << "exponent_bits"
                                               << "5";
    QTest::addRow("reduce_precision mantissa") << "%0 = stablehlo.reduce_precision %a, format = e5m10 : tensor<2x3xf32>"
                                               << "stablehlo.reduce_precision"
                                               << "mantissa_bits"
                                               << "10";
    QTest::addRow("compare direction (pretty)")
        << "%0 = stablehlo.compare  LT, %a, %a,  FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>"
        << "stablehlo.compare"
        << "comparison_direction"
        << "LT";
    QTest::addRow("compare type (pretty)")
        << "%0 = stablehlo.compare  LT, %a, %a,  FLOAT : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>"
        << "stablehlo.compare"
        << "compare_type"
        << "FLOAT";
    QTest::addRow("compare generic direction")
        << "%0 = \"stablehlo.compare\"(%a, %a) {comparison_direction = #stablehlo<comparison_direction GE>} : "
           "(tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>"
        << "stablehlo.compare"
        << "comparison_direction"
        << "#stablehlo<comparison_direction GE>";
    QTest::addRow("custom_call target") << "%0 = stablehlo.custom_call @Sharding(%a) {mhlo.sharding = "
                                           "\"{replicated}\"} : (tensor<2x3xf32>) -> tensor<2x3xf32>"
                                        << "stablehlo.custom_call"
                                        << "call_target_name"
                                        << "Sharding";
    QTest::addRow("custom_call quoted target")
        << "%0 = stablehlo.custom_call @\"__cudnn$fmha\"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>"
        << "stablehlo.custom_call"
        << "call_target_name"
        << "__cudnn$fmha";
    QTest::addRow("custom_call sharding string") << "%0 = stablehlo.custom_call @Sharding(%a) {mhlo.sharding = "
                                                    "\"{replicated}\"} : (tensor<2x3xf32>) -> tensor<2x3xf32>"
                                                 << "stablehlo.custom_call"
                                                 << "mhlo.sharding"
                                                 << "{replicated}";
    QTest::addRow("custom_call backend_config with \\22 escapes")
        << "%0 = stablehlo.custom_call @tpu_custom_call(%a) {backend_config = \"{\\22k\\22: 1}\"} : (tensor<2x3xf32>) "
           "-> tensor<2x3xf32>"
        << "stablehlo.custom_call"
        << "backend_config"
        << "{\"k\": 1}";
    QTest::addRow("call callee") << "%0 = call @helper(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>"
                                 << "func.call"
                                 << "callee"
                                 << "@helper";
    QTest::addRow("func.call callee") << "%0 = func.call @helper(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>"
                                      << "func.call"
                                      << "callee"
                                      << "@helper";
    QTest::addRow("composite name")
        << "%0 = stablehlo.composite \"jax.my_op\" %a {composite_attributes = {k = 1 : i64}, decomposition = @impl, "
           "version = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x3xf32>"
        << "stablehlo.composite"
        << "name"
        << "jax.my_op";
    QTest::addRow("composite decomposition")
        << "%0 = stablehlo.composite \"jax.my_op\" %a {composite_attributes = {k = 1 : i64}, decomposition = @impl, "
           "version = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x3xf32>"
        << "stablehlo.composite"
        << "decomposition"
        << "@impl";
    QTest::addRow("rng_bit_generator algorithm") << "%s, %o = stablehlo.rng_bit_generator %st, algorithm = DEFAULT : "
                                                    "(tensor<2xui64>) -> (tensor<2xui64>, tensor<10xui32>)"
                                                 << "stablehlo.rng_bit_generator"
                                                 << "rng_algorithm"
                                                 << "DEFAULT";
    QTest::addRow("dot_general precision")
        << "%0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], precision = [DEFAULT, HIGHEST] : "
           "(tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>"
        << "stablehlo.dot_general"
        << "precision_config"
        << "[DEFAULT, HIGHEST]";
    QTest::addRow("dot_general algorithm")
        << "%0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0], algorithm = <lhs_precision_type = tf32, "
           "rhs_precision_type = tf32, accumulation_type = f32, lhs_component_count = 1, rhs_component_count = 1, "
           "num_primitive_operations = 3, allow_imprecise_accumulation = false> : (tensor<2x3xf32>, tensor<3x4xf32>) "
           "-> tensor<2x4xf32>"
        << "stablehlo.dot_general"
        << "algorithm"
        << "#stablehlo.dot_algorithm<lhs_precision_type = tf32, rhs_precision_type = tf32, accumulation_type = f32, "
           "lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 3, "
           "allow_imprecise_accumulation = false>";
    QTest::addRow("get_tuple_element index")
        << "%0 = stablehlo.get_tuple_element %t[1] : (tuple<tensor<f32>, tensor<i32>>) -> tensor<i32>"
        << "stablehlo.get_tuple_element"
        << "index"
        << "1";
    QTest::addRow("sharding_constraint") << "%0 = sdy.sharding_constraint %a <@mesh, [{\"x\"}, {}]> : tensor<2x3xf32>"
                                         << "sdy.sharding_constraint"
                                         << "sharding"
                                         << "#sdy.sharding<@mesh, [{\"x\"}, {}]>";
    QTest::addRow("generic reduce dimensions")
        << "%0 = \"stablehlo.reduce\"(%x, %f) ({\n  ^bb0(%p: tensor<f32>, %q: tensor<f32>):\n    %s = stablehlo.add "
           "%p, %q : tensor<f32>\n    \"stablehlo.return\"(%s) : (tensor<f32>) -> ()\n  }) {dimensions = array<i64: "
           "1>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>"
        << "stablehlo.reduce"
        << "dimensions"
        << "[1]";
    QTest::addRow("attr-dict instead of properties (older printers)")
        << "%0 = \"stablehlo.gather\"(%x, %idx) {dimension_numbers = #stablehlo.gather<offset_dims = [1], "
           "collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1,>, indices_are_sorted = false, "
           "slice_sizes = array<i64: 1, 8>} : (tensor<4x8xf32>, tensor<4x8xi32>) -> tensor<4x8xf32>"
        << "stablehlo.gather"
        << "slice_sizes"
        << "[1, 8]";
    QTest::addRow("unit attribute")
        << "%0 = \"stablehlo.all_reduce\"(%a) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, "
           "use_global_device_ids}> ({\n  ^bb0(%p: tensor<f32>, %q: tensor<f32>):\n    %s = stablehlo.add %p, %q : "
           "tensor<f32>\n    stablehlo.return %s : tensor<f32>\n  }) : (tensor<2x3xf32>) -> tensor<2x3xf32>"
        << "stablehlo.all_reduce"
        << "replica_groups"
        << "dense[0, 1]";
}

void TestHloReader::attributes()
{
    QFETCH(QString, body);
    QFETCH(QString, opName);
    QFETCH(QString, attribute);
    QFETCH(QString, expected);
    const ReadResult result = readHloText(inFunction("  " + body.toStdString()), "t.mlir");
    QVERIFY2(result.ok(), firstError(result).c_str());
    const Op* op = findOp(result.modules.front(), opName.toStdString());
    QVERIFY(op);
    const Attribute* value = op->attribute(attribute.toStdString());
    QVERIFY2(value, ("no attribute " + attribute.toStdString()).c_str());
    QCOMPARE(QString::fromStdString(attributeText(*value)), expected);
}

void TestHloReader::types_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<QString>("printed");
    QTest::addColumn<qint64>("elements");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<bool>("dynamic");

    QTest::addRow("static bf16") << "tensor<4x6xbf16>"
                                 << "tensor<4x6xbf16>" << qint64(24) << 48.0 << false;
    QTest::addRow("scalar") << "tensor<f32>"
                            << "tensor<f32>" << qint64(1) << 4.0 << false;
    QTest::addRow("zero-size") << "tensor<1x0xi32>"
                               << "tensor<1x0xi32>" << qint64(0) << 0.0 << false;
    QTest::addRow("dynamic dim counts 1") << "tensor<4x?xbf16>"
                                          << "tensor<4x?xbf16>" << qint64(4) << 8.0 << true;
    QTest::addRow("bounded dynamic") << "tensor<?x?xf32, #stablehlo.bounds<3, ?>>"
                                     << "tensor<?x?xf32, #stablehlo.bounds<3, ?>>" << qint64(3) << 12.0 << true;
    QTest::addRow("old bounds alias") << "tensor<?xf32, #stablehlo.type_extensions<bounds = [5]>>"
                                      << "tensor<?xf32, #stablehlo.bounds<5>>" << qint64(5) << 20.0 << true;
    QTest::addRow("quantized element") << "tensor<2x!quant.uniform<i8:f32, 2.0:15>>"
                                       << "tensor<2x!quant.uniform<i8:f32, 2.0:15>>" << qint64(2) << 2.0 << false;
    QTest::addRow("per-axis quantized") << "tensor<2x3x!quant.uniform<i32:f32:1, {2.0:15, 3.0:14, 1.0:0}>>"
                                        << "tensor<2x3x!quant.uniform<i32:f32:1, {2.0:15, 3.0:14, 1.0:0}>>" << qint64(6)
                                        << 24.0 << false;
    QTest::addRow("complex") << "tensor<4xcomplex<f32>>"
                             << "tensor<4xcomplex<f32>>" << qint64(4) << 32.0 << false;
    QTest::addRow("i4 packs two per byte") << "tensor<8xi4>"
                                           << "tensor<8xi4>" << qint64(8) << 4.0 << false;
    QTest::addRow("i1 is a byte") << "tensor<3xi1>"
                                  << "tensor<3xi1>" << qint64(3) << 3.0 << false;
    QTest::addRow("f8") << "tensor<4xf8E4M3FN>"
                        << "tensor<4xf8E4M3FN>" << qint64(4) << 4.0 << false;
    QTest::addRow("f6 packed") << "tensor<4xf6E2M3FN>"
                               << "tensor<4xf6E2M3FN>" << qint64(4) << 3.0 << false;
    QTest::addRow("ui64") << "tensor<2xui64>"
                          << "tensor<2xui64>" << qint64(2) << 16.0 << false;
    QTest::addRow("index elements") << "tensor<2xindex>"
                                    << "tensor<2xindex>" << qint64(2) << 16.0 << false;
    QTest::addRow("tuple") << "tuple<tensor<i32>, tensor<2xf32>>"
                           << "tuple<tensor<i32>, tensor<2xf32>>" << qint64(3) << 12.0 << false;
    QTest::addRow("token") << "!stablehlo.token"
                           << "!stablehlo.token" << qint64(0) << 0.0 << false;
    QTest::addRow("future kept as text") << "!stablehlo.future<tensor<4xf32>>"
                                         << "!stablehlo.future<tensor<4xf32>>" << qint64(0) << 0.0 << false;
    QTest::addRow("index kept as text") << "index"
                                        << "index" << qint64(0) << 0.0 << false;
    QTest::addRow("sparse encoding kept")
        << "tensor<10x20xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>"
        << "tensor<10x20xf32, #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>>"
        << qint64(200) << 800.0 << false;
}

void TestHloReader::types()
{
    QFETCH(QString, type);
    QFETCH(QString, printed);
    QFETCH(qint64, elements);
    QFETCH(double, bytes);
    QFETCH(bool, dynamic);
    const std::string text = "func.func @f(%arg0: " + type.toStdString() + ") {\n  return\n}\n";
    const ReadResult result = readHloText(text, "t.mlir");
    QVERIFY2(result.ok(), firstError(result).c_str());
    const Type& parsed = result.modules.front().functions.front().argumentTypes.front();
    QCOMPARE(QString::fromStdString(toString(parsed)), printed);
    QCOMPARE(qint64(elementCount(parsed)), elements);
    QCOMPARE(typeBytes(parsed), bytes);
    QCOMPARE(isDynamic(parsed), dynamic);
    // The argument's value has the same type.
    const Module& module = result.modules.front();
    QVERIFY(module.valueTypes[module.functions.front().arguments.front()] == parsed);
}

void TestHloReader::dotDimensionsForms_data()
{
    QTest::addColumn<QString>("body");
    QTest::addColumn<QString>("opName");
    QTest::addColumn<QString>("expected");
    QTest::addRow("pretty contracting only") << "%0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : "
                                                "(tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>"
                                             << "stablehlo.dot_general"
                                             << "b[]x[] c[1]x[0]";
    QTest::addRow("pretty batching + contracting + precision")
        << "%0 = stablehlo.dot_general %x, %x, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = "
           "[DEFAULT, DEFAULT] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4xf32>"
        << "stablehlo.dot_general"
        << "b[0]x[0] c[1]x[1]";
    QTest::addRow("generic #stablehlo.dot")
        << "%0 = \"stablehlo.dot_general\"(%x, %x) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = "
           "[0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>, "
           "precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x8xf32>, "
           "tensor<4x8xf32>) -> tensor<4xf32>"
        << "stablehlo.dot_general"
        << "b[0]x[0] c[1]x[1]";
    QTest::addRow("generic multi-line with attr-dict")
        << "%0 = \"stablehlo.dot_general\"(%a, %b) {\n    dot_dimension_numbers = #stablehlo.dot<\n      "
           "lhs_contracting_dimensions = [1],\n      rhs_contracting_dimensions = [0]\n    >\n  } : (tensor<2x3xf32>, "
           "tensor<3x4xf32>) -> tensor<2x4xf32>"
        << "stablehlo.dot_general"
        << "b[]x[] c[1]x[0]";
    QTest::addRow("legacy dot") << "%0 = stablehlo.dot %a, %b, precision = [DEFAULT, DEFAULT] : (tensor<2x3xf32>, "
                                   "tensor<3x4xf32>) -> tensor<2x4xf32>"
                                << "stablehlo.dot"
                                << "b[]x[] c[1]x[0]";
}

void TestHloReader::dotDimensionsForms()
{
    QFETCH(QString, body);
    QFETCH(QString, opName);
    QFETCH(QString, expected);
    const ReadResult result = readHloText(inFunction("  " + body.toStdString()), "t.mlir");
    QVERIFY2(result.ok(), firstError(result).c_str());
    const Op* op = findOp(result.modules.front(), opName.toStdString());
    QVERIFY(op);
    const auto dims = dotDimensions(*op);
    QVERIFY(dims);
    QCOMPARE(QString::fromStdString(dotText(*dims)), expected);
}

void TestHloReader::convDimensionsForms_data()
{
    QTest::addColumn<QString>("body");
    QTest::addColumn<QString>("expected");
    const QString nhwc = QStringLiteral("in b0 f3 s[1, 2] | k i2 o3 s[0, 1] | out b0 f3 s[1, 2]");
    QTest::addRow("pretty NHWC/HWIO with window and attr dict")
        << "%0 = stablehlo.convolution(%img, %ker) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = "
           "{stride = [2, 2], pad = [[1, 1], [0, 2]], lhs_dilate = [1, 1], rhs_dilate = [1, 2], reverse = [false, "
           "false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = "
           "[#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x8x3xf32>, "
           "tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>"
        << nhwc + QStringLiteral(" | stride[2, 2] pad(1,1)(0,2) lhs[1, 1] rhs[1, 2] groups 1/1");
    QTest::addRow("pretty NCHW/OIHW, empty window")
        << "%0 = stablehlo.convolution(%nchw, %oihw) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = "
           "{} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x3x8x8xf32>, "
           "tensor<16x3x3x3xf32>) -> tensor<1x16x6x6xf32>"
        << "in b0 f1 s[2, 3] | k i1 o0 s[2, 3] | out b0 f1 s[2, 3] | stride[1, 1] pad(0,0)(0,0) lhs[1, 1] rhs[1, 1] "
           "groups 1/1";
    QTest::addRow("generic layout form")
        << "%0 = \"stablehlo.convolution\"(%img, %ker) <{batch_group_count = 1 : i64, dimension_numbers = "
           "#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 3 : i64, lhs_dilation = "
           "array<i64: 1, 1>, padding = dense<[[1, 1], [0, 2]]> : tensor<2x2xi64>, rhs_dilation = array<i64: 1, 2>, "
           "window_strides = array<i64: 2, 2>}> : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>"
        << nhwc + QStringLiteral(" | stride[2, 2] pad(1,1)(0,2) lhs[1, 1] rhs[1, 2] groups 3/1");
    QTest::addRow("generic raw form, splat padding")
        << "%0 = \"stablehlo.convolution\"(%img, %ker) {batch_group_count = 1 : i64, dimension_numbers = "
           "#stablehlo.conv<raw\n      input_batch_dimension = 0,\n      input_feature_dimension = 3,\n      "
           "input_spatial_dimensions = [1, 2],\n      kernel_input_feature_dimension = 2,\n      "
           "kernel_output_feature_dimension = 3,\n      kernel_spatial_dimensions = [0, 1],\n      "
           "output_batch_dimension = 0,\n      output_feature_dimension = 3,\n      output_spatial_dimensions = [1, "
           "2]\n    >, feature_group_count = 1 : i64, padding = dense<2> : tensor<2x2xi64>, window_strides = "
           "array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x10x10x16xf32>"
        << nhwc + QStringLiteral(" | stride[1, 1] pad(2,2)(2,2) lhs[1, 1] rhs[1, 1] groups 1/1");
}

void TestHloReader::convDimensionsForms()
{
    QFETCH(QString, body);
    QFETCH(QString, expected);
    const ReadResult result = readHloText(inFunction("  " + body.toStdString()), "t.mlir");
    QVERIFY2(result.ok(), firstError(result).c_str());
    const Op* op = findOp(result.modules.front(), "stablehlo.convolution");
    QVERIFY(op);
    const auto dims = convDimensions(*op);
    QVERIFY(dims);
    QCOMPARE(QString::fromStdString(convText(*dims)), expected);
}

void TestHloReader::replicaGroupsForms_data()
{
    QTest::addColumn<QString>("groups");
    QTest::addColumn<QString>("expected");
    QTest::addRow("dense 2x2") << "dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>"
                               << "[[0, 1], [2, 3]]";
    QTest::addRow("-1 pads ragged groups") << "dense<[[0, 2, 4, -1], [1, 3, 5, 6]]> : tensor<2x4xi64>"
                                           << "[[0, 2, 4], [1, 3, 5, 6]]";
    QTest::addRow("splat 1x1") << "dense<0> : tensor<1x1xi64>"
                               << "[[0]]";
    QTest::addRow("scalar dense") << "dense<3> : tensor<i64>"
                                  << "[[3]]";
    QTest::addRow("empty") << "dense<> : tensor<0x0xi64>"
                           << "[]";
    QTest::addRow("mesh axes x of x=2,y=2")
        << "#stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = \"x\">]>"
        << "[[0, 2], [1, 3]]";
    QTest::addRow("mesh axes y of x=2,y=2")
        << "#stablehlo.replica_group_mesh_axes<mesh = @mesh, axes = [#stablehlo.axis_ref<name = \"y\">]>"
        << "[[0, 1], [2, 3]]";
    QTest::addRow("mesh with device ids")
        << "#stablehlo.replica_group_mesh_axes<mesh = @perm, axes = [#stablehlo.axis_ref<name = \"x\">]>"
        << "[[0, 1], [2, 3]]";
    QTest::addRow("minor sub-axis (compact form)") << "#stablehlo.replica_group_mesh_axes<mesh = @m42, axes = "
                                                      "[#stablehlo.axis_ref<name = \"x\", sub_axis_info = (1)2>]>"
                                                   << "[[0, 2], [1, 3], [4, 6], [5, 7]]";
    QTest::addRow("major sub-axis")
        << "#stablehlo.replica_group_mesh_axes<mesh = @m42, axes = [#stablehlo.axis_ref<name = \"x\", sub_axis_info = "
           "#stablehlo.sub_axis_info<pre_size = 2, size = 2>>]>"
        << "[[0, 4], [1, 5], [2, 6], [3, 7]]";
    QTest::addRow("inline mesh")
        << "#stablehlo.replica_group_mesh_axes<mesh = #stablehlo.mesh<axes = [#stablehlo.mesh_axis<name = \"x\", size "
           "= 2>, #stablehlo.mesh_axis<name = \"y\", size = 2>]>, axes = [#stablehlo.axis_ref<name = \"x\">, "
           "#stablehlo.axis_ref<name = \"y\">]>"
        << "[[0, 1, 2, 3]]";
}

void TestHloReader::replicaGroupsForms()
{
    QFETCH(QString, groups);
    QFETCH(QString, expected);
    const std::string text
        = "module {\n  sdy.mesh @mesh = <[\"x\"=2, \"y\"=2]>\n  sdy.mesh @m42 = <[\"x\"=4, \"y\"=2]>\n"
          "  \"sdy.mesh\"() <{mesh = #sdy.mesh<[\"x\"=2, \"y\"=2], device_ids=[0, 2, 1, 3]>, sym_name = \"perm\"}> : "
          "() -> ()\n"
          "  func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
          "    %0 = \"stablehlo.all_reduce\"(%a) <{replica_groups = "
        + groups.toStdString()
        + "}> ({\n    ^bb0(%p: tensor<f32>, %q: tensor<f32>):\n      %s = stablehlo.add %p, %q : tensor<f32>\n"
          "      stablehlo.return %s : tensor<f32>\n    }) : (tensor<4xf32>) -> tensor<4xf32>\n"
          "    return %0 : tensor<4xf32>\n  }\n}\n";
    const ReadResult result = readHloText(text, "t.mlir");
    QVERIFY2(result.ok(), firstError(result).c_str());
    const Module& module = result.modules.front();
    QCOMPARE(module.meshes.size(), std::size_t(3));
    const Op* op = findOp(module, "stablehlo.all_reduce");
    QVERIFY(op);
    const auto parsed = replicaGroups(*op, module);
    QVERIFY(parsed);
    QCOMPARE(QString::fromStdString(groupsText(*parsed)), expected);
}

void TestHloReader::accessors()
{
    const std::string text = inFunction(
        "  %0 = \"stablehlo.collective_permute\"(%a) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = "
        "1>, "
        "source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"
        "  %1 = stablehlo.custom_call @foo(%a) {called_computations = [@callee_foo], api_version = 2 : i32} : "
        "(tensor<2x3xf32>) -> tensor<2x3xf32>\n"
        "  %2 = \"stablehlo.all_gather\"(%a) <{all_gather_dim = 1 : i64, replica_groups = dense<[[0, 1]]> : "
        "tensor<1x2xi64>}> : (tensor<2x3xf32>) -> tensor<2x6xf32>\n"
        "  %3 = stablehlo.compare  EQ, %i, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>");
    const ReadResult result = readHloText(text, "t.mlir");
    QVERIFY2(result.ok(), firstError(result).c_str());
    const Module& module = result.modules.front();
    const Op* permute = findOp(module, "stablehlo.collective_permute");
    QVERIFY(permute);
    const auto pairs = sourceTargetPairs(*permute);
    QCOMPARE(pairs.size(), std::size_t(2));
    QCOMPARE(pairs[0], std::make_pair(std::int64_t(0), std::int64_t(1)));
    QCOMPARE(pairs[1], std::make_pair(std::int64_t(1), std::int64_t(0)));
    const Attribute* channel = permute->attribute("channel_handle");
    QVERIFY(channel && channel->field("handle") && channel->field("type"));
    QCOMPARE(channel->field("handle")->intValue, std::int64_t(1));
    QCOMPARE(channel->field("type")->intValue, std::int64_t(1));

    const Op* custom = findOp(module, "stablehlo.custom_call");
    QCOMPARE(customCallTarget(*custom).value_or(""), std::string("foo"));
    QCOMPARE(calleeOf(*custom).value_or(""), std::string("callee_foo"));
    QCOMPARE(intValue(*custom, "api_version").value_or(-1), std::int64_t(2));

    const Op* gather = findOp(module, "stablehlo.all_gather");
    QCOMPARE(intValue(*gather, "all_gather_dim").value_or(-1), std::int64_t(1));
    QCOMPARE(QString::fromStdString(groupsText(replicaGroups(*gather, module).value())), QStringLiteral("[[0, 1]]"));
    QVERIFY(!replicaGroups(*custom, module)); // no replica_groups
    QVERIFY(sourceTargetPairs(*gather).empty());

    const Op* compare = findOp(module, "stablehlo.compare");
    QCOMPARE(comparisonDirection(*compare).value_or(""), std::string("EQ"));
    QVERIFY(!comparisonDirection(*custom));
    QVERIFY(!dotDimensions(*custom));
    QVERIFY(!convDimensions(*custom));
    QVERIFY(!constantInteger(*custom));
}

void TestHloReader::constants()
{
    std::string bigInts = "dense<[";
    for (int k = 0; k < 5000; ++k)
        bigInts += (k ? ", " : "") + std::to_string(k);
    bigInts += "]>";
    std::string blob = "dense<\"0x";
    for (int k = 0; k < 6000; ++k)
        blob += "0000803F";
    blob += "\">";
    const std::string text = inFunction("  %c0 = stablehlo.constant dense<5> : tensor<i32>\n"
                                        "  %c1 = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi64>\n"
                                        "  %c2 = stablehlo.constant dense<\"0x0A000000\"> : tensor<i32>\n"
                                        "  %c3 = stablehlo.constant dense<\"0x01000000FEFFFFFF\"> : tensor<2xi32>\n"
                                        "  %c4 = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
                                        "  %c5 = stablehlo.constant dense_resource<__elided__> : tensor<1024xf32>\n"
                                        "  %c6 = stablehlo.constant dense<(1.5,-2.0)> : tensor<complex<f32>>\n"
                                        "  %c7 = stablehlo.constant dense<true> : tensor<i1>\n"
                                        "  %c8 = stablehlo.constant dense<-3.40282347E+38> : tensor<4xf32>\n"
                                        "  %c9 = stablehlo.constant dense<1> : tensor<5000xi32>\n"
                                        "  %c10 = stablehlo.constant "
        + bigInts
        + " : tensor<5000xi32>\n"
          "  %c11 = stablehlo.constant "
        + blob
        + " : tensor<6000xf32>\n"
          "  %c12 = arith.constant 7 : i64\n"
          "  %c13 = sdy.constant dense<2> : tensor<i64>\n"
          "  %c14 = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>\n"
          "  %c15 = stablehlo.constant dense<> : tensor<0xf32>\n"
          "  %c16 = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
          "  %c17 = stablehlo.constant() {value = dense<[1, 2]> : tensor<2xi8>} : () -> tensor<2xi8>");
    const ReadResult result = readHloText(text, "t.mlir");
    QVERIFY2(result.ok(), firstError(result).c_str());
    const Module& module = result.modules.front();
    auto constant = [&](int n) { return findOp(module, "stablehlo.constant", n); };
    QCOMPARE(constantInteger(*constant(0)).value_or(-1), std::int64_t(5));
    QVERIFY(constant(0)->attribute("value")->denseSplat);
    QCOMPARE(QString::fromStdString(attributeText(*constant(1)->attribute("value"))), QStringLiteral("dense[1, 2, 3]"));
    QVERIFY(!constantInteger(*constant(1)));
    QCOMPARE(constantInteger(*constant(2)).value_or(-1), std::int64_t(10)); // hex blob, little-endian
    QCOMPARE(QString::fromStdString(attributeText(*constant(3)->attribute("value"))), QStringLiteral("dense[1, -2]"));
    QVERIFY(constant(4)->attribute("value")->denseSplat);
    QVERIFY(!constantInteger(*constant(4))); // a float's bit pattern, not an integer
    QCOMPARE(constant(5)->attribute("value")->kind, Attribute::Kind::Dense);
    QCOMPARE(constant(5)->attribute("value")->text, std::string("dense_resource"));
    QCOMPARE(constant(5)->resultTypes.front().dims, std::vector<std::int64_t> { 1024 });
    QVERIFY(constant(6)->attribute("value")->denseSplat);
    QCOMPARE(constantInteger(*constant(7)).value_or(-1), std::int64_t(1));
    QVERIFY(constant(8)->attribute("value")->denseSplat);
    QCOMPARE(constantInteger(*constant(9)).value_or(-1), std::int64_t(1)); // splat of 5000
    QVERIFY(!intList(*constant(10)->attribute("value"))); // more than 4096 values: not kept
    QVERIFY(constant(10)->attribute("value")->denseInts.empty());
    QVERIFY(constant(11)->attribute("value")->denseInts.empty());
    QVERIFY(!constant(11)->attribute("value")->denseSplat);
    QCOMPARE(constant(11)->resultTypes.front().dims, std::vector<std::int64_t> { 6000 });
    QCOMPARE(constantInteger(*findOp(module, "arith.constant")).value_or(-1), std::int64_t(7));
    QCOMPARE(constantInteger(*findOp(module, "sdy.constant")).value_or(-1), std::int64_t(2));
    QCOMPARE(
        QString::fromStdString(attributeText(*constant(12)->attribute("value"))), QStringLiteral("dense[1, 2, 3, 4]"));
    QCOMPARE(QString::fromStdString(attributeText(*constant(13)->attribute("value"))), QStringLiteral("dense[]"));
    QCOMPARE(QString::fromStdString(attributeText(*constant(14)->attribute("value"))), QStringLiteral("dense"));
    QCOMPARE(QString::fromStdString(toString(constant(15)->resultTypes.front())), QStringLiteral("tensor<2xi8>"));
}

void TestHloReader::moduleStructure()
{
    const std::string text = R"(#loc1 = loc("p0.3")
// A comment line.
module @jit_train_step attributes {mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["data"=2, "model"=4]>
  sdy.mesh @ids = <["a"=2], device_ids=[1, 0]>
  sdy.mesh @empty = <[]>
  sdy.mesh @maximal = <device_id=0>
  func.func public @main(%arg0: tensor<8x1024xbf16> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"},
                         %arg1: tensor<1024x4096xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"model"}]>} loc("arg1"))
      -> (tensor<8x4096xbf16> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] : (tensor<8x1024xbf16>, tensor<1024x4096xbf16>) -> tensor<8x4096xbf16> loc(#loc1)
    %1 = call @mlp(%0) : (tensor<8x4096xbf16>) -> tensor<8x4096xbf16> loc(fused["a", "b"(#loc1)])
    return %1 : tensor<8x4096xbf16>
  } loc(#loc2)
  func.func private @mlp(%arg0: tensor<8x4096xbf16>) -> tensor<8x4096xbf16> attributes {tf.x = 1 : i32} {
    %0 = func.call @relu(%arg0) : (tensor<8x4096xbf16>) -> tensor<8x4096xbf16>
    func.return %0 : tensor<8x4096xbf16>
  }
  func.func private @relu(%arg0: tensor<8x4096xbf16>) -> tensor<8x4096xbf16> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<8x4096xbf16>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x4096xbf16>
    "func.return"(%1) : (tensor<8x4096xbf16>) -> ()
  }
} loc(#loc)
#loc2 = loc("f"("file.py":3:4))
{-#
  dialect_resources: {
    builtin: {
      blob: "0x04000000DEADBEEF"
    }
  }
#-}
)";
    const ReadResult result = readHloText(text, "t.mlir");
    QVERIFY2(result.ok(), firstError(result).c_str());
    QCOMPARE(result.modules.size(), std::size_t(1));
    const Module& module = result.modules.front();
    QCOMPARE(module.name, std::string("jit_train_step"));
    QCOMPARE(module.sourceName, std::string("t.mlir"));
    QCOMPARE(module.declaredDeviceCount(), std::int64_t(8));
    QCOMPARE(module.meshes.size(), std::size_t(4));
    QCOMPARE(module.findMesh("mesh")->deviceCount(), std::int64_t(8));
    QCOMPARE(module.findMesh("mesh")->axes.back(), (MeshAxis { "model", 4 }));
    QCOMPARE(module.findMesh("ids")->deviceIds, (std::vector<std::int64_t> { 1, 0 }));
    QCOMPARE(module.findMesh("empty")->deviceCount(), std::int64_t(1));
    QCOMPARE(module.findMesh("maximal")->deviceIds, std::vector<std::int64_t> { 0 });
    QVERIFY(!module.findMesh("nope"));

    QCOMPARE(module.functions.size(), std::size_t(3));
    const Function& main = module.functions[0];
    QCOMPARE(module.entry(), &main);
    QCOMPARE(main.visibility, std::string("public"));
    QCOMPARE(main.arguments.size(), std::size_t(2));
    QCOMPARE(module.valueNames[main.arguments[1]], std::string("%arg1"));
    QCOMPARE(main.argumentAttributes[0].front().first, std::string("mhlo.sharding"));
    QCOMPARE(
        main.argumentAttributes[0].front().second.text, std::string("{devices=[2,1,4]<=[8] last_tile_dim_replicate}"));
    const Attribute* sdy = findAttribute(main.argumentAttributes[1], "sdy.sharding");
    QVERIFY(sdy);
    QCOMPARE(sdy->kind, Attribute::Kind::Dialect);
    QCOMPARE(sdy->text, std::string("sdy.sharding"));
    QCOMPARE(sdy->body, std::string("@mesh, [{}, {\"model\"}]"));
    QCOMPARE(main.resultTypes.size(), std::size_t(1));
    QCOMPARE(findAttribute(main.resultAttributes[0], "jax.result_info")->text, std::string("result"));
    QCOMPARE(main.body.blocks.size(), std::size_t(1));
    const std::vector<Op>& ops = main.body.blocks.front().ops;
    QCOMPARE(ops.size(), std::size_t(3));
    QCOMPARE(ops[1].name, std::string("func.call"));
    QCOMPARE(calleeOf(ops[1]).value_or(""), std::string("mlp"));
    QCOMPARE(ops[2].name, std::string("func.return"));
    QCOMPARE(ops[2].operands, ops[1].results);
    QCOMPARE(ops[0].location, (SourceLocation { 11, 5 }));

    const Function* mlp = module.findFunction("mlp");
    QVERIFY(mlp);
    QCOMPARE(mlp->visibility, std::string("private"));
    QCOMPARE(findAttribute(mlp->attributes, "tf.x")->intValue, std::int64_t(1));
    QCOMPARE(calleeOf(mlp->body.blocks.front().ops.front()).value_or(""), std::string("relu"));
    const Function* relu = module.findFunction("relu");
    QCOMPARE(relu->body.blocks.front().ops.back().name, std::string("func.return"));
    QCOMPARE(QString::fromStdString(toString(relu->body.blocks.front().ops[1].resultTypes.front())),
        QStringLiteral("tensor<8x4096xbf16>"));
}

void TestHloReader::bareFunctionsAndEntry()
{
    const std::string text = "func.func private @helper(%arg0: tensor<f32>) -> tensor<f32> {\n"
                             "  return %arg0 : tensor<f32>\n}\n"
                             "func.func @only_public(%arg0: tensor<f32>) -> tensor<f32> {\n"
                             "  %0 = call @helper(%arg0) : (tensor<f32>) -> tensor<f32>\n"
                             "  return %0 : tensor<f32>\n}\n"
                             "func.func private @decl(tensor<f32>, tensor<i32>) -> tensor<f32>\n";
    const ReadResult result = readHloText(text, "bare.mlir");
    QVERIFY2(result.ok(), firstError(result).c_str());
    const Module& module = result.modules.front();
    QVERIFY(module.name.empty());
    QCOMPARE(module.functions.size(), std::size_t(3));
    QCOMPARE(module.entry()->name, std::string("only_public"));
    QCOMPARE(module.declaredDeviceCount(), std::int64_t(1));
    const Function* decl = module.findFunction("decl");
    QCOMPARE(decl->argumentTypes.size(), std::size_t(2));
    QCOMPARE(decl->arguments.size(), std::size_t(2));
    QVERIFY(decl->body.blocks.empty());
}

void TestHloReader::valuesAndMultipleResults()
{
    const std::string text = R"(func.func @main(%arg0: tensor<5x3xf32>) -> (tensor<5x2xf32>, tensor<5x2xi32>) {
  %values, %indices = chlo.top_k(%arg0, k = 2) : tensor<5x3xf32> -> (tensor<5x2xf32>, tensor<5x2xi32>)
  %0:2 = stablehlo.optimization_barrier %values, %indices : tensor<5x2xf32>, tensor<5x2xi32>
  %1 = stablehlo.tuple %0#0, %0#1 : tuple<tensor<5x2xf32>, tensor<5x2xi32>>
  %2 = stablehlo.get_tuple_element %1[1] : (tuple<tensor<5x2xf32>, tensor<5x2xi32>>) -> tensor<5x2xi32>
  %3 = stablehlo.select %p, %0#0, %0 : tensor<5x2xi1>, tensor<5x2xf32>
  return %0#0, %2 : tensor<5x2xf32>, tensor<5x2xi32>
}
)";
    // %p is undefined on purpose in the first read; defined in the second.
    ReadResult result = readHloText(text, "v.mlir");
    QCOMPARE(result.errors.size(), std::size_t(1));
    QCOMPARE(result.errors.front().message, std::string("use of undefined value %p"));
    QCOMPARE(result.errors.front().location, (SourceLocation { 6, 25 }));

    std::string fixed = text;
    fixed.replace(fixed.find("%arg0: tensor<5x3xf32>)"), 23, "%arg0: tensor<5x3xf32>, %p: tensor<5x2xi1>)");
    result = readHloText(fixed, "v.mlir");
    QVERIFY2(result.ok(), firstError(result).c_str());
    const Module& module = result.modules.front();
    const std::vector<Op>& ops = module.functions.front().body.blocks.front().ops;
    QCOMPARE(ops.size(), std::size_t(6));
    QCOMPARE(ops[0].name, std::string("chlo.top_k"));
    QCOMPARE(intValue(ops[0], "k").value_or(0), std::int64_t(2));
    QCOMPARE(module.valueNames[ops[0].results[0]], std::string("%values"));
    QCOMPARE(module.valueNames[ops[0].results[1]], std::string("%indices"));
    QCOMPARE(QString::fromStdString(toString(module.valueTypes[ops[0].results[1]])), QStringLiteral("tensor<5x2xi32>"));
    QCOMPARE(module.valueNames[ops[1].results[0]], std::string("%0#0"));
    QCOMPARE(module.valueNames[ops[1].results[1]], std::string("%0#1"));
    QCOMPARE(ops[1].operandTypes.size(), std::size_t(2));
    QCOMPARE(ops[2].operands, ops[1].results);
    QCOMPARE(ops[2].operandTypes.size(), std::size_t(2));
    QCOMPARE(ops[2].resultTypes.front().kind, TypeKind::Tuple);
    QCOMPARE(intValue(ops[3], "index").value_or(-1), std::int64_t(1));
    // select's `: pred type, value type` form; `%0` means `%0#0`.
    QCOMPARE(QString::fromStdString(toString(ops[4].resultTypes.front())), QStringLiteral("tensor<5x2xf32>"));
    QCOMPARE(ops[4].operands[2], ops[1].results[0]);
    QCOMPARE(ops[5].operands[0], ops[1].results[0]);
}

void TestHloReader::reduceForms()
{
    const std::string text = inFunction(R"(  %c1 = stablehlo.constant dense<0> : tensor<i32>
  %0 = stablehlo.reduce(%x init: %f) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %1:2 = stablehlo.reduce(%x init: %f), (%idx init: %c1) across dimensions = [1] : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
    reducer(%ra: tensor<f32>, %rc: tensor<f32>) (%rb: tensor<i32>, %rd: tensor<i32>)  {
    %m = stablehlo.maximum %ra, %rc : tensor<f32>
    %n = stablehlo.minimum %rb, %rd : tensor<i32>
    stablehlo.return %m, %n : tensor<f32>, tensor<i32>
  }
  %2 = "stablehlo.reduce"(%x, %f) ({
  ^bb0(%p: tensor<f32> loc("p"), %q: tensor<f32> loc("q")):
    %s = "stablehlo.add"(%p, %q) : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("s")
    "stablehlo.return"(%s) : (tensor<f32>) -> () loc("r")
  }) {dimensions = array<i64: 1>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> loc("foo"))");
    const ReadResult result = readHloText(text, "r.mlir");
    QVERIFY2(result.ok(), firstError(result).c_str());
    const Module& module = result.modules.front();
    for (int n : { 0, 2 }) {
        const Op* reduce = findOp(module, "stablehlo.reduce", n);
        QVERIFY(reduce);
        QCOMPARE(reduce->operands.size(), std::size_t(2));
        QCOMPARE(module.valueNames[reduce->operands[1]], std::string("%f"));
        QCOMPARE(QString::fromStdString(join(intList(*reduce, "dimensions").value())), QStringLiteral("[1]"));
        QCOMPARE(reduce->regions.size(), std::size_t(1));
        const Block& body = reduce->regions.front().blocks.front();
        QCOMPARE(body.arguments.size(), std::size_t(2));
        QCOMPARE(body.ops.size(), std::size_t(2));
        QCOMPARE(body.ops[0].name, std::string("stablehlo.add"));
        QCOMPARE(body.ops[1].name, std::string("stablehlo.return"));
        QCOMPARE(body.ops[1].operands, body.ops[0].results);
        QCOMPARE(QString::fromStdString(toString(reduce->resultTypes.front())), QStringLiteral("tensor<4xf32>"));
    }
    const Op* argmax = findOp(module, "stablehlo.reduce", 1);
    QCOMPARE(argmax->operands.size(), std::size_t(4)); // inputs, then inits
    QCOMPARE(module.valueNames[argmax->operands[1]], std::string("%idx"));
    QCOMPARE(module.valueNames[argmax->operands[3]], std::string("%c1"));
    QCOMPARE(argmax->resultTypes.size(), std::size_t(2));
    const Block& body = argmax->regions.front().blocks.front();
    std::vector<std::string> names;
    for (ValueId id : body.arguments)
        names.push_back(module.valueNames[id]);
    QCOMPARE(names, (std::vector<std::string> { "%ra", "%rb", "%rc", "%rd" }));
    QCOMPARE(body.ops.size(), std::size_t(3));
}

void TestHloReader::whileForms()
{
    const std::string text = inFunction(R"(  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c10 = stablehlo.constant dense<10> : tensor<i32>
  %r:2 = stablehlo.while(%iterArg = %c0, %iterArg_1 = %x) : tensor<i32>, tensor<4x8xf32> attributes {mhlo.frontend_attributes = {k = "v"}}
    cond {
    %p = stablehlo.compare  LT, %iterArg, %c10,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %n = stablehlo.add %iterArg, %c1 : tensor<i32>
    stablehlo.return %n, %iterArg_1 : tensor<i32>, tensor<4x8xf32>
  }
  %g:2 = "stablehlo.while"(%c0, %x) ({
  ^bb0(%a0: tensor<i32>, %a1: tensor<4x8xf32>):
    %p = "stablehlo.compare"(%a0, %c10) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "stablehlo.return"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a0: tensor<i32>, %a1: tensor<4x8xf32>):
    "stablehlo.return"(%a0, %a1) : (tensor<i32>, tensor<4x8xf32>) -> ()
  }) : (tensor<i32>, tensor<4x8xf32>) -> (tensor<i32>, tensor<4x8xf32>))");
    const ReadResult result = readHloText(text, "w.mlir");
    QVERIFY2(result.ok(), firstError(result).c_str());
    const Module& module = result.modules.front();
    for (int n : { 0, 1 }) {
        const Op* loop = findOp(module, "stablehlo.while", n);
        QVERIFY(loop);
        QCOMPARE(loop->operands.size(), std::size_t(2));
        QCOMPARE(module.valueNames[loop->operands[0]], std::string("%c0"));
        QCOMPARE(loop->regions.size(), std::size_t(2));
        QCOMPARE(loop->resultTypes.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(toString(loop->resultTypes[1])), QStringLiteral("tensor<4x8xf32>"));
        for (const Region& region : loop->regions) {
            QCOMPARE(region.blocks.size(), std::size_t(1));
            QCOMPARE(region.blocks.front().arguments.size(), std::size_t(2));
            QVERIFY(region.blocks.front().argumentTypes[0] == loop->resultTypes[0]);
        }
        const Op& compare = loop->regions[0].blocks.front().ops.front();
        QCOMPARE(comparisonDirection(compare).value_or(""), std::string("LT"));
        QCOMPARE(compare.operands[0], loop->regions[0].blocks.front().arguments[0]);
    }
    const Op* pretty = findOp(module, "stablehlo.while");
    QCOMPARE(module.valueNames[pretty->regions[1].blocks.front().arguments[1]], std::string("%iterArg_1"));
    QVERIFY(pretty->attribute("mhlo.frontend_attributes"));
}

void TestHloReader::manualComputation()
{
    const std::string text = R"(module @shmap attributes {mhlo.num_partitions = 8 : i32} {
  sdy.mesh @mesh = <["x"=2, "y"=4]>
  func.func @main(%arg0: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> tensor<16x32xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>] out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x", "y"} (%arg1: tensor<8x32xf32>) {
      %1 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %s : tensor<f32>
      }) : (tensor<8x32xf32>) -> tensor<8x32xf32>
      sdy.return %1 : tensor<8x32xf32>
    } : (tensor<16x32xf32>) -> tensor<16x32xf32>
    return %0 : tensor<16x32xf32>
  }
}
)";
    const ReadResult result = readHloText(text, "m.mlir");
    QVERIFY2(result.ok(), firstError(result).c_str());
    const Module& module = result.modules.front();
    const Op* manual = findOp(module, "sdy.manual_computation");
    QVERIFY(manual);
    QCOMPARE(manual->operands.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(attributeText(*manual->attribute("in_shardings"))),
        QStringLiteral("#sdy.sharding_per_value<[<@mesh, [{\"x\"}, {}]>]>"));
    QVERIFY(manual->attribute("out_shardings"));
    const Attribute* axes = manual->attribute("manual_axes");
    QVERIFY(axes);
    QCOMPARE(axes->items.size(), std::size_t(2));
    QCOMPARE(axes->items[1].text, std::string("y"));
    QCOMPARE(manual->regions.size(), std::size_t(1));
    const Block& body = manual->regions.front().blocks.front();
    QCOMPARE(QString::fromStdString(toString(body.argumentTypes.front())), QStringLiteral("tensor<8x32xf32>"));
    QCOMPARE(body.ops.back().name, std::string("sdy.return"));
    QCOMPARE(QString::fromStdString(toString(manual->resultTypes.front())), QStringLiteral("tensor<16x32xf32>"));
    const Op* allReduce = findOp(module, "stablehlo.all_reduce");
    QCOMPARE(allReduce->operands.front(), body.arguments.front());
    QCOMPARE(QString::fromStdString(groupsText(replicaGroups(*allReduce, module).value())),
        QStringLiteral("[[0, 1], [2, 3]]"));
    QCOMPARE(allReduce->attribute("use_global_device_ids")->kind, Attribute::Kind::Unit);
    QCOMPARE(module.declaredDeviceCount(), std::int64_t(8));
}

void TestHloReader::otherPrettyForms()
{
    const std::string text = inFunction(R"(  %0 = stablehlo.add %a, %a : tensor<2x3xf32>
  %1 = stablehlo.convert %a : (tensor<2x3xf32>) -> tensor<2x3xbf16>
  %2 = stablehlo.bitcast_convert %i : (tensor<i32>) -> tensor<f32>
  %3 = stablehlo.reshape %a : (tensor<2x3xf32>) -> tensor<6xf32>
  %4 = stablehlo.clamp %f, %a, %f : (tensor<f32>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %5 = stablehlo.dynamic_update_slice %a, %a, %i, %i : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  %6 = stablehlo.exponential %a {result_accuracy = #stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<DEFAULT>>} : tensor<2x3xf32>
  stablehlo.custom_call @check.expect_close(%a, %a) {has_side_effect = true} : (tensor<2x3xf32>, tensor<2x3xf32>) -> ()
  %8 = "chlo.ragged_dot"(%a, %b, %i) {ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0], lhs_ragged_dimensions = [0], rhs_group_dimensions = []>} : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<i32>) -> tensor<2x4xf32>
  %9 = sdy.all_slice [{"y"}, {}] %a out_sharding=<@mesh, [{"y"}, {}]> : tensor<2x3xf32>
  %10 = stablehlo.create_token : !stablehlo.token
  %11 = stablehlo.after_all %10, %10 : !stablehlo.token
  stablehlo.custom_call @side_effect(%a) : (tensor<2x3xf32>) -> ())");
    const ReadResult result = readHloText(text, "p.mlir");
    QVERIFY2(result.ok(), firstError(result).c_str());
    const Module& module = result.modules.front();
    const std::vector<Op>& ops = module.functions.front().body.blocks.front().ops;
    QCOMPARE(ops.size(), std::size_t(14));
    QCOMPARE(ops[0].operandTypes.size(), std::size_t(2));
    QVERIFY(ops[0].operandTypes[1] == ops[0].resultTypes[0]);
    QCOMPARE(QString::fromStdString(toString(ops[1].resultTypes.front())), QStringLiteral("tensor<2x3xbf16>"));
    QCOMPARE(QString::fromStdString(toString(ops[1].operandTypes.front())), QStringLiteral("tensor<2x3xf32>"));
    QCOMPARE(QString::fromStdString(toString(ops[3].resultTypes.front())), QStringLiteral("tensor<6xf32>"));
    QCOMPARE(ops[4].operands.size(), std::size_t(3));
    QCOMPARE(ops[5].operands.size(), std::size_t(4));
    QCOMPARE(ops[6].attribute("result_accuracy")->text, std::string("stablehlo.result_accuracy"));
    QVERIFY(ops[7].results.empty());
    QCOMPARE(customCallTarget(ops[7]).value_or(""), std::string("check.expect_close"));
    const Attribute* ragged = ops[8].attribute("ragged_dot_dimension_numbers");
    QVERIFY(ragged && ragged->field("lhs_ragged_dimensions"));
    QCOMPARE(QString::fromStdString(join(intList(*ragged->field("lhs_contracting_dimensions")).value())),
        QStringLiteral("[1]"));
    QCOMPARE(ops[9].name, std::string("sdy.all_slice"));
    QCOMPARE(ops[9].attribute("out_sharding")->text, std::string("sdy.sharding"));
    QCOMPARE(ops[10].resultTypes.front().kind, TypeKind::Token);
    QCOMPARE(ops[11].operands.size(), std::size_t(2));
    QCOMPARE(ops[12].name, std::string("stablehlo.custom_call"));
    QVERIFY(ops[12].results.empty());
    QVERIFY(ops[12].resultTypes.empty());
    QCOMPARE(ops[13].name, std::string("func.return"));
    QVERIFY(ops[13].operands.empty());
}

void TestHloReader::genericUnknownDialect()
{
    // Any well-formed generic op parses, whatever its dialect; in pretty form it is refused.
    const std::string text
        = inFunction("  %0:2 = \"mydialect.frobnicate\"(%a, %i) <{level = 3 : i64}> ({\n"
                     "  ^bb0(%z: tensor<f32>):\n    \"mydialect.yield\"(%z) : (tensor<f32>) -> ()\n"
                     "  }) {tag = \"x\"} : (tensor<2x3xf32>, tensor<i32>) -> (tensor<2x3xf32>, !mydialect.thing<4>)");
    const ReadResult result = readHloText(text, "g.mlir");
    QVERIFY2(result.ok(), firstError(result).c_str());
    const Op* op = findOp(result.modules.front(), "mydialect.frobnicate");
    QVERIFY(op);
    QCOMPARE(intValue(*op, "level").value_or(0), std::int64_t(3));
    QCOMPARE(op->attribute("tag")->text, std::string("x"));
    QCOMPARE(op->resultTypes[1].kind, TypeKind::Other);
    QCOMPARE(op->resultTypes[1].text, std::string("!mydialect.thing<4>"));
    QCOMPARE(op->regions.front().blocks.front().ops.front().name, std::string("mydialect.yield"));
}

void TestHloReader::printerForms_data()
{
    // Forms real printers write (issue: "StableHLO as printers write it"), each in a minimal file:
    // the op that must come out, an attribute it must carry (empty: none), and its operand count.
    QTest::addColumn<QString>("body");
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("attribute");
    QTest::addColumn<int>("operands");
    QTest::addRow("operand list on the next line") << "%0 = stablehlo.add\n      %a, %a : tensor<2x3xf32>"
                                                   << "stablehlo.add"
                                                   << "" << 2;
    QTest::addRow("operands over several lines") << "%0 = stablehlo.dot_general %a,\n      %b,\n contracting_dims = "
                                                    "[1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>"
                                                 << "stablehlo.dot_general"
                                                 << "" << 2;
    QTest::addRow("constant with a properties dictionary")
        << "%0 = stablehlo.constant() <{value = dense<1.000000e+00> : tensor<4xf32>}> : () -> tensor<4xf32>"
        << "stablehlo.constant"
        << "value" << 0;
    QTest::addRow("attribute dictionary after the type")
        << "%0 = stablehlo.add %a, %a : tensor<2x3xf32> {mhlo.frontend_attributes = {x = \"y\"}}"
        << "stablehlo.add"
        << "mhlo.frontend_attributes" << 2;
    QTest::addRow("attribute dictionary after a function type")
        << "%0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> "
           "tensor<2x4xf32> {tag = 1 : i64}"
        << "stablehlo.dot_general"
        << "tag" << 2;
}

void TestHloReader::printerForms()
{
    QFETCH(QString, body);
    QFETCH(QString, op);
    QFETCH(QString, attribute);
    QFETCH(int, operands);
    // The next statement starts right after, so a misread boundary would show.
    const ReadResult result
        = readHloText(inFunction("  " + body.toStdString() + "\n  %9 = stablehlo.add %f, %f : tensor<f32>"), "p.mlir");
    QVERIFY2(result.ok(), firstError(result).c_str());
    const Op* found = findOp(result.modules.front(), op.toStdString());
    QVERIFY(found);
    QCOMPARE(int(found->operands.size()), operands);
    if (!attribute.isEmpty())
        QVERIFY2(found->attribute(attribute.toStdString()), qPrintable(attribute));
    QVERIFY(findOp(result.modules.front(), "stablehlo.add", op == QStringLiteral("stablehlo.add") ? 1 : 0));
}

void TestHloReader::genericTopLevelFunction()
{
    // A generic-form "func.func" at module level is a function (it was parsed and dropped).
    const std::string text
        = "\"func.func\"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = \"main\","
          " sym_visibility = \"public\"}> ({\n"
          "^bb0(%arg0: tensor<4xf32>):\n"
          "  %0 = \"stablehlo.add\"(%arg0, %arg0) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
          "  \"func.return\"(%0) : (tensor<4xf32>) -> ()\n"
          "}) : () -> ()\n";
    const ReadResult result = readHloText(text, "g.mlir");
    QVERIFY2(result.ok(), firstError(result).c_str());
    QCOMPARE(result.modules.front().functions.size(), std::size_t(1));
    const Function& function = result.modules.front().functions.front();
    QCOMPARE(function.name, std::string("main"));
    QCOMPARE(function.visibility, std::string("public"));
    QCOMPARE(function.arguments.size(), std::size_t(1));
    QCOMPARE(toString(function.argumentTypes.front()), std::string("tensor<4xf32>"));
    QCOMPARE(function.resultTypes.size(), std::size_t(1));
    QVERIFY(findOp(result.modules.front(), "stablehlo.add"));
    // Without a name it is an error at the op.
    const ReadResult unnamed = readHloText("\"func.func\"() ({\n}) : () -> ()\n", "u.mlir");
    QVERIFY(!unnamed.errors.empty());
    QCOMPARE(
        toString(unnamed.errors.front()), std::string("u.mlir:1:1: generic 'func.func' without a string 'sym_name'"));
}

void TestHloReader::onlyCommentsIsNoModule_data()
{
    QTest::addColumn<QString>("text");
    QTest::addRow("comments") << "// RUN: stablehlo-opt %s\n// nothing else\n\n";
    QTest::addRow("white space") << "  \n\t\n";
    QTest::addRow("empty file") << "";
}

void TestHloReader::onlyCommentsIsNoModule()
{
    // A valid file with nothing in it: no error, no module, and a warning that says so.
    QFETCH(QString, text);
    const ReadResult result = readHloText(text.toStdString(), "c.mlir");
    QVERIFY(result.errors.empty());
    QVERIFY(result.modules.empty());
    QVERIFY(result.onlyComments);
    QVERIFY(!result.ok());
    QCOMPARE(result.warnings, std::vector<std::string> { "c.mlir: holds only comments: no module or function" });
}

void TestHloReader::splitFile()
{
    const std::string text = "func.func @one() {\n  return\n}\n"
                             "// -----\n"
                             "func.func @two(%a: tensor<f32>) -> tensor<f32> {\n"
                             "  // expected-error@+1 {{something}}\n"
                             "  %0 = stablehlo.add %a, %nope : tensor<f32>\n"
                             "  return %0 : tensor<f32>\n}\n"
                             "  // -----\n"
                             "func.func @three() {\n  return\n}\n"
                             "// -----\n";
    const ReadResult result = readHloText(text, "split.mlir");
    QCOMPARE(result.modules.size(), std::size_t(2));
    QCOMPARE(result.modules[0].functions.front().name, std::string("one"));
    QCOMPARE(result.modules[1].functions.front().name, std::string("three"));
    QCOMPARE(result.modules[1].functions.front().location, (SourceLocation { 11, 1 }));
    QCOMPARE(result.errors.size(), std::size_t(1));
    QCOMPARE(toString(result.errors.front()), std::string("split.mlir:7:26: use of undefined value %nope"));
    QVERIFY(!result.ok());
}

void TestHloReader::badInput_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("message");

    const std::string head = "func.func @f(%a: tensor<f32>) -> tensor<f32> {\n";
    QTest::addRow("binary garbage") << QString::fromLatin1("\x7f"
                                                           "ELF\x02\x01\x01")
                                    << 1 << 1 << "unexpected character '\\x7f'";
    QTest::addRow("truncated mid-op") << q(head + "  %0 = stablehlo.add %a, ") << 2 << 26
                                      << "expected ':' and the result types of 'stablehlo.add', found end of file";
    QTest::addRow("truncated mid-type") << "func.func @f(%a: tensor<4x" << 1 << 27
                                        << "expected element type, found end of file";
    QTest::addRow("truncated mid-string")
        << "module attributes {a = \"abc" << 1 << 24 << "expected '\"' to close the string, found end of file";
    QTest::addRow("truncated generic op")
        << q(head + "  %0 = \"stablehlo.add\"(%a, %a) : (tensor<f32>, tensor<f32>) ->") << 2 << 63
        << "expected type, found end of file";
    QTest::addRow("unbalanced braces (missing })")
        << q(head + "  return %a : tensor<f32>\n") << 3 << 1 << "expected '}' to close the region, found end of file";
    QTest::addRow("unbalanced braces (extra })")
        << q(head + "  return %a : tensor<f32>\n}\n}\n") << 4 << 1 << "expected 'module' or 'func.func', found '}'";
    QTest::addRow("unbalanced parens") << q(
        head + "  %0 = \"stablehlo.add\"(%a, %a : (tensor<f32>, tensor<f32>) -> tensor<f32>\n")
                                       << 2 << 31 << "expected ',' or ')' in the operand list, found ':'";
    QTest::addRow("unbalanced module brace") << "module {\n  func.func @f() {\n    return\n  }\n"
                                             << 5 << 1 << "expected '}' to close the module, found end of file";
    QTest::addRow("unknown element type") << "func.func @f(%a: tensor<4xfoo>) {\n  return\n}\n"
                                          << 1 << 27 << "expected element type, found 'foo'";
    QTest::addRow("dims without element type") << "func.func @f(%a: tensor<4x>) {\n  return\n}\n"
                                               << 1 << 27 << "expected element type, found '>'";
    QTest::addRow("dimension without x") << "func.func @f(%a: tensor<4>) {\n  return\n}\n"
                                         << 1 << 26 << "expected 'x' after a dimension, found '>'";
    QTest::addRow("not a type") << "func.func @f(%a: tensr<4xf32>) {\n  return\n}\n"
                                << 1 << 18 << "expected type, found 'tensr'";
    QTest::addRow("unknown dialect in pretty form")
        << q(head + "  %0 = foo.bar %a : tensor<f32>\n  return %0 : tensor<f32>\n}\n") << 2 << 8
        << "unknown op 'foo.bar' in pretty form; only the generic form is accepted for unknown ops";
    QTest::addRow("absurd shape (overflows int64)")
        << "func.func @f(%a: tensor<99999999999x99999999999x99999999999xf32>) {\n  return\n}\n"
        << 1 << 18 << "absurd shape tensor<99999999999x99999999999x99999999999xf32>: its element count overflows int64";
    QTest::addRow("absurd shape (over the limit)")
        << q(head + "  %0 = stablehlo.constant dense<0.0> : tensor<1000000x1000000x1000xf32>\n") << 2 << 40
        << "absurd shape tensor<1000000x1000000x1000xf32>: 1000000000000000 elements, more than the limit of "
           "281474976710656";
    QTest::addRow("dimension overflows int64") << "func.func @f(%a: tensor<99999999999999999999xf32>) {\n  return\n}\n"
                                               << 1 << 25 << "dimension does not fit in int64";
    QTest::addRow("undefined value") << q(
        head + "  %0 = stablehlo.add %a, %b : tensor<f32>\n  return %0 : tensor<f32>\n}\n")
                                     << 2 << 26 << "use of undefined value %b";
    QTest::addRow("value used outside its region") << q(head
        + "  %0 = \"stablehlo.reduce\"(%a, %a) ({\n  ^bb0(%p: tensor<f32>, %q: tensor<f32>):\n    "
          "\"stablehlo.return\"(%p) : (tensor<f32>) -> ()\n  }) {dimensions = array<i64>} : (tensor<f32>, tensor<f32>) "
          "-> tensor<f32>\n  return %p : tensor<f32>\n}\n")
                                                   << 6 << 10 << "use of undefined value %p";
    QTest::addRow("result count mismatch")
        << q(head + "  %0:2 = \"stablehlo.add\"(%a, %a) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n") << 2 << 3
        << "'stablehlo.add' defines 2 result(s) but its type lists 1";
    QTest::addRow("missing = after results") << q(head + "  %0 stablehlo.add %a, %a : tensor<f32>\n") << 2 << 6
                                             << "expected '=' after the results, found 'stablehlo.add'";
    QTest::addRow("function without name") << "func.func (%a: tensor<f32>) {\n}\n"
                                           << 1 << 11 << "expected function name '@...', found '('";
    QTest::addRow("unterminated loc") << q(head + "  return %a : tensor<f32> loc(\"x\"\n}\n") << 2 << 27
                                      << "expected ')' to close 'loc(', found '}'";
    QTest::addRow("unterminated dialect attribute")
        << q(head + "  %0 = \"stablehlo.add\"(%a, %a) {x = #stablehlo.dot<lhs = [1]} : () -> ()\n}\n") << 2 << 51
        << "expected '>' to close this '<', found '}'";
    QTest::addRow("bad dense literal") << q(head + "  %0 = stablehlo.constant dense<[1, @x]> : tensor<2xi32>\n") << 2
                                       << 37 << "expected a dense element value, found '@x'";
    QTest::addRow("generic op without type")
        << q(head + "  %0 = \"stablehlo.add\"(%a, %a)\n  return %0 : tensor<f32>\n}\n") << 3 << 3
        << "expected ':' and the op's function type, found 'return'";
    QTest::addRow("bad mesh") << "sdy.mesh @m = <[\"x\"=two]>\n" << 1 << 21 << "expected an integer, found 'two'";
    QTest::addRow("while without do") << q(head
        + "  %0 = stablehlo.while(%it = %a) : tensor<f32>\n  cond {\n    stablehlo.return %it : tensor<f32>\n  }\n  "
          "return %0 : tensor<f32>\n}\n")
                                      << 6 << 3 << "expected 'do' region of the while loop, found 'return'";
}

void TestHloReader::badInput()
{
    QFETCH(QString, text);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, message);
    const ReadResult result = readHloText(text.toStdString(), "bad.mlir");
    QVERIFY(!result.ok());
    QCOMPARE(result.errors.size(), std::size_t(1));
    const ReadError& error = result.errors.front();
    QCOMPARE(QString::fromStdString(error.message), message);
    QCOMPARE(error.location.line, line);
    QCOMPARE(error.location.column, column);
    QCOMPARE(error.file, std::string("bad.mlir"));
    QCOMPARE(QString::fromStdString(toString(error)),
        QStringLiteral("bad.mlir:%1:%2: %3").arg(line).arg(column).arg(message));
}

void TestHloReader::deepNesting_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addRow("arrays") << "arrays";
    QTest::addRow("dictionaries") << "dictionaries";
    QTest::addRow("regions") << "regions";
    QTest::addRow("tuple types") << "tuples";
    QTest::addRow("dense lists") << "dense";
    QTest::addRow("complex element types") << "complex";
    QTest::addRow("parenthesised pretty operands") << "parens";
    QTest::addRow("dense complex values") << "densecomplex";
}

void TestHloReader::deepNesting()
{
    QFETCH(QString, kind);
    const int depth = 100000; // far past the limit: must fail cleanly, not overflow the stack
    std::string text;
    if (kind == QLatin1String("arrays")) {
        text = "module attributes {a = " + std::string(depth, '[') + std::string(depth, ']') + "} {\n}\n";
    } else if (kind == QLatin1String("dictionaries")) {
        text = "module attributes {a = ";
        for (int k = 0; k < depth; ++k)
            text += "{b = ";
        text += "1" + std::string(depth, '}') + "} {\n}\n";
    } else if (kind == QLatin1String("regions")) {
        text = "func.func @f() {\n";
        for (int k = 0; k < 2000; ++k)
            text += "\"test.op\"() ({\n";
        for (int k = 0; k < 2000; ++k)
            text += "}) : () -> ()\n";
        text += "return\n}\n";
    } else if (kind == QLatin1String("tuples")) {
        text = "func.func @f(%a: ";
        for (int k = 0; k < depth; ++k)
            text += "tuple<";
        text += "tensor<f32>" + std::string(depth, '>') + ") {\n  return\n}\n";
    } else if (kind == QLatin1String("complex")) {
        text = "func.func @f(%a: tensor<";
        for (int k = 0; k < depth; ++k)
            text += "complex<";
        text += "f32" + std::string(depth, '>') + ">) {\n  return\n}\n";
    } else if (kind == QLatin1String("parens")) {
        text = "func.func @f(%a: tensor<f32>) {\n  %0 = stablehlo.add " + std::string(depth, '(') + "%a"
            + std::string(depth, ')') + " : tensor<f32>\n  return\n}\n";
    } else if (kind == QLatin1String("densecomplex")) {
        text = "func.func @f() {\n  %0 = stablehlo.constant dense<" + std::string(depth, '(') + "1"
            + std::string(depth, ')') + "> : tensor<complex<f32>>\n  return\n}\n";
    } else {
        text = "func.func @f() {\n  %0 = stablehlo.constant dense<" + std::string(depth, '[') + "1"
            + std::string(depth, ']') + "> : tensor<1xi32>\n  return\n}\n";
    }
    const ReadResult result = readHloText(text, "deep.mlir");
    QCOMPARE(result.errors.size(), std::size_t(1));
    QCOMPARE(result.errors.front().message, std::string("nesting deeper than 256 levels"));
    QVERIFY(result.errors.front().location.line > 0);

    ReadLimits relaxed;
    relaxed.maxNestingDepth = 5000;
    if (kind == QLatin1String("regions")) {
        // Three frames per region level: under GCC's address sanitizer the 8 MB main-thread stack ran out
        // near 1100 levels, so the 2000-level parse runs on a thread given room (a caller raising the
        // limit must give the stack too; the default 256 levels fit either way).
        bool parsed = false;
        std::unique_ptr<QThread> thread(
            QThread::create([&] { parsed = readHloText(text, "deep.mlir", relaxed).ok(); }));
        thread->setStackSize(64u << 20);
        thread->start();
        QVERIFY(thread->wait(120000));
        QVERIFY2(parsed, "2000 nested regions parse under a raised limit");
    }
}

void TestHloReader::truncatedAndMutatedInputNeverCrash()
{
    const std::string text = R"(#loc1 = loc("x")
module @m attributes {mhlo.num_partitions = 2 : i32} {
  sdy.mesh @mesh = <["x"=2]>
  func.func public @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<4xf32> {jax.result_info = ""}) {
    %c = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
    %1:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %0) : tensor<f32>, tensor<4xf32>
      cond {
      %2 = stablehlo.compare  LT, %iterArg, %c,  FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %3 = "stablehlo.all_reduce"(%iterArg_0) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = stablehlo.add %a, %b : tensor<f32> loc(#loc1)
        stablehlo.return %s : tensor<f32>
      }) : (tensor<4xf32>) -> tensor<4xf32>
      stablehlo.return %iterArg, %3 : tensor<f32>, tensor<4xf32>
    }
    %4 = stablehlo.convolution(%arg0, %arg0) dim_numbers = [b, f]x[i, o]->[b, f], window = {} {feature_group_count = 1 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %5 = stablehlo.custom_call @foo(%4) {backend_config = "a\22b"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    return %1#1 : tensor<4xf32>
  }
}
)";
    QVERIFY2(readHloText(text, "fuzz.mlir").ok(), firstError(readHloText(text, "fuzz.mlir")).c_str());
    int failures = 0;
    for (std::size_t cut = 0; cut < text.size(); ++cut) {
        const ReadResult result = readHloText(text.substr(0, cut), "fuzz.mlir");
        for (const ReadError& error : result.errors) {
            QVERIFY(error.location.line > 0 && error.location.column > 0);
            QVERIFY(!error.message.empty());
        }
        failures += result.ok() ? 0 : 1;
    }
    QVERIFY(failures > int(text.size()) * 9 / 10); // almost every prefix is incomplete
    std::mt19937 random(7);
    const std::string alphabet = "%@#!^\"(){}[]<>:,=-?x0123456789 \n\\abcdefloc";
    for (int trial = 0; trial < 3000; ++trial) {
        std::string mutated = text;
        for (int k = 0; k < 1 + int(random() % 4); ++k) {
            const std::size_t at = random() % mutated.size();
            switch (random() % 3) {
            case 0:
                mutated[at] = alphabet[random() % alphabet.size()];
                break;
            case 1:
                mutated.erase(at, 1 + random() % 8);
                break;
            default:
                mutated.insert(at, 1, char(random() % 256));
            }
        }
        const ReadResult result = readHloText(mutated, "fuzz.mlir");
        for (const ReadError& error : result.errors)
            QVERIFY2(error.location.line > 0 && error.location.column > 0 && !error.message.empty(), mutated.c_str());
    }
}

void TestHloReader::readFile()
{
    const ReadResult missing = readHloFile("/nonexistent/dir/model.mlir");
    QCOMPARE(missing.errors.size(), std::size_t(1));
    QCOMPARE(toString(missing.errors.front()), std::string("/nonexistent/dir/model.mlir: cannot open the file"));

    const QString path = QDir::tempPath() + QStringLiteral("/tst_hlo_reader_nul.mlir");
    {
        std::FILE* file = std::fopen(path.toLocal8Bit().constData(), "wb");
        QVERIFY(file);
        const char bytes[] = "module {\n  \0\n}\n";
        std::fwrite(bytes, 1, sizeof(bytes) - 1, file);
        std::fclose(file);
    }
    const ReadResult binary = readHloFile(path.toStdString());
    QCOMPARE(binary.errors.size(), std::size_t(1));
    QCOMPARE(binary.errors.front().message, std::string("not a text file: NUL byte"));
    QCOMPARE(binary.errors.front().location, (SourceLocation { 2, 3 }));
    std::remove(path.toLocal8Bit().constData());

    const std::string fixture = std::string(ELK_TEST_DATA_DIR) + "/stablehlo/hespas/convolution.mlir";
    const ReadResult read = readHloFile(fixture);
    QVERIFY2(read.ok(), firstError(read).c_str());
    QCOMPARE(read.modules.front().sourceName, fixture);
}

void TestHloReader::typeHelpers()
{
    QCOMPARE(elementBytes("bf16"), 2.0);
    QCOMPARE(elementBytes("f32"), 4.0);
    QCOMPARE(elementBytes("i1"), 1.0);
    QCOMPARE(elementBytes("i4"), 0.5);
    QCOMPARE(elementBytes("f4E2M1FN"), 0.5);
    QCOMPARE(elementBytes("f6E3M2FN"), 0.75);
    QCOMPARE(elementBytes("f8E5M2"), 1.0);
    QCOMPARE(elementBytes("complex<f64>"), 16.0);
    QCOMPARE(elementBytes("!quant.uniform<i8<-127:127>:f32, 0.5:3>"), 1.0);
    QCOMPARE(elementBytes("!quant.uniform<ui16:f32, 0.5>"), 2.0);
    QCOMPARE(elementBytes("foo"), 0.0);

    Type huge;
    huge.dims = { std::int64_t(1) << 40, std::int64_t(1) << 40 };
    huge.elementType = "f32";
    QCOMPARE(elementCount(huge), std::numeric_limits<std::int64_t>::max()); // saturates
    Type bounded;
    bounded.dims = { kDynamicDim, 4 };
    bounded.bounds = { 16, kDynamicDim };
    bounded.elementType = "f16";
    QCOMPARE(elementCount(bounded), std::int64_t(64));
    QCOMPARE(typeBytes(bounded), 128.0);

    Module module;
    QVERIFY(!module.entry());
    QCOMPARE(module.declaredDeviceCount(), std::int64_t(1));
    Mesh a { "a", { { "x", 2 }, { "y", 4 } }, {} };
    Mesh b { "b", { { "x", 16 } }, {} };
    module.meshes = { a, b };
    QCOMPARE(module.declaredDeviceCount(), std::int64_t(16)); // the largest mesh
    Attribute replicas;
    replicas.kind = Attribute::Kind::Integer;
    replicas.intValue = 4;
    module.attributes.emplace_back("mhlo.num_replicas", replicas);
    QCOMPARE(module.declaredDeviceCount(), std::int64_t(4)); // declared wins
}

QTEST_GUILESS_MAIN(TestHloReader)
#include "tst_hlo_reader.moc"
