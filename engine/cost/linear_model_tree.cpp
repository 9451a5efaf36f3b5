// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/cost/linear_model_tree.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

namespace elk::cost {

namespace {

    constexpr int kMax = LinearModelTree::kMaxLinearFeatures;

    /// Weighted normal-equation moments of a set of samples: G = XᵀWX, b = XᵀWy, c = yᵀWy.
    struct Moments {
        std::array<double, kMax * kMax> g {};
        std::array<double, kMax> b {};
        double c = 0;
    };

    double weightOf(double y)
    {
        const double scale = std::max(std::abs(y), 1.0);
        return 1.0 / (scale * scale);
    }

    void accumulate(Moments& m, std::span<const double> x, double y, int l)
    {
        const double w = weightOf(y);
        for (int i = 0; i < l; ++i) {
            const double wx = w * x[std::size_t(i)];
            for (int j = 0; j < l; ++j)
                m.g[std::size_t(i * kMax + j)] += wx * x[std::size_t(j)];
            m.b[std::size_t(i)] += wx * y;
        }
        m.c += w * y * y;
    }

    struct LeafFit {
        double sse = 0;
        std::array<double, kMax> beta {};
    };

    /// Non-negative least squares for at most kMax features, exactly: the optimum is the
    /// unconstrained solution on its own support, so every subset with a non-negative solution is
    /// a candidate and the smallest error wins (first in subset order on ties). Columns are scaled
    /// to unit diagonal so features of very different magnitudes solve stably.
    LeafFit solveNonNegative(const Moments& m, int l)
    {
        LeafFit best;
        best.sse = m.c;
        std::array<int, kMax> index {};
        std::array<double, kMax*(kMax + 1)> a {};
        std::array<double, kMax> scale {};
        for (unsigned mask = 1; mask < (1u << l); ++mask) {
            int n = 0;
            bool usable = true;
            for (int j = 0; j < l; ++j) {
                if (mask & (1u << j)) {
                    const double diagonal = m.g[std::size_t(j * kMax + j)];
                    if (!(diagonal > 0)) {
                        usable = false;
                        break;
                    }
                    scale[std::size_t(n)] = std::sqrt(diagonal);
                    index[std::size_t(n++)] = j;
                }
            }
            if (!usable)
                continue;
            const int w = n + 1; // augmented row width
            for (int r = 0; r < n; ++r) {
                for (int col = 0; col < n; ++col)
                    a[std::size_t(r * w + col)]
                        = m.g[std::size_t(index[std::size_t(r)] * kMax + index[std::size_t(col)])]
                        / (scale[std::size_t(r)] * scale[std::size_t(col)]);
                a[std::size_t(r * w + n)] = m.b[std::size_t(index[std::size_t(r)])] / scale[std::size_t(r)];
            }
            // Gaussian elimination with partial pivoting; a tiny pivot means collinear features,
            // which a smaller subset covers.
            bool singular = false;
            for (int col = 0; col < n && !singular; ++col) {
                int pivot = col;
                for (int r = col + 1; r < n; ++r) {
                    if (std::abs(a[std::size_t(r * w + col)]) > std::abs(a[std::size_t(pivot * w + col)]))
                        pivot = r;
                }
                if (std::abs(a[std::size_t(pivot * w + col)]) < 1e-10) {
                    singular = true;
                    break;
                }
                if (pivot != col) {
                    for (int k = 0; k < w; ++k)
                        std::swap(a[std::size_t(col * w + k)], a[std::size_t(pivot * w + k)]);
                }
                for (int r = col + 1; r < n; ++r) {
                    const double f = a[std::size_t(r * w + col)] / a[std::size_t(col * w + col)];
                    for (int k = col; k < w; ++k)
                        a[std::size_t(r * w + k)] -= f * a[std::size_t(col * w + k)];
                }
            }
            if (singular)
                continue;
            std::array<double, kMax> z {};
            bool negative = false;
            for (int r = n - 1; r >= 0; --r) {
                double sum = a[std::size_t(r * w + n)];
                for (int k = r + 1; k < n; ++k)
                    sum -= a[std::size_t(r * w + k)] * z[std::size_t(k)];
                z[std::size_t(r)] = sum / a[std::size_t(r * w + r)];
                if (z[std::size_t(r)] < 0)
                    negative = true;
            }
            if (negative)
                continue;
            double explained = 0;
            for (int r = 0; r < n; ++r)
                explained += m.b[std::size_t(index[std::size_t(r)])] / scale[std::size_t(r)] * z[std::size_t(r)];
            const double sse = std::max(0.0, m.c - explained);
            if (sse < best.sse) {
                best.sse = sse;
                best.beta = {};
                for (int r = 0; r < n; ++r)
                    best.beta[std::size_t(index[std::size_t(r)])] = z[std::size_t(r)] / scale[std::size_t(r)];
            }
        }
        return best;
    }

