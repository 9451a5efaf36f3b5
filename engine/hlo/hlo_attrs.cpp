// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/hlo/hlo_attrs.h"

#include "engine/hlo/hlo_parser.h"

#include <algorithm>
#include <cctype>

namespace elk::hlo {

namespace {

    std::vector<std::int64_t> listOr(const Op& op, std::string_view name, std::size_t size, std::int64_t fallback)
    {
        std::vector<std::int64_t> values = intList(op, name).value_or(std::vector<std::int64_t> {});
        if (values.size() == 1 && size > 1)
            values.assign(size, values.front()); // a splat
        if (values.size() != size)
            values.assign(size, fallback);
        return values;
    }

    // One `[b, 0, 1, f]` group of a convolution layout: the letter or spatial index at each position.
    bool readLayoutGroup(std::string_view text, std::size_t& pos, std::vector<std::string>& entries)
    {
        pos = text.find('[', pos);
        if (pos == std::string_view::npos)
            return false;
        const std::size_t close = text.find(']', pos);
        if (close == std::string_view::npos)
            return false;
        std::string entry;
        for (std::size_t i = pos + 1; i <= close; ++i) {
            const char c = text[i];
            if (c == ',' || c == ']') {
                if (entry.empty())
                    return false;
                entries.push_back(entry);
                entry.clear();
            } else if (!std::isspace(static_cast<unsigned char>(c))) {
                entry += c;
            }
        }
        pos = close + 1;
        return true;
    }

    // Assigns `letters` (e.g. "bf" or "io") and spatial indices of one layout group.
    bool assignLayout(const std::vector<std::string>& entries, char first, char second, std::int64_t& firstDim,
        std::int64_t& secondDim, std::vector<std::int64_t>& spatial)
    {
        firstDim = secondDim = -1;
        spatial.assign(entries.size() >= 2 ? entries.size() - 2 : 0, -1);
        for (std::size_t p = 0; p < entries.size(); ++p) {
            const std::string& entry = entries[p];
            if (entry.size() == 1 && entry[0] == first)
                firstDim = std::int64_t(p);
            else if (entry.size() == 1 && entry[0] == second)
                secondDim = std::int64_t(p);
            else if (std::all_of(entry.begin(), entry.end(), [](char c) { return c >= '0' && c <= '9'; })) {
                if (entry.size() > 6)
                    return false;
                const std::size_t index = std::size_t(std::stoi(entry));
                if (index >= spatial.size())
                    return false;
                spatial[index] = std::int64_t(p);
            } else {
                return false;
            }
        }
        return firstDim >= 0 && secondDim >= 0 && std::find(spatial.begin(), spatial.end(), -1) == spatial.end();
    }

    std::optional<std::int64_t> fieldInt(const Attribute& attribute, std::string_view name)
    {
        const Attribute* field = attribute.field(name);
        if (!field)
            return std::nullopt;
        const auto values = intList(*field);
        if (!values || values->size() != 1)
            return std::nullopt;
        return values->front();
    }

