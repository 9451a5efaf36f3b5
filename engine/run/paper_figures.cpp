// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The experiment matrix of the Elk paper's figures (elk-reference.md §6, the artifact's
// generate_data_from_sim.py): which points each figure runs.
#include "engine/run/paper_figures.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace elk::run {

namespace {

    const std::vector<std::string> kLlms = { "llama2-13", "llama2-70", "opt-30", "gemma2" };

    std::string number(double value)
    {
        char text[32];
        std::snprintf(text, sizeof text, "%.12g", value);
        return text;
    }

    PaperPoint decode(const std::string& model, double hbmGBps)
    {
        PaperPoint point;
        point.model = model;
        point.hbmGBps = hbmGBps;
        return point;
    }

    PaperPoint meshOf(PaperPoint point, double ratio)
    {
        point.mesh = true;
        point.meshRatio = ratio;
        return point;
    }

    /// Fig. 19 and 21: the four LLMs over B_hbm, all-to-all then mesh with r = 16000 / B_hbm.
    std::vector<PaperPoint> hbmStudy(int fromGBps, int toGBps)
    {
        std::vector<PaperPoint> points;
        for (const std::string& model : kLlms) {
            for (int mesh = 0; mesh < 2; ++mesh) {
                for (int hbm = fromGBps; hbm <= toGBps; hbm += 1000) {
                    const PaperPoint point = decode(model, hbm);
                    points.push_back(mesh ? meshOf(point, 16000.0 / hbm) : point);
                }
            }
        }
        return points;
    }

    std::vector<PaperPoint> figurePoints(std::string_view name)
    {
        std::vector<PaperPoint> points;
        if (name == "fig17") {
            for (const std::string& model : kLlms) {
                for (std::int64_t seq : { 2048, 4096 }) {
                    for (std::int64_t batch : { 16, 32, 64 }) {
                        PaperPoint point = decode(model, 16000);
                        point.batch = batch;
                        point.seqLen = seq;
                        points.push_back(point);
                    }
                }
            }
        } else if (name == "fig18") {
            for (const std::string& model : kLlms)
                points.push_back(decode(model, 16000));
        } else if (name == "fig19") {
            points = hbmStudy(4000, 16000);
        } else if (name == "fig20") {
            for (int hbm = 6000; hbm <= 16000; hbm += 1000)
                points.push_back(decode("llama2-13", hbm));
        } else if (name == "fig21") {
            points = hbmStudy(2000, 18000);
        } else if (name == "fig22") {
            for (int mesh = 0; mesh < 2; ++mesh) {
                for (int hbm : { 8000, 10000, 12000, 14000 }) {
                    for (double x : { 0.75, 1.0, 1.25, 1.5 }) {
                        PaperPoint point = decode("llama2-70", hbm);
                        point.nocScale = x;
                        points.push_back(mesh ? meshOf(point, std::max(1.0, std::sqrt(16000.0 / hbm) * x)) : point);
                    }
                }
            }
        } else if (name == "fig23") {
            std::vector<std::string> models = kLlms;
            models.push_back("vit-huge");
            for (const std::string& model : models) {
                const bool vit = model == "vit-huge";
                // LLMs: 736·{3..7} cores at 4000 GB/s per 1472 cores; DiT-XL: 184·{3..8} at 1000.
                const std::int64_t base = vit ? 1472 : 5888, unit = vit ? 184 : 736;
                const double perBase = vit ? 1000 : 4000;
                for (int mesh = 0; mesh < 2; ++mesh) {
                    for (int k = 3; k <= (vit ? 8 : 7); ++k) {
                        PaperPoint point = decode(model, std::floor(double(unit * k) * perBase / 1472.0));
                        point.cores = unit * k;
                        points.push_back(mesh ? meshOf(point, std::sqrt(double(base) / double(point.cores))) : point);
                    }
                }
            }
        } else if (name == "fig24") {
            for (int mesh = 0; mesh < 2; ++mesh) {
                for (int hbm : { 300, 400 }) {
                    for (double x : { 1.0, 1.5 }) {
                        for (double y : { 0.75, 1.0, 1.25, 1.5 }) {
                            PaperPoint point = decode("llama2-13", hbm);
                            point.batch = 2;
                            point.training = true;
                            point.nocScale = x;
                            point.computeScale = y;
                            points.push_back(mesh ? meshOf(point, std::sqrt(700.0 / hbm * x)) : point);
                        }
                    }
                }
            }
        }
        return points;
    }

    std::string titleOf(std::string_view name)
    {
        if (name == "fig17")
            return "Per-token latency of the five designs (4 LLMs, batch 16/32/64, KV 2048/4096)";
        if (name == "fig18")
            return "Latency breakdown, HBM and NoC utilisation, TFLOPS (b32, KV 2048)";
        if (name == "fig19")
            return "Per-token latency vs HBM bandwidth (all-to-all and mesh)";
        if (name == "fig20")
            return "Latency breakdown vs HBM bandwidth (llama2-13, all-to-all)";
        if (name == "fig21")
            return "Interconnect utilisation vs HBM bandwidth";
        if (name == "fig22")
            return "Per-token latency vs NoC bandwidth (llama2-70)";
        if (name == "fig23")
            return "Per-token latency vs core count";
        return "\"Training\" (prefill forward) TFLOPS vs HBM, NoC and compute scaling (llama2-13, b2, s2048)";
    }

