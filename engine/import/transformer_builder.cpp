// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/import/transformer_builder.h"

#include "engine/import/onnx_graph_writer.h"

#include <onnx/onnx_pb.h>

#include <cmath>
#include <stdexcept>

namespace elk::import {

namespace {

    using detail::Dim;
    using detail::kF16;
    using detail::kF32;
    using detail::kI64;
    using detail::OnnxGraphWriter;
    using detail::Shape;

    // Adam as in the Llama 2 paper (β1 0.9, β2 0.95, ε 1e-8, peak lr 3e-4). The values only appear as
    // constants; bias correction is folded into the step size, weight decay is left out.
    constexpr double kAdamBeta1 = 0.9;
    constexpr double kAdamBeta2 = 0.95;
    constexpr double kAdamEpsilon = 1e-8;
    constexpr double kAdamStepSize = 3e-4;

    class TransformerGraphBuilder {
    public:
        TransformerGraphBuilder(const TransformerConfig& config, ModelPhase phase, onnx::GraphProto& graph)
            : m_cfg(config)
            , m_phase(phase)
            , m_w(graph)
        {
        }

        void build()
        {
            if (m_cfg.arch == ModelArch::Dit)
                buildDit();
            else
                buildDecoderLm();
        }

        const OnnxGraphWriter& writer() const { return m_w; }

    private:
        bool training() const { return m_phase == ModelPhase::Train; }
        std::string local(const std::string& name) const { return m_w.scope() + name; }

        std::string linear(const std::string& x, const std::string& name, std::int64_t in, std::int64_t out, bool bias)
        {
            const std::string w = m_w.weight(local(name), { in, out });
            std::string y = m_w.matMul(x, w);
            if (bias)
                y = m_w.add(y, m_w.weight(local(name + "_bias"), { out }));
            return y;
        }

        // One weight for several projections of the same input (the fused QKV / gate-up layout of
        // Megatron-LM and Gemma's reference code): one MatMul, then a Split (a view).
        std::vector<std::string> fusedLinear(const std::string& x, const std::string& name, std::int64_t in,
            const std::vector<std::int64_t>& outs, bool bias)
        {
            std::int64_t total = 0;
            for (auto o : outs)
                total += o;
            return m_w.split(linear(x, name, in, total, bias), -1, outs);
        }

        std::string silu(const std::string& x) { return m_w.mul(x, m_w.unary("Sigmoid", x)); }

        // gelu_tanh(x) = 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))); opset 17 has no Gelu op.
        std::string geluTanh(const std::string& x)
        {
            const std::string cube = m_w.mul(m_w.mul(x, x), x);
            const std::string inner = m_w.add(x, m_w.mul(cube, m_w.scalar(0.044715)));
            const std::string t = m_w.unary("Tanh", m_w.mul(inner, m_w.scalar(std::sqrt(2.0 / M_PI))));
            // Each writer call adds a node, and C++ leaves the order of arguments unspecified: calls that
            // would be sibling arguments are sequenced here (right first, as the sample models were written).
            const std::string half = m_w.scalar(0.5);
            return m_w.mul(m_w.mul(x, m_w.add(t, m_w.scalar(1.0))), half);
        }

        std::string softcap(const std::string& x, double cap, const std::string& name = {})
        {
            const std::string c = m_w.scalar(cap);
            return m_w.mul(m_w.unary("Tanh", m_w.div(x, c)), c, name);
        }

        // x / sqrt(mean(x²) + ε) (RMSNorm), or (x − mean) / sqrt(var + ε) when `centered` (DiT's
        // LayerNorm without affine parameters).
        std::string normalize(const std::string& x, bool centered)
        {
            const std::string d = centered ? m_w.sub(x, m_w.reduceMean(x)) : x;
            const std::string var = m_w.reduceMean(m_w.mul(d, d));
            const std::string rms = m_w.unary("Sqrt", m_w.add(var, m_w.scalar(m_cfg.normEpsilon)));
            return m_w.div(d, rms);
        }

