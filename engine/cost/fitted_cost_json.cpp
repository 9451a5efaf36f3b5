// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// "elk.fitted-cost/1": the fitted tile cost model as JSON.
#include "engine/cost/fitted_cost.h"

#include <cmath>
#include <set>

#include <nlohmann/json.hpp>

#include "engine/core/json_parse.h"
#include "engine/core/json_text.h"

namespace elk::cost {

namespace {

    using Json = nlohmann::json;

    constexpr std::string_view kSchema = "elk.fitted-cost/1";

    /// A problem at a JSON pointer; thrown inside this file only, caught by fittedCostFromJson.
    struct JsonProblem {
        std::string pointer;
        std::string message;
    };

    std::string child(const std::string& pointer, std::string_view key)
    {
        return pointer + "/" + jsonPointerToken(key);
    }

    /// The object at `pointer` ("" = the document) with exactly the keys `required`.
    const Json& object(const Json& value, const std::string& pointer, std::initializer_list<std::string_view> required)
    {
        if (!value.is_object())
            throw JsonProblem { pointer.empty() ? "/" : pointer,
                "expected an object, found " + describeJsonValue(value) };
        for (std::string_view key : required) {
            if (!value.contains(std::string(key)))
                throw JsonProblem { child(pointer, key), "missing field \"" + std::string(key) + "\"" };
        }
        for (const auto& [key, item] : value.items()) {
            bool known = false;
            for (std::string_view name : required)
                known = known || key == name;
            if (!known)
                throw JsonProblem { child(pointer, key), "unknown field \"" + key + "\"" };
        }
        return value;
    }

    std::int64_t integer(const Json& value, const std::string& pointer, std::int64_t min, std::int64_t max)
    {
        if (!value.is_number_integer() || value.get<std::int64_t>() < min || value.get<std::int64_t>() > max)
            throw JsonProblem { pointer,
                "expected an integer in " + std::to_string(min) + ".." + std::to_string(max) + ", found "
                    + describeJsonValue(value) };
        return value.get<std::int64_t>();
    }

    double number(const Json& value, const std::string& pointer, bool nonNegative)
    {
        if (!value.is_number() || !std::isfinite(value.get<double>()) || (nonNegative && value.get<double>() < 0))
            throw JsonProblem { pointer,
                std::string("expected a finite number") + (nonNegative ? " >= 0" : "") + ", found "
                    + describeJsonValue(value) };
        return value.get<double>();
    }

    Json nodeToJson(const LinearModelTree::Node& node)
    {
        if (node.isLeaf())
            return Json { { "coefficients", node.coefficients } };
        return Json { { "feature", node.feature }, { "threshold", node.threshold }, { "left", node.left },
            { "right", node.right } };
    }

    LinearModelTree::Node nodeFromJson(const Json& value, const std::string& pointer, int linear)
    {
        LinearModelTree::Node node;
        if (value.is_object() && value.contains("coefficients")) {
            object(value, pointer, { "coefficients" });
            const Json& list = value.at("coefficients");
            const std::string at = child(pointer, "coefficients");
            if (!list.is_array() || list.size() != std::size_t(linear))
                throw JsonProblem { at,
                    "expected an array of " + std::to_string(linear) + " numbers, found " + describeJsonValue(list)
                        + (list.is_array() ? " of " + std::to_string(list.size()) : std::string()) };
            for (std::size_t i = 0; i < list.size(); ++i)
                node.coefficients.push_back(number(list[i], at + "/" + std::to_string(i), true));
            return node;
        }
        object(value, pointer, { "feature", "threshold", "left", "right" });
        node.feature = int(integer(value.at("feature"), child(pointer, "feature"), 0, kMaxFittedFeatures - 1));
        node.threshold = number(value.at("threshold"), child(pointer, "threshold"), false);
        node.left = int(integer(value.at("left"), child(pointer, "left"), 1, 1 << 30));
        node.right = int(integer(value.at("right"), child(pointer, "right"), 1, 1 << 30));
        return node;
    }