    class Builder {
    public:
        Builder(const TrainingSet& data, int linearFeatures, const TreeSettings& settings, LinearModelTree& tree)
            : m_data(data)
            , m_l(linearFeatures)
            , m_settings(settings)
            , m_tree(tree)
        {
        }

        int build(std::vector<std::size_t> samples, int depth)
        {
            Moments total;
            for (std::size_t i : samples)
                accumulate(total, m_data.row(i), m_data.y[i], m_l);
            const LeafFit leaf = solveNonNegative(total, m_l);
            const int self = int(m_tree.nodes.size());
            LinearModelTree::Node node;
            node.coefficients.assign(leaf.beta.begin(), leaf.beta.begin() + m_l);
            m_tree.nodes.push_back(std::move(node));

            const std::size_t minLeaf = std::size_t(std::max(1, m_settings.minSamplesPerLeaf));
            if (depth >= m_settings.maxDepth || samples.size() < 2 * minLeaf
                || leaf.sse <= 1e-14 * double(samples.size()))
                return self;
            const Split split = bestSplit(samples, minLeaf);
            if (split.feature < 0 || !(split.sse < leaf.sse * (1 - 1e-9)))
                return self;

            std::vector<std::size_t> left;
            std::vector<std::size_t> right;
            for (std::size_t i : samples)
                (m_data.row(i)[std::size_t(split.feature)] <= split.threshold ? left : right).push_back(i);
            const int leftIndex = build(std::move(left), depth + 1);
            const int rightIndex = build(std::move(right), depth + 1);
            LinearModelTree::Node& parent = m_tree.nodes[std::size_t(self)];
            parent.feature = split.feature;
            parent.threshold = split.threshold;
            parent.left = leftIndex;
            parent.right = rightIndex;
            parent.coefficients.clear();
            return self;
        }

    private:
        struct Split {
            int feature = -1;
            double threshold = 0;
            double sse = 0;
        };

        Split bestSplit(const std::vector<std::size_t>& samples, std::size_t minLeaf)
        {
            Split best;
            const std::size_t n = samples.size();
            std::vector<std::size_t> order(n);
            m_prefix.resize(n + 1);
            m_suffix.resize(n + 1);
            for (int f = 0; f < m_data.featureCount; ++f) {
                const auto value = [&](std::size_t i) { return m_data.row(i)[std::size_t(f)]; };
                order = samples;
                std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
                    return value(a) < value(b) || (value(a) == value(b) && a < b);
                });
                m_prefix[0] = Moments {};
                for (std::size_t p = 0; p < n; ++p) {
                    m_prefix[p + 1] = m_prefix[p];
                    accumulate(m_prefix[p + 1], m_data.row(order[p]), m_data.y[order[p]], m_l);
                }
                m_suffix[n] = Moments {};
                for (std::size_t p = n; p-- > 0;) {
                    m_suffix[p] = m_suffix[p + 1];
                    accumulate(m_suffix[p], m_data.row(order[p]), m_data.y[order[p]], m_l);
                }
                for (std::size_t p = minLeaf; p + minLeaf <= n; ++p) {
                    const double below = value(order[p - 1]);
                    const double above = value(order[p]);
                    if (!(below < above))
                        continue;
                    const double sse = solveNonNegative(m_prefix[p], m_l).sse + solveNonNegative(m_suffix[p], m_l).sse;
                    if (best.feature < 0 || sse < best.sse) {
                        double threshold = below + (above - below) / 2;
                        if (!(threshold < above))
                            threshold = below;
                        best = Split { f, threshold, sse };
                    }
                }
            }
            return best;
        }

