// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Linear and dependency-aware slicing of kernels into regions (hlo-design §4).
//
// Dependency merge: a compute region merges into its only compute predecessor, or else into its
// only compute successor, when the merge neither delays a communication region (every collective
// the absorbed side feeds is fed by the other side too) nor makes compute wait for a collective it
// did not wait for. Under those conditions a merge cannot create a cycle (a second path between the
// two would have to pass through a collective that comes both before and after one of them), so no
// reachability search is needed and the merge is linear in the graph size.
#include "engine/hlo/hlo_slice.h"

#include "engine/core/sha256.h"

#include <algorithm>
#include <cstdio>
#include <queue>
#include <set>

namespace elk::hlo {

namespace {

    std::string contentHashOf(RegionKind kind, const std::vector<std::uint32_t>& kernels, const FusionResult& fusion)
    {
        Sha256 hash;
        hash.update(kind == RegionKind::Compute ? "compute\n" : "communication\n");
        for (std::uint32_t k : kernels) {
            const Kernel& kernel = fusion.kernels[k];
            char executions[40];
            std::snprintf(executions, sizeof executions, "%.17g", kernel.executions);
            hash.update(kernel.signature);
            hash.update("\x1f");
            hash.update(executions);
            hash.update("\x1e");
        }
        return hash.finalHex();
    }

    RegionKind kindOf(const Kernel& kernel)
    {
        return kernel.opClass == OpClass::Collective ? RegionKind::Communication : RegionKind::Compute;
    }

    SliceResult linearSplit(const FusionResult& fusion, const SliceOptions& options)
    {
        SliceResult result;
        std::vector<std::uint32_t> current;
        auto emit = [&](RegionKind kind, std::vector<std::uint32_t> kernels) {
            SliceRegion region;
            region.kind = kind;
            region.kernels = std::move(kernels);
            if (!result.regions.empty())
                region.dependencies.push_back(std::uint32_t(result.regions.size() - 1));
            result.regions.push_back(std::move(region));
        };
        auto flush = [&] {
            if (!current.empty())
                emit(RegionKind::Compute, std::move(current));
            current.clear();
        };
        for (std::uint32_t k = 0; k < fusion.kernels.size(); ++k) {
            if (kindOf(fusion.kernels[k]) == RegionKind::Communication) {
                flush();
                emit(RegionKind::Communication, { k });
                continue;
            }
            current.push_back(k);
            if (options.maxKernelsPerRegion > 0 && std::int64_t(current.size()) >= options.maxKernelsPerRegion)
                flush();
        }
        flush();
        return result;
    }

    struct Node {
        RegionKind kind = RegionKind::Compute;
        std::vector<std::uint32_t> kernels;
        std::set<std::uint32_t> preds, succs;
        bool alive = true;
    };

    class DependencyGraph {
    public:
        explicit DependencyGraph(const FusionResult& fusion)
        {
            m_nodes.resize(fusion.kernels.size());
            for (std::uint32_t k = 0; k < fusion.kernels.size(); ++k) {
                Node& node = m_nodes[k];
                node.kind = kindOf(fusion.kernels[k]);
                node.kernels = { k };
                for (std::uint32_t in : fusion.kernels[k].inputs)
                    if (in != k && in < m_nodes.size()) {
                        node.preds.insert(in);
                        m_nodes[in].succs.insert(k);
                    }
            }
        }

        void mergeAll()
        {
            for (bool changed = true; changed;) {
                changed = false;
                for (std::uint32_t v = 0; v < m_nodes.size(); ++v) {
                    if (!m_nodes[v].alive || m_nodes[v].kind != RegionKind::Compute)
                        continue;
                    if (const auto u = onlyCompute(m_nodes[v].preds); u && canMerge(*u, v)) {
                        merge(v, *u);
                        changed = true;
                    } else if (const auto w = onlyCompute(m_nodes[v].succs); w && canMerge(v, *w)) {
                        merge(v, *w);
                        changed = true;
                    }
                }
            }
        }