        std::string norm(const std::string& x, const std::string& name)
        {
            const std::int64_t h = m_cfg.hidden;
            if (m_cfg.norm == NormKind::LayerNorm) {
                const std::string w = m_w.weight(local(name), { h });
                const std::string b = m_w.weight(local(name + "_bias"), { h });
                return m_w.layerNorm(x, w, b, m_cfg.normEpsilon, training());
            }
            std::string w = m_w.weight(local(name), { h });
            if (m_cfg.sandwichNorms)
                w = m_w.add(w, m_w.scalar(1.0)); // Gemma scales by (1 + w)
            return m_w.mul(normalize(x, false), w);
        }

        // [B, T, n·hd] → [B, n, T, hd]
        std::string toHeads(const std::string& x, std::int64_t n, const std::string& name = {})
        {
            const std::string r = m_w.reshape(x, { m_batch, m_seq, n, m_cfg.headDim });
            return m_w.transpose(r, { 0, 2, 1, 3 }, name);
        }

        // [B, n, T, hd] → [B, T, n·hd]
        std::string fromHeads(const std::string& x, std::int64_t n)
        {
            const std::string t = m_w.transpose(x, { 0, 2, 1, 3 });
            return m_w.reshape(t, { m_batch, m_seq, n * m_cfg.headDim });
        }

        // Rotary embedding: x·cos + rotate_half(x)·sin, with cos/sin [seq, headDim] supplied as inputs.
        std::string rope(const std::string& x, const std::string& name = {})
        {
            const std::int64_t half = m_cfg.headDim / 2;
            const auto halves = m_w.split(x, -1, { half, half });
            const std::string rotated = m_w.concat({ m_w.unary("Neg", halves[1]), halves[0] }, -1);
            const std::string sinPart = m_w.mul(rotated, m_ropeSin); // sequenced: see geluTanh
            const std::string cosPart = m_w.mul(x, m_ropeCos);
            return m_w.add(cosPart, sinPart, name);
        }

        // ---- decoder LMs -----------------------------------------------------------------------

        void buildDecoderLm()
        {
            const TransformerConfig& c = m_cfg;
            const bool decode = m_phase == ModelPhase::Decode;
            m_kvLength = decode ? Dim("past") + m_seq : m_seq;
            const std::string ids = m_w.input("input_ids", kI64, { m_batch, m_seq });
            std::string positions;
            if (c.learnedPositions > 0)
                positions = m_w.input("position_ids", kI64, { m_batch, m_seq });
            if (c.rotaryPositions) {
                m_ropeCos = m_w.input("rope_cos", kF16, { m_seq, c.headDim });
                m_ropeSin = m_w.input("rope_sin", kF16, { m_seq, c.headDim });
            }
            // Additive mask over the keys (causal in prefill/train, padding in decode).
            Shape maskShape { m_batch, 1, m_seq, m_kvLength };
            if (c.kvHeads != c.heads)
                maskShape.insert(maskShape.begin() + 1, Dim(1));
            m_mask = m_w.input("attn_mask", kF16, maskShape);
            std::vector<std::pair<std::string, std::string>> pastKv;
            if (decode) {
                for (std::int64_t l = 0; l < c.layers; ++l) {
                    const Shape s { m_batch, c.kvHeads, "past", c.headDim };
                    // Sequenced (see geluTanh): the value's input first, as the sample models list them.
                    const std::string value = m_w.input("past_value." + std::to_string(l), kF16, s);
                    pastKv.emplace_back(m_w.input("past_key." + std::to_string(l), kF16, s), value);
                }
            }

            m_w.setScope("e.");
            const std::string embed = m_w.weight("embed_tokens", { c.vocab, c.hidden });
            std::string x = m_w.gather(embed, ids);
            if (c.scaleEmbeddings)
                x = m_w.mul(x, m_w.scalar(std::sqrt(double(c.hidden))));
            if (c.learnedPositions > 0)
                x = m_w.add(x, m_w.gather(m_w.weight("embed_positions", { c.learnedPositions, c.hidden }), positions));

            std::vector<std::string> presents;
            for (std::int64_t l = 0; l < c.layers; ++l) {
                m_w.setScope("l" + std::to_string(l) + ".");
                x = decoderLayer(x, l, decode ? &pastKv[std::size_t(l)] : nullptr, presents);
            }

            m_w.setScope("f.");
            x = norm(x, "final_norm");
            const std::string head
                = c.tiedEmbeddings ? m_w.transpose(embed, { 1, 0 }) : m_w.weight("lm_head", { c.hidden, c.vocab });
            std::string logits = m_w.matMul(x, head, c.finalSoftcap > 0 ? std::string() : std::string("logits"));
            if (c.finalSoftcap > 0)
                logits = softcap(logits, c.finalSoftcap, "logits");

            if (!training()) {
                m_w.output(logits);
                for (const auto& p : presents)
                    m_w.output(p);
                return;
            }
            // Cross-entropy over every position (summed): dlogits = softmax − one_hot(labels).
            const std::string labels = m_w.input("labels", kI64, { m_batch, m_seq });
            m_w.setScope("loss.");
            const auto [loss, logProb] = m_w.crossEntropy(logits, labels);
            const std::string target = m_w.oneHot(labels, c.vocab); // sequenced: see geluTanh
            const std::string dLogits = m_w.sub(m_w.unary("Exp", logProb), target);
            m_w.output(loss);
            m_w.backward(logits, dLogits);
            adamUpdates();
        }

