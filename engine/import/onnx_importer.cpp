// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/import/onnx_importer.h"

#include "engine/import/onnx_lowering.h"
#include "engine/import/onnx_passes.h"

#include <filesystem>
#include <fstream>
#include <new>
#include <set>

namespace elk::import {

namespace onnx_detail {

    bool lowerGraph(Context& ctx, model::Graph& graph)
    {
        const onnx::ModelProto& model = *ctx.model;
        graph.setName(model.graph().name().empty() ? ctx.displayName : model.graph().name());
        std::string description
            = "ONNX IR " + std::to_string(model.ir_version()) + ", opset " + std::to_string(ctx.opsetOf(""));
        if (!model.producer_name().empty())
            description += ", from " + model.producer_name() + " " + model.producer_version();
        graph.setDescription(description);
        Lowering lowering(ctx);
        return lowering.run(graph);
    }

} // namespace onnx_detail

namespace {

    void describeInputs(const onnx::ModelProto& model, OnnxImportDetails& details)
    {
        std::set<std::string> initializers;
        for (const auto& init : model.graph().initializer())
            initializers.insert(init.name());
        for (const auto& input : model.graph().input()) {
            if (initializers.count(input.name()))
                continue;
            std::vector<std::string> dims;
            if (input.type().has_tensor_type() && input.type().tensor_type().has_shape()) {
                for (const auto& d : input.type().tensor_type().shape().dim())
                    dims.push_back(d.has_dim_value() ? std::to_string(d.dim_value())
                            : d.has_dim_param()      ? d.dim_param()
                                                     : "?");
            }
            details.inputs.emplace_back(input.name(), std::move(dims));
        }
    }

    // `details` may be null: collecting every value's shape costs as much as a pass of its own.
    ImportResult importBytes(std::string_view bytes, const std::string& displayName, const ImportOptions& options,
        OnnxImportDetails* details);

} // namespace

ImportResult importOnnxBytes(std::string_view bytes, const std::string& displayName, const ImportOptions& options)
{
    return importBytes(bytes, displayName, options, nullptr);
}

ImportResult importOnnxBytes(
    std::string_view bytes, const std::string& displayName, const ImportOptions& options, OnnxImportDetails& details)
{
    details = {};
    return importBytes(bytes, displayName, options, &details);
}

namespace {

    ImportResult importBytes(
        std::string_view bytes, const std::string& displayName, const ImportOptions& options, OnnxImportDetails* out)
    {
        // (in this unnamed namespace: declared above so the public overloads can sit together)
        using namespace onnx_detail;
        ImportResult result;
        Context ctx(options, displayName);
        OnnxImportDetails scratch;
        OnnxImportDetails& details = out ? *out : scratch;
        try {
            onnx::ModelProto model;
            if (parseModel(bytes, model, ctx) && !ctx.stopRequested()) {
                ctx.model = &model;
                details.irVersion = model.ir_version();
                if (out)
                    describeInputs(model, details);
                if (checkModel(ctx) && !ctx.stopRequested() && buildGraph(ctx) && !ctx.stopRequested()) {
                    details.opset = ctx.opsetOf("");
                    const bool shaped = inferShapes(ctx);
                    if (out) {
                        for (const auto& [name, id] : ctx.valueByName) {
                            if (ctx.value(id).hasShape)
                                details.valueShapes[name] = ctx.value(id).shape;
                        }
                        for (int id : ctx.graphOutputs) {
                            const Value& v = ctx.value(id);
                            details.outputShapes.emplace_back(
                                v.name, v.hasShape ? v.shape : std::vector<std::int64_t> {});
                        }
                    }
                    if (shaped)
                        lowerGraph(ctx, result.graph);
                }
            }
        } catch (const std::bad_alloc&) {
            ctx.error("", "out of memory while importing");
        } catch (const std::exception& e) {
            ctx.error("", std::string("internal error: ") + e.what());
        }
        result.errors = std::move(ctx.errors);
        result.warnings = std::move(ctx.warnings);
        result.freeDims = std::move(ctx.freeDims);
        result.stopped = ctx.stopped;
        return result;
    }

} // namespace

ImportResult importOnnxFile(const std::string& path, const ImportOptions& options)
{
    ImportResult result;
    std::error_code error;
    const auto size = std::filesystem::file_size(path, error);
    if (error) {
        result.errors.push_back({ "", "cannot read '" + path + "': " + error.message() });
        return result;
    }
    if (size > onnx_detail::kMaxModelBytes) {
        result.errors.push_back({ "",
            "the file has " + std::to_string(size)
                + " bytes, more than protobuf's 2 GiB limit; large models must keep their weights as external data" });
        return result;
    }
    std::ifstream in(path, std::ios::binary);
    std::string bytes(std::size_t(size), '\0');
    if (!in || !in.read(bytes.data(), std::streamsize(size))) {
        result.errors.push_back({ "", "cannot read '" + path + "'" });
        return result;
    }
    return importOnnxBytes(bytes, std::filesystem::path(path).stem().string(), options);
}

} // namespace elk::import