        SliceResult output(const FusionResult& fusion) const
        {
            // Kahn's algorithm; ties go to the region holding the earliest kernel.
            std::vector<std::size_t> waiting(m_nodes.size(), 0);
            using Entry = std::pair<std::uint32_t, std::uint32_t>; // (first kernel, node)
            std::priority_queue<Entry, std::vector<Entry>, std::greater<>> ready;
            for (std::uint32_t n = 0; n < m_nodes.size(); ++n) {
                if (!m_nodes[n].alive)
                    continue;
                waiting[n] = m_nodes[n].preds.size();
                if (waiting[n] == 0)
                    ready.emplace(m_nodes[n].kernels.front(), n);
            }
            std::vector<std::int64_t> position(m_nodes.size(), -1);
            SliceResult result;
            while (!ready.empty()) {
                const std::uint32_t n = ready.top().second;
                ready.pop();
                position[n] = std::int64_t(result.regions.size());
                SliceRegion region;
                region.kind = m_nodes[n].kind;
                region.kernels = m_nodes[n].kernels;
                for (std::uint32_t p : m_nodes[n].preds)
                    region.dependencies.push_back(std::uint32_t(position[p]));
                std::sort(region.dependencies.begin(), region.dependencies.end());
                region.contentHash = contentHashOf(region.kind, region.kernels, fusion);
                result.regions.push_back(std::move(region));
                for (std::uint32_t s : m_nodes[n].succs)
                    if (--waiting[s] == 0)
                        ready.emplace(m_nodes[s].kernels.front(), s);
            }
            return result;
        }

    private:
        std::vector<Node> m_nodes;

        std::optional<std::uint32_t> onlyCompute(const std::set<std::uint32_t>& neighbours) const
        {
            std::optional<std::uint32_t> found;
            for (std::uint32_t n : neighbours)
                if (m_nodes[n].kind == RegionKind::Compute) {
                    if (found)
                        return std::nullopt;
                    found = n;
                }
            return found;
        }

        // Edge a → b, both compute: merging must not delay a collective that a feeds (b must feed it
        // too) nor make a wait for a collective only b waited for.
        bool canMerge(std::uint32_t a, std::uint32_t b) const
        {
            const Node& na = m_nodes[a];
            const Node& nb = m_nodes[b];
            for (std::uint32_t s : na.succs)
                if (s != b && m_nodes[s].kind == RegionKind::Communication && nb.succs.count(s) == 0)
                    return false;
            for (std::uint32_t p : nb.preds)
                if (p != a && m_nodes[p].kind == RegionKind::Communication && na.preds.count(p) == 0)
                    return false;
            return true;
        }

        void merge(std::uint32_t from, std::uint32_t into)
        {
            Node& f = m_nodes[from];
            Node& t = m_nodes[into];
            for (std::uint32_t p : f.preds) {
                m_nodes[p].succs.erase(from);
                if (p != into) {
                    m_nodes[p].succs.insert(into);
                    t.preds.insert(p);
                }
            }
            for (std::uint32_t s : f.succs) {
                m_nodes[s].preds.erase(from);
                if (s != into) {
                    m_nodes[s].preds.insert(into);
                    t.succs.insert(s);
                }
            }
            t.preds.erase(from);
            t.succs.erase(from);
            t.kernels.insert(t.kernels.end(), f.kernels.begin(), f.kernels.end());
            std::sort(t.kernels.begin(), t.kernels.end());
            f = Node {};
            f.alive = false;
        }
    };

} // namespace

const char* toString(SplitMode mode)
{
    return mode == SplitMode::Linear ? "linear" : "dependency";
}

std::optional<SplitMode> splitModeFromString(std::string_view text)
{
    if (text == "linear")
        return SplitMode::Linear;
    if (text == "dependency")
        return SplitMode::Dependency;
    return std::nullopt;
}

SliceResult sliceProgram(const HloProgram& program, const FusionResult& fusion, const SliceOptions& options)
{
    (void)program; // the kernels carry everything slicing needs
    if (options.mode == SplitMode::Linear) {
        SliceResult result = linearSplit(fusion, options);
        for (SliceRegion& region : result.regions)
            region.contentHash = contentHashOf(region.kind, region.kernels, fusion);
        return result;
    }
    DependencyGraph graph(fusion);
    if (options.merge)
        graph.mergeAll();
    return graph.output(fusion);
}

double computeFlopsOf(const SliceResult& slices, const FusionResult& fusion)
{
    double sum = 0;
    for (const SliceRegion& region : slices.regions)
        if (region.kind == RegionKind::Compute)
            for (std::uint32_t k : region.kernels)
                sum += fusion.kernels[k].flops * fusion.kernels[k].executions;
    return sum;
}

} // namespace elk::hlo
