// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace elk::import {

/// What one step of the model does.
enum class ModelPhase {
    Decode, ///< `seq` new tokens (1 in practice) attending over a KV cache of `past` tokens
    Prefill, ///< `seq` tokens from an empty cache, causal; writes the K/V cache (DiT: one denoising pass)
    Train, ///< forward over `seq` tokens, loss, backward, Adam update
};

const char* toString(ModelPhase phase); ///< "decode", "prefill", "train"
std::optional<ModelPhase> modelPhaseFromString(std::string_view text);

enum class ModelArch {
    DecoderLm, ///< causal language model with a KV cache
    Dit, ///< diffusion transformer over latent patches, conditioned by adaLN-Zero
};
enum class NormKind { RmsNorm, LayerNorm };
enum class MlpKind {
    SwiGlu, ///< down(silu(gate(x)) · up(x))
    GeGlu, ///< down(gelu_tanh(gate(x)) · up(x))
    Relu, ///< fc2(relu(fc1(x)))
    GeluTanh, ///< fc2(gelu_tanh(fc1(x))) (DiT's MLP)
};

/// Architecture numbers of a transformer; everything the builder needs and nothing else.
struct TransformerConfig {
    std::string name; ///< "llama2-13b"
    std::string title; ///< "Llama-2-13B"
    ModelArch arch = ModelArch::DecoderLm;
    std::int64_t hidden = 0;
    std::int64_t layers = 0;
    std::int64_t heads = 0;
    std::int64_t kvHeads = 0; ///< < heads: grouped-query attention
    std::int64_t headDim = 0;
    std::int64_t ffn = 0; ///< MLP inner width
    std::int64_t vocab = 0; ///< decoder LMs
    NormKind norm = NormKind::RmsNorm;
    double normEpsilon = 1e-5;
    MlpKind mlp = MlpKind::SwiGlu;
    bool attentionBias = false; ///< biases on Q/K/V/O
    bool mlpBias = false;
    bool tiedEmbeddings = false; ///< LM head = embeddingᵀ
    bool rotaryPositions = true; ///< RoPE tables as inputs
    std::int64_t learnedPositions = 0; ///< rows of a learned position table (OPT: 2050), 0 = none
    // Gemma-2 specifics.
    bool sandwichNorms = false; ///< pre and post norms around attention and MLP, RMSNorm scale (1 + w)
    bool scaleEmbeddings = false; ///< embeddings × sqrt(hidden)
    double queryScale = 0; ///< score scale; 0 = 1/sqrt(headDim)
    double attentionSoftcap = 0; ///< cap·tanh(s/cap) on scores, 0 = none
    double finalSoftcap = 0; ///< same on the logits
    // DiT specifics (arch == Dit).
    std::int64_t inputSize = 0; ///< latent height = width
    std::int64_t inChannels = 0;
    std::int64_t outChannels = 0; ///< 2 × inChannels with learned sigma
    std::int64_t patchSize = 0;
    std::int64_t numClasses = 0; ///< class-label table has numClasses + 1 rows (the CFG null class)
    std::int64_t timestepFreqDim = 0; ///< sinusoidal timestep features fed to the timestep MLP
};

/// "llama2-13b", "llama2-70b", "opt-30b", "gemma2-27b", "dit-xl".
const std::vector<std::string>& bundledModelNames();
std::optional<TransformerConfig> bundledModelConfig(std::string_view name);

/// Decoder LMs: decode, prefill, train. DiT: prefill (one denoising forward pass), train.
std::vector<ModelPhase> supportedPhases(const TransformerConfig& config);

/// A serialized ONNX ModelProto (IR 8, opset 17, fp16) of one step: standard ops only, weights as
/// external-data initializers that point at "__shape_only_no_data__.bin" (never written, no weight
/// bytes anywhere), symbolic dims "batch", "seq" and "past". Deterministic: the same bytes on every
/// call. Throws std::invalid_argument for a phase the architecture does not support.
std::string buildTransformerOnnx(const TransformerConfig& config, ModelPhase phase);

/// Model parameters: the elements of the weight initializers the builder emits (optimizer state and
/// small constants excluded).
std::int64_t parameterCount(const TransformerConfig& config);

} // namespace elk::import