        std::string decoderLayer(const std::string& xIn, std::int64_t l,
            const std::pair<std::string, std::string>* past, std::vector<std::string>& presents)
        {
            const TransformerConfig& c = m_cfg;
            const std::int64_t qWidth = c.heads * c.headDim;
            const std::int64_t kvWidth = c.kvHeads * c.headDim;
            const std::string id = std::to_string(l);
            const bool bias = c.attentionBias;

            const std::string h = norm(xIn, c.sandwichNorms ? "pre_attn_norm" : "attn_norm");
            const auto qkv = fusedLinear(h, "qkv_proj", c.hidden, { qWidth, kvWidth, kvWidth }, bias);
            std::string q = toHeads(qkv[0], c.heads);
            std::string k = qkv[1];
            std::string v = qkv[2];
            const std::string keyName = "present_key." + id;
            const std::string valueName = "present_value." + id;
            if (c.rotaryPositions) {
                q = rope(q);
                k = rope(toHeads(k, c.kvHeads), past ? std::string() : keyName);
            } else {
                k = toHeads(k, c.kvHeads, past ? std::string() : keyName);
            }
            v = toHeads(v, c.kvHeads, past ? std::string() : valueName);
            if (past) { // append the new rows to the cache; attention runs over past + seq keys
                k = m_w.concat({ past->first, k }, 2, keyName);
                v = m_w.concat({ past->second, v }, 2, valueName);
            }
            if (!training()) {
                presents.push_back(k);
                presents.push_back(v);
            }

            // Grouped-query attention without copying K/V: queries as [B, kv, group, T, hd] against
            // keys [B, kv, 1, S, hd] (a broadcast MatMul).
            const bool grouped = c.kvHeads != c.heads;
            if (grouped) {
                q = m_w.reshape(q, { m_batch, c.kvHeads, c.heads / c.kvHeads, m_seq, c.headDim });
                k = m_w.unsqueeze(k, 2);
                v = m_w.unsqueeze(v, 2);
            }
            std::string s = m_w.matMul(q, m_w.transposeLast2(k));
            const double scale = c.queryScale > 0 ? c.queryScale : 1.0 / std::sqrt(double(c.headDim));
            s = m_w.mul(s, m_w.scalar(scale));
            if (c.attentionSoftcap > 0)
                s = softcap(s, c.attentionSoftcap);
            s = m_w.add(s, m_mask);
            std::string o = m_w.matMul(m_w.softmax(s), v);
            if (grouped)
                o = m_w.reshape(o, { m_batch, c.heads, m_seq, c.headDim });
            std::string a = linear(fromHeads(o, c.heads), "o_proj", qWidth, c.hidden, bias);
            if (c.sandwichNorms)
                a = norm(a, "post_attn_norm");
            const std::string x = m_w.add(xIn, a);

            const std::string h2 = norm(x, c.sandwichNorms ? "pre_mlp_norm" : "mlp_norm");
            std::string m;
            switch (c.mlp) {
            case MlpKind::SwiGlu:
            case MlpKind::GeGlu: {
                const auto gateUp = fusedLinear(h2, "gate_up_proj", c.hidden, { c.ffn, c.ffn }, c.mlpBias);
                const std::string act = c.mlp == MlpKind::SwiGlu ? silu(gateUp[0]) : geluTanh(gateUp[0]);
                m = linear(m_w.mul(act, gateUp[1]), "down_proj", c.ffn, c.hidden, c.mlpBias);
                break;
            }
            case MlpKind::Relu:
            case MlpKind::GeluTanh: {
                const std::string f = linear(h2, "fc1", c.hidden, c.ffn, c.mlpBias);
                const std::string act = c.mlp == MlpKind::Relu ? m_w.unary("Relu", f) : geluTanh(f);
                m = linear(act, "fc2", c.ffn, c.hidden, c.mlpBias);
                break;
            }
            }
            if (c.sandwichNorms)
                m = norm(m, "post_mlp_norm");
            return m_w.add(x, m);
        }

