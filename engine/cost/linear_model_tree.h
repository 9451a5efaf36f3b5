// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

// A small linear model tree (the paper's choice for fitted tile costs; no packaged C++ library has
// one). Splits are binary on any feature; every leaf is a least-squares linear model with
// non-negative coefficients of the first `linearFeatures` features (so features that only select a
// regime, such as the element size, can split without entering the leaf models).
//
// Fitting minimises the summed squared *relative* error (weights 1 / y²): measured cycles span
// orders of magnitude, the reported error is relative, and plain squared error would let the
// largest samples decide every split.
//
// Determinism: candidate thresholds are midpoints between consecutive distinct values of a
// feature in the node (ties in sort order broken by sample index); the first best split in
// (feature, threshold) order wins; leaf solves enumerate feature subsets in a fixed order.

namespace elk::cost {

struct TreeSettings {
    int maxDepth = 6; ///< 0 = a single leaf
    int minSamplesPerLeaf = 5;
    bool operator==(const TreeSettings&) const = default;
};

/// Samples as a row-major matrix: sample i has features x[i * featureCount .. + featureCount).
struct TrainingSet {
    int featureCount = 0;
    std::vector<double> x;
    std::vector<double> y;
    std::size_t size() const { return y.size(); }
    std::span<const double> row(std::size_t i) const
    {
        return { x.data() + i * std::size_t(featureCount), std::size_t(featureCount) };
    }
    void add(std::span<const double> features, double target);
};

struct LinearModelTree {
    /// Largest number of leaf-model features (leaf solves enumerate all subsets of them).
    static constexpr int kMaxLinearFeatures = 8;

    struct Node {
        int feature = -1; ///< -1: a leaf
        double threshold = 0; ///< x[feature] <= threshold goes left
        int left = -1;
        int right = -1;
        std::vector<double> coefficients; ///< leaf only: one per linear feature, all >= 0
        bool isLeaf() const { return feature < 0; }
        bool operator==(const Node&) const = default;
    };

    int featureCount = 0;
    int linearFeatures = 0;
    std::vector<Node> nodes; ///< nodes[0] is the root; empty = no model

    /// Never negative. Contract: x.size() == featureCount, nodes not empty.
    double predict(std::span<const double> x) const;
    int leafCount() const;
    /// Problems of a tree read from a file (indices out of range, cycles, wrong coefficient
    /// counts); empty when sound. Each problem names the node index.
    std::vector<std::string> problems() const;
    bool operator==(const LinearModelTree&) const = default;
};

/// Contract: 1 <= linearFeatures <= min(featureCount, kMaxLinearFeatures), data.size() >= 1,
/// settings.minSamplesPerLeaf >= 1, settings.maxDepth >= 0.
LinearModelTree fitLinearModelTree(const TrainingSet& data, int linearFeatures, const TreeSettings& settings);

/// Mean absolute percentage error (0.5 = 0.5 %) of k-fold cross-validation; sample i is held out in
/// fold i mod k. Nothing when there are fewer than 2 samples; k is lowered to the sample count.
std::optional<double> crossValidatedError(
    const TrainingSet& data, int linearFeatures, const TreeSettings& settings, int folds);

} // namespace elk::cost