    // Groups of a `#stablehlo.replica_group_mesh_axes`: devices that share every coordinate outside
    // `axes`, ordered by the listed axes (first listed = most significant). A sub-axis
    // (`sub_axis_info<pre_size = p, size = s>`) splits its axis into virtual axes, major to minor.
    std::optional<std::vector<std::vector<std::int64_t>>> meshAxisGroups(
        const Attribute& attribute, const Module& module)
    {
        const Attribute* meshRef = attribute.field("mesh");
        const Attribute* axesRef = attribute.field("axes");
        if (!meshRef || !axesRef || axesRef->kind != Attribute::Kind::Array)
            return std::nullopt;
        Mesh inlineMesh;
        const Mesh* mesh = nullptr;
        if (meshRef->kind == Attribute::Kind::Symbol)
            mesh = module.findMesh(meshRef->text);
        else if (detail::meshFromAttribute(*meshRef, inlineMesh)) // #stablehlo.mesh<axes = [...]>
            mesh = &inlineMesh;
        if (!mesh)
            return std::nullopt;
        std::int64_t devices = 1; // enumerated below: keep it small
        for (const MeshAxis& axis : mesh->axes) {
            devices *= std::max<std::int64_t>(axis.size, 1);
            if (devices > (std::int64_t(1) << 24))
                return std::nullopt;
        }
        const std::size_t rank = mesh->axes.size();
        auto axisSize = [&](std::size_t a) { return std::max<std::int64_t>(mesh->axes[a].size, 1); };

        // Each reference: (axis, pre_size, size); split points per axis.
        struct Reference {
            std::size_t axis;
            std::int64_t low, high; ///< covers the axis' minor-to-major range [low, high) of strides
        };
        std::vector<Reference> references;
        std::vector<std::vector<std::int64_t>> cuts(rank);
        for (std::size_t a = 0; a < rank; ++a)
            cuts[a] = { 1, axisSize(a) };
        for (const Attribute& axis : axesRef->items) {
            const Attribute* name = axis.field("name");
            if (!name || name->kind != Attribute::Kind::String)
                return std::nullopt;
            const auto it = std::find_if(
                mesh->axes.begin(), mesh->axes.end(), [&](const MeshAxis& m) { return m.name == name->text; });
            if (it == mesh->axes.end())
                return std::nullopt;
            Reference reference { std::size_t(it - mesh->axes.begin()), 1, 0 };
            reference.high = axisSize(reference.axis);
            if (const Attribute* sub = axis.field("sub_axis_info")) {
                const auto pre = fieldInt(*sub, "pre_size");
                const auto size = fieldInt(*sub, "size");
                if (!pre || !size || *pre < 1 || *size < 1 || reference.high % (*pre * *size) != 0)
                    return std::nullopt;
                reference.low = *pre;
                reference.high = *pre * *size;
            }
            cuts[reference.axis].push_back(reference.low);
            cuts[reference.axis].push_back(reference.high);
            references.push_back(reference);
        }
        // Virtual axes, major to minor: every axis cut at the sub-axis boundaries.
        std::vector<std::int64_t> sizes;
        std::vector<std::vector<std::pair<std::int64_t, std::size_t>>> lowToVirtual(
            rank); // (low boundary, virtual index)
        for (std::size_t a = 0; a < rank; ++a) {
            std::vector<std::int64_t>& c = cuts[a];
            std::sort(c.begin(), c.end());
            c.erase(std::unique(c.begin(), c.end()), c.end());
            for (std::size_t k = c.size() - 1; k-- > 0;) {
                if (c[k + 1] % c[k] != 0)
                    return std::nullopt; // overlapping sub-axes
                lowToVirtual[a].emplace_back(c[k], sizes.size());
                sizes.push_back(c[k + 1] / c[k]);
            }
        }
        std::vector<std::size_t> listed;
        for (const Reference& reference : references)
            for (const auto& [low, index] : lowToVirtual[reference.axis]) // major first
                if (low >= reference.low && low < reference.high)
                    listed.push_back(index);
        std::vector<std::size_t> others;
        for (std::size_t v = 0; v < sizes.size(); ++v)
            if (std::find(listed.begin(), listed.end(), v) == listed.end())
                others.push_back(v);
        auto product = [&](const std::vector<std::size_t>& axes) {
            std::int64_t n = 1;
            for (std::size_t v : axes)
                n *= sizes[v];
            return n;
        };
        // Linear device index: row-major over the virtual axes, the same order as over the real ones.
        auto deviceOf = [&](const std::vector<std::int64_t>& coordinate) {
            std::int64_t linear = 0;
            for (std::size_t v = 0; v < sizes.size(); ++v)
                linear = linear * sizes[v] + coordinate[v];
            return mesh->deviceIds.empty()                      ? linear
                : linear < std::int64_t(mesh->deviceIds.size()) ? mesh->deviceIds[std::size_t(linear)]
                                                                : linear;
        };
        // Sets the coordinates of `axes` from `index` (last axis fastest).
        auto spread
            = [&](std::int64_t index, const std::vector<std::size_t>& axes, std::vector<std::int64_t>& coordinate) {
                  for (std::size_t k = axes.size(); k-- > 0;) {
                      coordinate[axes[k]] = index % sizes[axes[k]];
                      index /= sizes[axes[k]];
                  }
              };
        std::vector<std::vector<std::int64_t>> groups;
        std::vector<std::int64_t> coordinate(sizes.size(), 0);
        const std::int64_t groupCount = product(others);
        const std::int64_t groupSize = product(listed);
        for (std::int64_t g = 0; g < groupCount; ++g) {
            spread(g, others, coordinate);
            std::vector<std::int64_t> group;
            for (std::int64_t m = 0; m < groupSize; ++m) {
                spread(m, listed, coordinate);
                group.push_back(deviceOf(coordinate));
            }
            groups.push_back(std::move(group));
        }
        return groups;
    }

} // namespace

namespace detail {