        // ---- DiT ---------------------------------------------------------------------------------

        // x·(1 + scale) + shift, with shift/scale [B, 1, hidden] from the conditioning.
        std::string modulate(const std::string& x, const std::string& shift, const std::string& scale)
        {
            return m_w.add(m_w.mul(x, m_w.add(scale, m_w.scalar(1.0))), shift);
        }

        // adaLN: SiLU(c) → Linear → n chunks of [B, 1, hidden].
        std::vector<std::string> adaLn(const std::string& condition, std::int64_t chunks)
        {
            const std::int64_t h = m_cfg.hidden;
            const std::string mod = linear(condition, "adaLN", h, chunks * h, true);
            const std::string r = m_w.reshape(mod, { m_batch, chunks, h });
            return m_w.split(r, 1, std::vector<std::int64_t>(std::size_t(chunks), 1));
        }

        void buildDit()
        {
            const TransformerConfig& c = m_cfg;
            const std::int64_t grid = c.inputSize / c.patchSize;
            m_seq = Dim(grid * grid); // 256 patch tokens, fixed
            const std::string latent = m_w.input("latent", kF16, { m_batch, c.inChannels, c.inputSize, c.inputSize });
            const std::string tFreq = m_w.input("timestep_freq", kF16, { m_batch, c.timestepFreqDim });
            const std::string label = m_w.input("class_label", kI64, { m_batch });

            m_w.setScope("e.");
            const std::string patchW = m_w.weight("x_embedder", { c.hidden, c.inChannels, c.patchSize, c.patchSize });
            const std::string patchB = m_w.weight("x_embedder_bias", { c.hidden });
            std::string x = m_w.patchConv(latent, patchW, patchB, c.patchSize);
            x = m_w.transpose(m_w.reshape(x, { m_batch, c.hidden, m_seq }), { 0, 2, 1 });
            // Fixed 2-D sin-cos table (a frozen parameter in DiT, so counted but never updated).
            x = m_w.add(x, m_w.weight("pos_embed", { 1, m_seq, c.hidden }, false));
            m_w.setScope("t_embedder.");
            std::string t = linear(tFreq, "fc1", c.timestepFreqDim, c.hidden, true);
            t = linear(silu(t), "fc2", c.hidden, c.hidden, true);
            m_w.setScope("e.");
            const std::string y = m_w.gather(m_w.weight("y_embedder", { c.numClasses + 1, c.hidden }), label);
            const std::string condition = silu(m_w.add(t, y)); // every adaLN starts with SiLU(c); computed once

            for (std::int64_t l = 0; l < c.layers; ++l) {
                m_w.setScope("l" + std::to_string(l) + ".");
                x = ditBlock(x, condition);
            }

            m_w.setScope("f.");
            const auto mod = adaLn(condition, 2);
            x = modulate(normalize(x, true), mod[0], mod[1]);
            const std::int64_t p = c.patchSize;
            x = linear(x, "linear", c.hidden, p * p * c.outChannels, true);
            // unpatchify: [B, h·w, p·p·C] → [B, h, w, p, q, C] → [B, C, h, p, w, q] → [B, C, H, W]
            x = m_w.reshape(x, { m_batch, grid, grid, p, p, c.outChannels });
            x = m_w.transpose(x, { 0, 5, 1, 3, 2, 4 });
            const std::string out
                = m_w.reshape(x, { m_batch, c.outChannels, c.inputSize, c.inputSize }, "model_output");
            if (!training()) {
                m_w.output(out);
                return;
            }
            // Squared error against the target for all output channels (sum): d/dout = 2·(out − target).
            const std::string target = m_w.input("target", kF16, { m_batch, c.outChannels, c.inputSize, c.inputSize });
            m_w.setScope("loss.");
            const std::string diff = m_w.sub(out, target);
            m_w.output(m_w.reduceSum(m_w.mul(diff, diff), {}, false, "loss"));
            m_w.backward(out, m_w.add(diff, diff));
            adamUpdates();
        }

