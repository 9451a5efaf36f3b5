// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// The bundled models' architecture numbers, from the model papers and their published configs
// (sources per model in sample_models/README.md).
#include "engine/import/transformer_builder.h"

#include <cmath>

namespace elk::import {

namespace {

    TransformerConfig llama2(std::string name, std::string title, std::int64_t hidden, std::int64_t layers,
        std::int64_t heads, std::int64_t kvHeads, std::int64_t ffn)
    {
        TransformerConfig c;
        c.name = std::move(name);
        c.title = std::move(title);
        c.hidden = hidden;
        c.layers = layers;
        c.heads = heads;
        c.kvHeads = kvHeads;
        c.headDim = hidden / heads;
        c.ffn = ffn;
        c.vocab = 32000;
        c.norm = NormKind::RmsNorm;
        c.normEpsilon = 1e-5;
        c.mlp = MlpKind::SwiGlu;
        return c;
    }

    std::vector<TransformerConfig> makeConfigs()
    {
        std::vector<TransformerConfig> all;
        // Llama 2 (Touvron et al. 2023, arXiv:2307.09288) and HF meta-llama/Llama-2-{13b,70b}-hf config.json.
        all.push_back(llama2("llama2-13b", "Llama-2-13B", 5120, 40, 40, 40, 13824));
        all.push_back(llama2("llama2-70b", "Llama-2-70B", 8192, 80, 64, 8, 28672));

        // OPT (Zhang et al. 2022, arXiv:2205.01068) and HF facebook/opt-30b config.json.
        TransformerConfig opt;
        opt.name = "opt-30b";
        opt.title = "OPT-30B";
        opt.hidden = 7168;
        opt.layers = 48;
        opt.heads = 56;
        opt.kvHeads = 56;
        opt.headDim = 128;
        opt.ffn = 28672;
        opt.vocab = 50272;
        opt.norm = NormKind::LayerNorm;
        opt.normEpsilon = 1e-5;
        opt.mlp = MlpKind::Relu;
        opt.attentionBias = true;
        opt.mlpBias = true;
        opt.tiedEmbeddings = true;
        opt.rotaryPositions = false;
        opt.learnedPositions = 2050; // 2048 positions + OPT's offset of 2
        all.push_back(opt);

        // Gemma 2 (Gemma Team 2024, arXiv:2408.00118) and HF google/gemma-2-27b config.json.
        TransformerConfig gemma;
        gemma.name = "gemma2-27b";
        gemma.title = "Gemma-2-27B";
        gemma.hidden = 4608;
        gemma.layers = 46;
        gemma.heads = 32;
        gemma.kvHeads = 16;
        gemma.headDim = 128;
        gemma.ffn = 36864;
        gemma.vocab = 256000;
        gemma.norm = NormKind::RmsNorm;
        gemma.normEpsilon = 1e-6;
        gemma.mlp = MlpKind::GeGlu;
        gemma.tiedEmbeddings = true;
        gemma.sandwichNorms = true;
        gemma.scaleEmbeddings = true;
        gemma.queryScale = 1.0 / std::sqrt(144.0); // query_pre_attn_scalar = 144 = hidden / heads
        gemma.attentionSoftcap = 50.0;
        gemma.finalSoftcap = 30.0;
        all.push_back(gemma);

        // DiT-XL/2 (Peebles & Xie 2023, arXiv:2212.09748) and facebookresearch/DiT models.py: depth 28,
        // hidden 1152, 16 heads, patch 2 over a 32×32×4 latent (256×256 images), learned sigma.
        TransformerConfig dit;
        dit.name = "dit-xl";
        dit.title = "DiT-XL/2";
        dit.arch = ModelArch::Dit;
        dit.hidden = 1152;
        dit.layers = 28;
        dit.heads = 16;
        dit.kvHeads = 16;
        dit.headDim = 72;
        dit.ffn = 4 * 1152;
        dit.norm = NormKind::LayerNorm; // without affine parameters: adaLN supplies shift and scale
        dit.normEpsilon = 1e-6;
        dit.mlp = MlpKind::GeluTanh;
        dit.attentionBias = true;
        dit.mlpBias = true;
        dit.rotaryPositions = false;
        dit.inputSize = 32;
        dit.inChannels = 4;
        dit.outChannels = 8;
        dit.patchSize = 2;
        dit.numClasses = 1000;
        dit.timestepFreqDim = 256;
        all.push_back(dit);
        return all;
    }

    const std::vector<TransformerConfig>& configs()
    {
        static const std::vector<TransformerConfig> all = makeConfigs();
        return all;
    }

} // namespace

const char* toString(ModelPhase phase)
{
    switch (phase) {
    case ModelPhase::Decode:
        return "decode";
    case ModelPhase::Prefill:
        return "prefill";
    case ModelPhase::Train:
        return "train";
    }
    return "?";
}

std::optional<ModelPhase> modelPhaseFromString(std::string_view text)
{
    for (ModelPhase p : { ModelPhase::Decode, ModelPhase::Prefill, ModelPhase::Train })
        if (text == toString(p))
            return p;
    return std::nullopt;
}

const std::vector<std::string>& bundledModelNames()
{
    static const std::vector<std::string> names = [] {
        std::vector<std::string> n;
        for (const auto& c : configs())
            n.push_back(c.name);
        return n;
    }();
    return names;
}

std::optional<TransformerConfig> bundledModelConfig(std::string_view name)
{
    for (const auto& c : configs())
        if (c.name == name)
            return c;
    return std::nullopt;
}

std::vector<ModelPhase> supportedPhases(const TransformerConfig& config)
{
    if (config.arch == ModelArch::Dit)
        return { ModelPhase::Prefill, ModelPhase::Train }; // no KV cache: nothing to decode
    return { ModelPhase::Decode, ModelPhase::Prefill, ModelPhase::Train };
}

} // namespace elk::import