    /// The most square mesh of `cores` routers (width ≥ height).
    std::pair<int, int> squareMesh(std::int64_t cores)
    {
        int height = int(std::sqrt(double(cores)));
        while (height > 1 && cores % height != 0)
            --height;
        height = std::max(height, 1);
        return { int(cores / height), height };
    }

    /// `parity`: the artifact's chip is always the all-to-all one; its mesh is the scalar r and its
    /// NoC and compute scaling divide the plans' cycles (ParityOptions), so the chip keeps 5.5 GB/s
    /// and 1.325 GHz.
    RunRequest requestOn(const PaperPoint& point, std::string modelPath, bool parity)
    {
        RunRequest request;
        request.modelPath = std::move(modelPath);
        const bool mesh = point.mesh && !parity;
        request.chip = mesh ? "ipu-pod4-hbm-mesh" : "ipu-pod4-hbm";
        // Both presets: 4 chips × 1472 cores, 4 HBM stacks per chip, 5.5 GB/s (all-to-all) or
        // 41 GB/s (mesh) per link, 1.325 GHz.
        const bool oneChip = point.model == "vit-huge";
        const int chips = oneChip ? 1 : 4;
        const std::int64_t coresPerChip = point.cores / chips;
        const double linkGBps = mesh ? 41.0 : 5.5;
        request.chipOverrides = {
            "chips=" + std::to_string(chips),
            "coresPerChip=" + std::to_string(coresPerChip),
            "hbm.bandwidthGBpsPerStack=" + number(point.hbmGBps / (4.0 * chips)),
            "interconnect.linkBandwidthGBpsPerCore=" + number(parity ? linkGBps : linkGBps * point.nocScale),
            "clockHz=" + number(parity ? 1.325e9 : 1.325e9 * point.computeScale),
        };
        if (mesh) {
            const auto [width, height] = squareMesh(coresPerChip);
            request.chipOverrides.push_back("interconnect.meshWidth=" + std::to_string(width));
            request.chipOverrides.push_back("interconnect.meshHeight=" + std::to_string(height));
        }
        request.batch = point.batch;
        if (point.model == "vit-huge" && !parity) {
            // DiT-XL is a forward pass over its own 256 patch tokens (no decode, no KV cache).
            request.phase = Phase::Prefill;
        } else if (point.training) {
            request.phase = Phase::Prefill;
            request.seqLen = point.seqLen;
            request.kvLen = 0;
        } else {
            request.phase = Phase::Decode;
            request.seqLen = 1;
            request.kvLen = point.seqLen;
        }
        return request;
    }

} // namespace

const char* toString(ReproduceMode mode)
{
    return mode == ReproduceMode::ArtifactParity ? "artifact-parity" : "equal-terms";
}

std::string PaperPoint::key() const
{
    std::string text = model + " b" + std::to_string(batch) + " s" + std::to_string(seqLen);
    if (training)
        text += " train";
    text += " c" + std::to_string(cores) + " hbm" + number(hbmGBps);
    text += mesh ? " mesh" + number(meshRatio) : std::string(" a2a");
    text += " x" + number(nocScale) + " y" + number(computeScale);
    return text;
}

const std::vector<std::string>& paperFigureNames()
{
    static const std::vector<std::string> names
        = { "fig17", "fig18", "fig19", "fig20", "fig21", "fig22", "fig23", "fig24" };
    return names;
}

std::optional<PaperFigure> paperFigure(std::string_view name)
{
    if (std::find(paperFigureNames().begin(), paperFigureNames().end(), name) == paperFigureNames().end())
        return std::nullopt;
    return PaperFigure { std::string(name), titleOf(name), figurePoints(name) };
}

std::string bundledModelFor(std::string_view artifactModel)
{
    if (artifactModel == "llama2-13")
        return "llama2-13b";
    if (artifactModel == "llama2-70")
        return "llama2-70b";
    if (artifactModel == "opt-30")
        return "opt-30b";
    if (artifactModel == "gemma2")
        return "gemma2-27b";
    if (artifactModel == "vit-huge")
        return "dit-xl";
    return {};
}

RunRequest equalTermsRequest(const PaperPoint& point)
{
    return requestOn(point, "bundled:" + bundledModelFor(point.model), false);
}

RunRequest parityRequest(const PaperPoint& point, const std::string& einsteinDir)
{
    RunRequest request = requestOn(point, einsteinDir + "/" + point.model + ".json", true);
    if (point.training) {
        request.phase = Phase::Train; // the parity pipeline's name for the artifact's --training
        request.seqLen = point.seqLen;
        request.kvLen = 0;
    }
    return request;
}

} // namespace elk::run