        std::string ditBlock(const std::string& xIn, const std::string& condition)
        {
            const TransformerConfig& c = m_cfg;
            const auto mod = adaLn(condition, 6); // shift, scale, gate for attention; then for the MLP
            const std::string h = modulate(normalize(xIn, true), mod[0], mod[1]);
            const auto qkv = fusedLinear(h, "qkv", c.hidden, { c.hidden, c.hidden, c.hidden }, true);
            const std::string q = toHeads(qkv[0], c.heads);
            const std::string k = toHeads(qkv[1], c.heads);
            const std::string v = toHeads(qkv[2], c.heads);
            std::string s = m_w.matMul(q, m_w.transposeLast2(k));
            s = m_w.mul(s, m_w.scalar(1.0 / std::sqrt(double(c.headDim))));
            const std::string o = m_w.matMul(m_w.softmax(s), v); // no mask: every patch sees every patch
            const std::string a = linear(fromHeads(o, c.heads), "proj", c.hidden, c.hidden, true);
            const std::string x = m_w.add(xIn, m_w.mul(mod[2], a));

            const std::string h2 = modulate(normalize(x, true), mod[3], mod[4]);
            const std::string f = geluTanh(linear(h2, "fc1", c.hidden, c.ffn, true));
            const std::string m = linear(f, "fc2", c.ffn, c.hidden, true);
            return m_w.add(x, m_w.mul(mod[5], m));
        }

        // ---- optimizer ---------------------------------------------------------------------------