    FittedKindModel kindFromJson(const Json& value, const std::string& pointer, model::OpKind kind)
    {
        object(value, pointer, { "features", "linearFeatures", "trainingSamples", "cvMeanAbsPercentError", "nodes" });
        const Json expected = fittedFeatureNames(kind);
        if (value.at("features") != expected)
            throw JsonProblem { child(pointer, "features"),
                "expected " + expected.dump() + " (this build's features for " + model::toString(kind) + "), found "
                    + value.at("features").dump() };
        const int linear = fittedLinearFeatureCount(kind);
        integer(value.at("linearFeatures"), child(pointer, "linearFeatures"), linear, linear);
        FittedKindModel fitted;
        fitted.trainingSamples = integer(value.at("trainingSamples"), child(pointer, "trainingSamples"), 1, INT64_MAX);
        const Json& cv = value.at("cvMeanAbsPercentError");
        if (!cv.is_null())
            fitted.cvMeanAbsPercentError = number(cv, child(pointer, "cvMeanAbsPercentError"), true);
        const Json& nodes = value.at("nodes");
        const std::string nodesAt = child(pointer, "nodes");
        if (!nodes.is_array() || nodes.empty())
            throw JsonProblem { nodesAt,
                "expected a non-empty array of tree nodes, found " + describeJsonValue(nodes) };
        fitted.tree.featureCount = fittedFeatureCount(kind);
        fitted.tree.linearFeatures = linear;
        for (std::size_t i = 0; i < nodes.size(); ++i)
            fitted.tree.nodes.push_back(nodeFromJson(nodes[i], nodesAt + "/" + std::to_string(i), linear));
        const std::vector<std::string> problems = fitted.tree.problems();
        if (!problems.empty())
            throw JsonProblem { nodesAt, problems.front() };
        return fitted;
    }

} // namespace

std::string fittedCostToJson(const FittedCostData& data)
{
    Json kinds = Json::object();
    for (const auto& [kind, fitted] : data.kinds) {
        Json nodes = Json::array();
        for (const LinearModelTree::Node& node : fitted.tree.nodes)
            nodes.push_back(nodeToJson(node));
        kinds[model::toString(kind)] = Json { { "features", fittedFeatureNames(kind) },
            { "linearFeatures", fitted.tree.linearFeatures }, { "trainingSamples", fitted.trainingSamples },
            { "cvMeanAbsPercentError",
                fitted.cvMeanAbsPercentError ? Json(*fitted.cvMeanAbsPercentError) : Json(nullptr) },
            { "nodes", std::move(nodes) } };
    }
    const Json document { { "schema", kSchema }, { "folds", data.options.folds },
        { "maxDepth", data.options.tree.maxDepth }, { "minSamplesPerLeaf", data.options.tree.minSamplesPerLeaf },
        { "kinds", std::move(kinds) } };
    return document.dump(2) + "\n";
}

FittedCostParseResult fittedCostFromJson(std::string_view jsonText)
{
    FittedCostParseResult result;
    Json document;
    try {
        document = Json::parse(jsonText);
    } catch (const Json::parse_error& e) {
        result.error = positionText(parseErrorPosition(jsonText, e.byte)) + ": " + jsonSyntaxReason(e.what());
        return result;
    } catch (const Json::exception& e) { // a number too large for a double
        result.error = locateJsonLiteral(jsonText, e.what()) + ": " + jsonSyntaxReason(e.what());
        return result;
    }
    try {
        object(document, "", { "schema", "folds", "maxDepth", "minSamplesPerLeaf", "kinds" });
        const Json& schema = document.at("schema");
        if (!schema.is_string() || schema.get<std::string>() != kSchema)
            throw JsonProblem { "/schema",
                "expected \"" + std::string(kSchema) + "\", found " + describeJsonValue(schema) };
        result.data.options.folds = int(integer(document.at("folds"), "/folds", 2, 1000000));
        result.data.options.tree.maxDepth = int(integer(document.at("maxDepth"), "/maxDepth", 0, 64));
        result.data.options.tree.minSamplesPerLeaf
            = int(integer(document.at("minSamplesPerLeaf"), "/minSamplesPerLeaf", 1, 1000000000));
        const Json& kinds = document.at("kinds");
        if (!kinds.is_object())
            throw JsonProblem { "/kinds", "expected an object, found " + describeJsonValue(kinds) };
        for (const auto& [key, value] : kinds.items()) {
            const std::string pointer = child("/kinds", key);
            const auto kind = model::opKindFromString(key);
            if (!kind) {
                std::string names;
                for (model::OpKind k : model::kAllOpKinds)
                    names += (names.empty() ? "" : ", ") + std::string(model::toString(k));
                throw JsonProblem { pointer, "unknown op kind \"" + key + "\"; expected one of " + names };
            }
            result.data.kinds.emplace(*kind, kindFromJson(value, pointer, *kind));
        }
    } catch (const JsonProblem& problem) {
        result.data = {};
        result.error = problem.pointer + ": " + problem.message;
    }
    return result;
}

} // namespace elk::cost