        const TrainingSet& m_data;
        int m_l;
        TreeSettings m_settings;
        LinearModelTree& m_tree;
        std::vector<Moments> m_prefix;
        std::vector<Moments> m_suffix;
    };

} // namespace

void TrainingSet::add(std::span<const double> features, double target)
{
    x.insert(x.end(), features.begin(), features.end());
    y.push_back(target);
}

double LinearModelTree::predict(std::span<const double> x) const
{
    std::size_t at = 0;
    while (!nodes[at].isLeaf())
        at = std::size_t(x[std::size_t(nodes[at].feature)] <= nodes[at].threshold ? nodes[at].left : nodes[at].right);
    double sum = 0;
    const std::vector<double>& beta = nodes[at].coefficients;
    for (std::size_t j = 0; j < beta.size(); ++j)
        sum += beta[j] * x[j];
    return std::isnan(sum) || sum < 0 ? 0.0 : sum;
}

int LinearModelTree::leafCount() const
{
    return int(std::count_if(nodes.begin(), nodes.end(), [](const Node& node) { return node.isLeaf(); }));
}

std::vector<std::string> LinearModelTree::problems() const
{
    std::vector<std::string> found;
    if (nodes.empty())
        found.push_back("the tree has no nodes");
    if (linearFeatures < 1 || linearFeatures > std::min(featureCount, kMaxLinearFeatures))
        found.push_back("linear feature count " + std::to_string(linearFeatures) + " must be 1.."
            + std::to_string(std::min(featureCount, kMaxLinearFeatures)));
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const Node& node = nodes[i];
        const std::string where = "node " + std::to_string(i) + ": ";
        if (node.isLeaf()) {
            if (node.coefficients.size() != std::size_t(std::max(0, linearFeatures)))
                found.push_back(where + "expected " + std::to_string(linearFeatures) + " coefficients, found "
                    + std::to_string(node.coefficients.size()));
            for (double beta : node.coefficients) {
                if (!std::isfinite(beta) || beta < 0) {
                    found.push_back(where + "coefficients must be finite and >= 0");
                    break;
                }
            }
            continue;
        }
        if (node.feature >= featureCount)
            found.push_back(where + "feature " + std::to_string(node.feature) + " out of range 0.."
                + std::to_string(featureCount - 1));
        if (!std::isfinite(node.threshold))
            found.push_back(where + "threshold must be finite");
        // Children come after their parent (pre-order), which also rules out cycles.
        for (int child : { node.left, node.right }) {
            if (child <= int(i) || child >= int(nodes.size()))
                found.push_back(where + "child " + std::to_string(child) + " must be in " + std::to_string(i + 1) + ".."
                    + std::to_string(nodes.size() - 1));
        }
    }
    return found;
}

LinearModelTree fitLinearModelTree(const TrainingSet& data, int linearFeatures, const TreeSettings& settings)
{
    LinearModelTree tree;
    tree.featureCount = data.featureCount;
    tree.linearFeatures = linearFeatures;
    std::vector<std::size_t> all(data.size());
    std::iota(all.begin(), all.end(), std::size_t(0));
    Builder(data, linearFeatures, settings, tree).build(std::move(all), 0);
    return tree;
}

std::optional<double> crossValidatedError(
    const TrainingSet& data, int linearFeatures, const TreeSettings& settings, int folds)
{
    const std::size_t n = data.size();
    if (n < 2 || folds < 2)
        return std::nullopt;
    const std::size_t k = std::min(n, std::size_t(folds));
    double sum = 0;
    for (std::size_t fold = 0; fold < k; ++fold) {
        TrainingSet train;
        train.featureCount = data.featureCount;
        for (std::size_t i = 0; i < n; ++i) {
            if (i % k != fold)
                train.add(data.row(i), data.y[i]);
        }
        const LinearModelTree tree = fitLinearModelTree(train, linearFeatures, settings);
        for (std::size_t i = fold; i < n; i += k) {
            const double y = data.y[i];
            sum += std::abs(tree.predict(data.row(i)) - y) / std::max(std::abs(y), 1.0);
        }
    }
    return 100.0 * sum / double(n);
}

} // namespace elk::cost