        // Adam per trainable weight, elementwise in fp32 with moments m, v as fp32 initializers:
        // m' = β1·m + (1−β1)·g, v' = β2·v + (1−β2)·g², w' = w − lr·m'/(√v' + ε).
        void adamUpdates()
        {
            const std::string b1 = m_w.scalar(kAdamBeta1, kF32);
            const std::string b1c = m_w.scalar(1.0 - kAdamBeta1, kF32);
            const std::string b2 = m_w.scalar(kAdamBeta2, kF32);
            const std::string b2c = m_w.scalar(1.0 - kAdamBeta2, kF32);
            const std::string eps = m_w.scalar(kAdamEpsilon, kF32);
            const std::string lr = m_w.scalar(kAdamStepSize, kF32);
            const auto weights = m_w.weights(); // copy: the moments are added to the list below
            for (std::size_t i = 0; i < weights.size(); ++i) {
                const auto& w = weights[i];
                if (!w.trainable)
                    continue;
                const auto g = m_w.gradient(w.name);
                if (!g)
                    throw std::logic_error("transformer builder: weight '" + w.name + "' has no gradient");
                m_w.setScope("a" + std::to_string(i) + "."); // short: these names repeat in every node
                const std::string m = m_w.weight(w.name + ".m", w.shape, false, kF32);
                const std::string v = m_w.weight(w.name + ".v", w.shape, false, kF32);
                const std::string g32 = m_w.cast(*g, kF32);
                // Sequenced (see geluTanh): right operand first.
                const std::string gradTerm = m_w.mul(g32, b1c);
                const std::string m1 = m_w.add(m_w.mul(m, b1), gradTerm, w.name + ".m_new");
                const std::string squaredTerm = m_w.mul(m_w.mul(g32, g32), b2c);
                const std::string v1 = m_w.add(m_w.mul(v, b2), squaredTerm, w.name + ".v_new");
                const std::string step = m_w.mul(m_w.div(m1, m_w.add(m_w.unary("Sqrt", v1), eps)), lr);
                const std::string w1 = m_w.sub(w.name, m_w.cast(step, kF16), w.name + ".new");
                m_w.output(w1);
                m_w.output(m1);
                m_w.output(v1);
            }
        }

        const TransformerConfig& m_cfg;
        ModelPhase m_phase;
        OnnxGraphWriter m_w;
        Dim m_batch { "batch" };
        Dim m_seq { "seq" };
        Dim m_kvLength { "seq" };
        std::string m_ropeCos;
        std::string m_ropeSin;
        std::string m_mask;
    };

    void checkPhase(const TransformerConfig& config, ModelPhase phase)
    {
        for (ModelPhase p : supportedPhases(config))
            if (p == phase)
                return;
        throw std::invalid_argument(std::string("model '") + config.name + "' has no " + toString(phase) + " phase");
    }

} // namespace

std::int64_t parameterCount(const TransformerConfig& config)
{
    onnx::GraphProto graph;
    TransformerGraphBuilder builder(config, ModelPhase::Prefill, graph);
    builder.build();
    std::int64_t total = 0;
    for (const auto& w : builder.writer().weights()) {
        std::int64_t n = 1;
        for (const auto& d : w.shape)
            n *= d.value;
        total += n;
    }
    return total;
}

std::string buildTransformerOnnx(const TransformerConfig& config, ModelPhase phase)
{
    checkPhase(config, phase);
    onnx::ModelProto model;
    model.set_ir_version(8);
    auto* opset = model.add_opset_import();
    opset->set_domain("");
    opset->set_version(17);
    model.set_producer_name("elk-studio transformer builder");
    auto* graph = model.mutable_graph();
    graph->set_name(config.name + "-" + toString(phase));
    TransformerGraphBuilder builder(config, phase, *graph);
    builder.build();

    std::int64_t params = 0;
    for (const auto& w : builder.writer().weights()) {
        if (w.elemType != kF16)
            continue; // optimizer moments (fp32) are state, not parameters
        std::int64_t n = 1;
        for (const auto& d : w.shape)
            n *= d.value;
        params += n;
    }
    const std::pair<const char*, std::string> props[] = {
        { "model", config.name },
        { "phase", toString(phase) },
        { "params", std::to_string(params) },
    };
    for (const auto& [key, value] : props) {
        auto* p = model.add_metadata_props();
        p->set_key(key);
        p->set_value(value);
    }
    model.set_doc_string(config.title + ", " + toString(phase)
        + " step. Shape-only: weights are external data in a file that does not exist. Generated by Elk "
          "Studio (GPL-3.0-or-later); see sample_models/README.md.");
    std::string bytes;
    if (!model.SerializeToString(&bytes))
        throw std::runtime_error("transformer builder: could not serialize " + config.name);
    return bytes;
}

} // namespace elk::import