    bool meshFromAttribute(const Attribute& attribute, Mesh& mesh)
    {
        if (attribute.kind == Attribute::Kind::Dictionary || !attribute.fields.empty()) {
            const Attribute* axes = attribute.field("axes");
            if (!axes || axes->kind != Attribute::Kind::Array)
                return false;
            for (const Attribute& axis : axes->items) {
                const Attribute* name = axis.field("name");
                const Attribute* size = axis.field("size");
                if (!name || name->kind != Attribute::Kind::String || !size || size->kind != Attribute::Kind::Integer)
                    return false;
                mesh.axes.push_back(MeshAxis { name->text, size->intValue });
            }
            if (const Attribute* ids = attribute.field("device_ids")) {
                if (ids->kind == Attribute::Kind::Array || ids->kind == Attribute::Kind::Dense)
                    for (const Attribute& item : ids->items)
                        mesh.deviceIds.push_back(item.intValue);
                if (ids->kind == Attribute::Kind::Dense)
                    mesh.deviceIds = ids->denseInts;
            }
            return true;
        }
        if (attribute.kind != Attribute::Kind::Dialect)
            return false;
        // #sdy.mesh<["x"=2, "y"=4], device_ids=[...]> or <device_id=0>: scan the body text.
        const std::string_view body = attribute.body;
        auto readInt = [&](std::size_t& pos, std::int64_t& value) {
            while (pos < body.size() && (body[pos] == ' ' || body[pos] == '='))
                ++pos;
            const std::size_t start = pos;
            while (pos < body.size() && body[pos] >= '0' && body[pos] <= '9')
                ++pos;
            return pos > start && parseIntegerText(body.substr(start, pos - start), false, value);
        };
        std::size_t pos = 0;
        while (pos < body.size()) {
            if (body[pos] == '"') {
                const std::size_t close = body.find('"', pos + 1);
                if (close == std::string_view::npos)
                    return false;
                MeshAxis axis { std::string(body.substr(pos + 1, close - pos - 1)), 1 };
                pos = close + 1;
                if (!readInt(pos, axis.size))
                    return false;
                mesh.axes.push_back(std::move(axis));
            } else if (body.substr(pos, 10) == "device_ids") {
                pos += 10;
                std::int64_t id = 0;
                while (pos < body.size() && body[pos] != ']') {
                    while (pos < body.size()
                        && (body[pos] == ' ' || body[pos] == '=' || body[pos] == '[' || body[pos] == ','))
                        ++pos;
                    if (pos < body.size() && body[pos] != ']') {
                        if (!readInt(pos, id))
                            return false;
                        mesh.deviceIds.push_back(id);
                    }
                }
            } else if (body.substr(pos, 9) == "device_id") {
                pos += 9;
                std::int64_t id = 0;
                if (!readInt(pos, id))
                    return false;
                mesh.deviceIds.push_back(id);
            } else {
                ++pos;
            }
        }
        return true;
    }

} // namespace detail

std::optional<std::vector<std::int64_t>> intList(const Attribute& attribute)
{
    switch (attribute.kind) {
    case Attribute::Kind::Integer:
        return std::vector<std::int64_t> { attribute.intValue };
    case Attribute::Kind::Array: {
        std::vector<std::int64_t> values;
        values.reserve(attribute.items.size());
        for (const Attribute& item : attribute.items) {
            if (item.kind == Attribute::Kind::Integer)
                values.push_back(item.intValue);
            else if (item.kind == Attribute::Kind::Bool)
                values.push_back(item.boolValue ? 1 : 0);
            else
                return std::nullopt;
        }
        return values;
    }
    case Attribute::Kind::Dense: {
        if (attribute.denseSplat && attribute.denseInts.size() == 1)
            return attribute.denseInts;
        if (attribute.type.elementType.empty() && attribute.type.dims.empty())
            return attribute.denseInts.empty() ? std::nullopt : std::optional(attribute.denseInts);
        if (std::int64_t(attribute.denseInts.size()) == elementCount(attribute.type))
            return attribute.denseInts;
        return std::nullopt;
    }
    default:
        return std::nullopt;
    }
}

std::optional<std::vector<std::int64_t>> intList(const Op& op, std::string_view attributeName)
{
    const Attribute* attribute = op.attribute(attributeName);
    return attribute ? intList(*attribute) : std::nullopt;
}

std::optional<std::int64_t> intValue(const Op& op, std::string_view attributeName)
{
    const Attribute* attribute = op.attribute(attributeName);
    if (!attribute)
        return std::nullopt;
    if (attribute->kind == Attribute::Kind::Bool)
        return attribute->boolValue ? 1 : 0;
    const auto values = intList(*attribute);
    if (!values || values->size() != 1)
        return std::nullopt;
    return values->front();
}

std::optional<DotDimensions> dotDimensions(const Op& op)
{
    if (const Attribute* dims = op.attribute("dot_dimension_numbers")) {
        if (dims->kind != Attribute::Kind::Dialect || (dims->fields.empty() && !dims->body.empty()))
            return std::nullopt;
        DotDimensions result;
        const std::pair<const char*, std::vector<std::int64_t>*> fields[] = {
            { "lhs_batching_dimensions", &result.lhsBatch },
            { "rhs_batching_dimensions", &result.rhsBatch },
            { "lhs_contracting_dimensions", &result.lhsContracting },
            { "rhs_contracting_dimensions", &result.rhsContracting },
        };
        for (const auto& [name, target] : fields)
            if (const Attribute* field = dims->field(name)) {
                const auto values = intList(*field);
                if (!values)
                    return std::nullopt;
                *target = *values;
            }
        return result;
    }
    if (op.name.ends_with(".dot") && !op.operandTypes.empty() && !op.operandTypes.front().dims.empty()) {
        DotDimensions result;
        result.lhsContracting = { std::int64_t(op.operandTypes.front().dims.size()) - 1 };
        result.rhsContracting = { 0 };
        return result;
    }
    return std::nullopt;
}

std::optional<ConvDimensions> convDimensions(const Op& op)
{
    const Attribute* numbers = op.attribute("dimension_numbers");
    if (!numbers || numbers->kind != Attribute::Kind::Dialect || !numbers->text.ends_with(".conv"))
        return std::nullopt;
    ConvDimensions result;
    if (!numbers->fields.empty()) { // #stablehlo.conv<raw input_batch_dimension = 0, ...>
        const auto ib = fieldInt(*numbers, "input_batch_dimension");
        const auto ifd = fieldInt(*numbers, "input_feature_dimension");
        const auto ki = fieldInt(*numbers, "kernel_input_feature_dimension");
        const auto ko = fieldInt(*numbers, "kernel_output_feature_dimension");
        const auto ob = fieldInt(*numbers, "output_batch_dimension");
        const auto of = fieldInt(*numbers, "output_feature_dimension");
        const Attribute* is = numbers->field("input_spatial_dimensions");
        const Attribute* ks = numbers->field("kernel_spatial_dimensions");
        const Attribute* os = numbers->field("output_spatial_dimensions");
        if (!ib || !ifd || !ki || !ko || !ob || !of || !is || !ks || !os)
            return std::nullopt;
        const auto isv = intList(*is), ksv = intList(*ks), osv = intList(*os);
        if (!isv || !ksv || !osv)
            return std::nullopt;
        result.inputBatch = *ib;
        result.inputFeature = *ifd;
        result.kernelInputFeature = *ki;
        result.kernelOutputFeature = *ko;
        result.outputBatch = *ob;
        result.outputFeature = *of;
        result.inputSpatial = *isv;
        result.kernelSpatial = *ksv;
        result.outputSpatial = *osv;
    } else { // [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]
        std::vector<std::string> input, kernel, output;
        std::size_t pos = 0;
        if (!readLayoutGroup(numbers->body, pos, input) || !readLayoutGroup(numbers->body, pos, kernel)
            || !readLayoutGroup(numbers->body, pos, output))
            return std::nullopt;
        if (!assignLayout(input, 'b', 'f', result.inputBatch, result.inputFeature, result.inputSpatial)
            || !assignLayout(
                kernel, 'i', 'o', result.kernelInputFeature, result.kernelOutputFeature, result.kernelSpatial)
            || !assignLayout(output, 'b', 'f', result.outputBatch, result.outputFeature, result.outputSpatial))
            return std::nullopt;
    }
    const std::size_t spatial = result.inputSpatial.size();
    result.strides = listOr(op, "window_strides", spatial, 1);
    result.lhsDilation = listOr(op, "lhs_dilation", spatial, 1);
    result.rhsDilation = listOr(op, "rhs_dilation", spatial, 1);
    result.padding.assign(spatial, { 0, 0 });
    if (const Attribute* padding = op.attribute("padding")) {
        std::vector<std::int64_t> flat;
        if (padding->kind == Attribute::Kind::Array) {
            for (const Attribute& pair : padding->items) {
                const auto values = intList(pair);
                if (!values || values->size() != 2)
                    return std::nullopt;
                flat.insert(flat.end(), values->begin(), values->end());
            }
        } else if (const auto values = intList(*padding)) {
            flat = *values;
        } else {
            return std::nullopt;
        }
        if (flat.empty()) // `pad = []`
            flat.assign(spatial * 2, 0);
        if (flat.size() == 1)
            flat.assign(spatial * 2, flat.front());
        if (flat.size() != spatial * 2)
            return std::nullopt;
        for (std::size_t i = 0; i < spatial; ++i)
            result.padding[i] = { flat[2 * i], flat[2 * i + 1] };
    }
    result.featureGroupCount = intValue(op, "feature_group_count").value_or(1);
    result.batchGroupCount = intValue(op, "batch_group_count").value_or(1);
    return result;
}

std::optional<std::vector<std::vector<std::int64_t>>> replicaGroups(const Op& op, const Module& module)
{
    const Attribute* groups = op.attribute("replica_groups");
    if (!groups)
        return std::nullopt;
    if (groups->kind == Attribute::Kind::Dialect)
        return groups->text == "stablehlo.replica_group_mesh_axes" ? meshAxisGroups(*groups, module) : std::nullopt;
    std::vector<std::vector<std::int64_t>> result;
    if (groups->kind == Attribute::Kind::Array) {
        for (const Attribute& row : groups->items) {
            const auto values = intList(row);
            if (!values)
                return std::nullopt;
            result.push_back(*values);
        }
    } else if (groups->kind == Attribute::Kind::Dense) {
        const std::vector<std::int64_t>& dims = groups->type.dims;
        if (groups->denseSplat && groups->denseInts.size() == 1) {
            const std::int64_t value = groups->denseInts.front();
            if (dims.size() == 2 && dims[0] >= 0 && dims[1] >= 0 && dims[0] * dims[1] <= 4096)
                result.assign(std::size_t(dims[0]), std::vector<std::int64_t>(std::size_t(dims[1]), value));
            else
                result.push_back({ value });
        } else {
            if (dims.size() != 2 || std::int64_t(groups->denseInts.size()) != dims[0] * dims[1])
                return std::nullopt;
            for (std::int64_t g = 0; g < dims[0]; ++g)
                result.emplace_back(
                    groups->denseInts.begin() + g * dims[1], groups->denseInts.begin() + (g + 1) * dims[1]);
        }
    } else {
        return std::nullopt;
    }
    for (auto& group : result)
        group.erase(std::remove(group.begin(), group.end(), -1), group.end());
    result.erase(std::remove_if(result.begin(), result.end(), [](const auto& g) { return g.empty(); }), result.end());
    return result;
}

std::vector<std::pair<std::int64_t, std::int64_t>> sourceTargetPairs(const Op& op)
{
    std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
    const Attribute* attribute = op.attribute("source_target_pairs");
    if (!attribute)
        return pairs;
    const auto values = intList(*attribute);
    if (!values || values->size() % 2 != 0)
        return pairs;
    for (std::size_t i = 0; i + 1 < values->size(); i += 2)
        pairs.emplace_back((*values)[i], (*values)[i + 1]);
    return pairs;
}

std::optional<std::string> calleeOf(const Op& op)
{
    auto symbol = [&](std::string_view name) -> std::optional<std::string> {
        const Attribute* attribute = op.attribute(name);
        if (attribute && attribute->kind == Attribute::Kind::Symbol)
            return attribute->text;
        return std::nullopt;
    };
    if (op.name.ends_with(".composite"))
        return symbol("decomposition");
    if (op.name.ends_with(".custom_call")) {
        const Attribute* called = op.attribute("called_computations");
        if (called && called->kind == Attribute::Kind::Array && !called->items.empty()
            && called->items.front().kind == Attribute::Kind::Symbol)
            return called->items.front().text;
        return std::nullopt;
    }
    return symbol("callee");
}

std::optional<std::string> customCallTarget(const Op& op)
{
    const Attribute* target = op.attribute("call_target_name");
    if (!target || (target->kind != Attribute::Kind::String && target->kind != Attribute::Kind::Symbol))
        return std::nullopt;
    return target->text;
}

std::optional<std::int64_t> constantInteger(const Op& op)
{
    if (!op.name.ends_with("constant"))
        return std::nullopt;
    const Attribute* value = op.attribute("value");
    if (!value)
        return std::nullopt;
    if (value->kind == Attribute::Kind::Integer)
        return value->intValue;
    if (value->kind != Attribute::Kind::Dense || value->denseInts.size() != 1)
        return std::nullopt;
    if (value->denseSplat || elementCount(value->type) == 1)
        return value->denseInts.front();
    return std::nullopt;
}

std::optional<std::string> comparisonDirection(const Op& op)
{
    const Attribute* direction = op.attribute("comparison_direction");
    if (!direction)
        return std::nullopt;
    if (direction->kind == Attribute::Kind::Enum)
        return direction->text;
    if (direction->kind == Attribute::Kind::Dialect) { // #stablehlo<comparison_direction LT>
        const std::string_view body = direction->body;
        const std::size_t space = body.find_last_of(' ');
        if (space != std::string_view::npos
            && body.substr(0, space).find("comparison_direction") != std::string_view::npos)
            return std::string(body.substr(space + 1));
    }
    return std::nullopt;
}

} // namespace elk::hlo
