// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/hlo/hlo_module.h"

#include <algorithm>
#include <charconv>
#include <limits>

namespace elk::hlo {

namespace {

    constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();

    std::int64_t saturatingMul(std::int64_t a, std::int64_t b)
    {
        if (a == 0 || b == 0)
            return 0;
        if (a > kInt64Max / b)
            return kInt64Max;
        return a * b;
    }

    std::int64_t saturatingAdd(std::int64_t a, std::int64_t b)
    {
        return a > kInt64Max - b ? kInt64Max : a + b;
    }

    // Bit width of "i8", "si16", "ui32"; 0 if `text` is not an integer type.
    int integerBits(std::string_view text)
    {
        if (text.starts_with("si") || text.starts_with("ui"))
            text.remove_prefix(2);
        else if (text.starts_with("i"))
            text.remove_prefix(1);
        else
            return 0;
        int bits = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), bits);
        if (ec != std::errc() || end != text.data() + text.size())
            return 0;
        return bits;
    }

    std::int64_t intProperty(const AttributeList& attributes, std::string_view name)
    {
        const Attribute* attribute = findAttribute(attributes, name);
        return attribute && attribute->kind == Attribute::Kind::Integer ? attribute->intValue : 0;
    }

} // namespace

bool isDynamic(const Type& type)
{
    if (type.kind == TypeKind::Tuple)
        return std::any_of(type.elements.begin(), type.elements.end(), [](const Type& t) { return isDynamic(t); });
    return type.kind == TypeKind::Tensor
        && std::find(type.dims.begin(), type.dims.end(), kDynamicDim) != type.dims.end();
}

double elementBytes(std::string_view elementType)
{
    if (elementType.starts_with("complex<") && elementType.back() == '>')
        return 2 * elementBytes(elementType.substr(8, elementType.size() - 9));
    if (elementType.starts_with("!quant.uniform<") || elementType.starts_with("!quant.calibrated<")
        || elementType.starts_with("!quant.any<")) {
        // The storage type comes first: `i8:f32, ...` or `i8<-127:127>:f32, ...`.
        std::string_view rest = elementType.substr(elementType.find('<') + 1);
        const std::size_t end = rest.find_first_of(":<,>");
        return elementBytes(rest.substr(0, end));
    }
    if (elementType == "i1" || elementType == "pred")
        return 1;
    if (const int bits = integerBits(elementType); bits > 0)
        return bits / 8.0;
    if (elementType == "index")
        return 8;
    if (elementType == "bf16" || elementType == "f16")
        return 2;
    if (elementType == "f32" || elementType == "tf32")
        return 4;
    if (elementType == "f64")
        return 8;
    if (elementType == "f80")
        return 10;
    if (elementType == "f128")
        return 16;
    if (elementType.starts_with("f8E"))
        return 1;
    if (elementType.starts_with("f6E"))
        return 0.75;
    if (elementType.starts_with("f4E"))
        return 0.5;
    return 0;
}

std::int64_t elementCount(const Type& type)
{
    if (type.kind == TypeKind::Tuple) {
        std::int64_t total = 0;
        for (const Type& element : type.elements)
            total = saturatingAdd(total, elementCount(element));
        return total;
    }
    if (type.kind != TypeKind::Tensor)
        return 0;
    std::int64_t count = 1;
    for (std::size_t i = 0; i < type.dims.size(); ++i) {
        std::int64_t dim = type.dims[i];
        if (dim == kDynamicDim)
            dim = (i < type.bounds.size() && type.bounds[i] != kDynamicDim) ? type.bounds[i] : 1;
        count = saturatingMul(count, std::max<std::int64_t>(dim, 0));
    }
    return count;
}

double typeBytes(const Type& type)
{
    switch (type.kind) {
    case TypeKind::Tensor:
        return double(elementCount(type)) * elementBytes(type.elementType);
    case TypeKind::Tuple: {
        double total = 0;
        for (const Type& element : type.elements)
            total += typeBytes(element);
        return total;
    }
    case TypeKind::Token:
    case TypeKind::Other:
        break;
    }
    return 0;
}

std::string toString(const Type& type)
{
    switch (type.kind) {
    case TypeKind::Token:
        return "!stablehlo.token";
    case TypeKind::Other:
        return type.text;
    case TypeKind::Tuple: {
        std::string out = "tuple<";
        for (std::size_t i = 0; i < type.elements.size(); ++i)
            out += (i ? ", " : "") + toString(type.elements[i]);
        return out + ">";
    }
    case TypeKind::Tensor:
        break;
    }
    std::string out = "tensor<";
    for (const std::int64_t dim : type.dims)
        out += (dim == kDynamicDim ? std::string("?") : std::to_string(dim)) + "x";
    out += type.elementType;
    if (!type.bounds.empty()) {
        out += ", #stablehlo.bounds<";
        for (std::size_t i = 0; i < type.bounds.size(); ++i)
            out += (i ? ", " : "")
                + (type.bounds[i] == kDynamicDim ? std::string("?") : std::to_string(type.bounds[i]));
        out += ">";
    }
    if (!type.encoding.empty())
        out += ", " + type.encoding;
    return out + ">";
}

Attribute::Attribute() = default;
Attribute::Attribute(const Attribute&) = default;
Attribute::Attribute(Attribute&&) noexcept = default;
Attribute& Attribute::operator=(const Attribute&) = default;
Attribute& Attribute::operator=(Attribute&&) noexcept = default;
Attribute::~Attribute() = default;

const Attribute* Attribute::field(std::string_view name) const
{
    return findAttribute(fields, name);
}

const Attribute* findAttribute(const AttributeList& list, std::string_view name)
{
    for (const auto& [key, value] : list)
        if (key == name)
            return &value;
    return nullptr;
}

std::int64_t Mesh::deviceCount() const
{
    if (!deviceIds.empty())
        return std::int64_t(deviceIds.size());
    std::int64_t count = 1;
    for (const MeshAxis& axis : axes)
        count = saturatingMul(count, std::max<std::int64_t>(axis.size, 1));
    return count;
}

const Function* Module::findFunction(std::string_view functionName) const
{
    for (const Function& function : functions)
        if (function.name == functionName)
            return &function;
    return nullptr;
}

const Function* Module::entry() const
{
    if (const Function* main = findFunction("main"))
        return main;
    const Function* onlyPublic = nullptr;
    int publicCount = 0;
    for (const Function& function : functions)
        if (function.visibility != "private") {
            ++publicCount;
            onlyPublic = &function;
        }
    if (publicCount == 1)
        return onlyPublic;
    return functions.empty() ? nullptr : &functions.front();
}

const Mesh* Module::findMesh(std::string_view meshName) const
{
    for (const Mesh& mesh : meshes)
        if (mesh.name == meshName)
            return &mesh;
    return nullptr;
}

std::int64_t Module::declaredDeviceCount() const
{
    const std::int64_t partitions = intProperty(attributes, "mhlo.num_partitions");
    const std::int64_t replicas = intProperty(attributes, "mhlo.num_replicas");
    if (partitions > 0 || replicas > 0)
        return saturatingMul(std::max<std::int64_t>(partitions, 1), std::max<std::int64_t>(replicas, 1));
    std::int64_t largest = 0;
    for (const Mesh& mesh : meshes)
        largest = std::max(largest, mesh.deviceCount());
    return largest > 0 ? largest : 1;
}

namespace {

    bool unboundDynamic(const Type& type)
    {
        if (type.kind == TypeKind::Tuple)
            return std::any_of(
                type.elements.begin(), type.elements.end(), [](const Type& t) { return unboundDynamic(t); });
        for (std::size_t i = 0; i < type.dims.size(); ++i) {
            if (type.dims[i] == kDynamicDim && !(i < type.bounds.size() && type.bounds[i] != kDynamicDim))
                return true;
        }
        return false;
    }

    std::int64_t bindType(Type& type, std::int64_t size)
    {
        std::int64_t set = 0;
        for (Type& element : type.elements)
            set += bindType(element, size);
        for (std::size_t i = 0; i < type.dims.size(); ++i) {
            if (type.dims[i] == kDynamicDim && !(i < type.bounds.size() && type.bounds[i] != kDynamicDim)) {
                type.dims[i] = size;
                ++set;
            }
        }
        return set;
    }

    void collectUses(const Region& region, std::vector<DynamicDimUse>& uses)
    {
        for (const Block& block : region.blocks) {
            for (std::size_t a = 0; a < block.argumentTypes.size(); ++a) {
                if (unboundDynamic(block.argumentTypes[a]))
                    uses.push_back({ block.ops.empty() ? SourceLocation {} : block.ops.front().location,
                        "block argument " + std::to_string(a) + " " + toString(block.argumentTypes[a]) });
            }
            for (const Op& op : block.ops) {
                for (std::size_t k = 0; k < op.operandTypes.size(); ++k) {
                    if (unboundDynamic(op.operandTypes[k]))
                        uses.push_back({ op.location,
                            op.name + " operand " + std::to_string(k) + " " + toString(op.operandTypes[k]) });
                }
                for (std::size_t k = 0; k < op.resultTypes.size(); ++k) {
                    if (unboundDynamic(op.resultTypes[k]))
                        uses.push_back({ op.location,
                            op.name + " result " + std::to_string(k) + " " + toString(op.resultTypes[k]) });
                }
                for (const Region& nested : op.regions)
                    collectUses(nested, uses);
            }
        }
    }

    std::int64_t bindRegion(Region& region, std::int64_t size)
    {
        std::int64_t set = 0;
        for (Block& block : region.blocks) {
            for (Type& type : block.argumentTypes)
                set += bindType(type, size);
            for (Op& op : block.ops) {
                for (Type& type : op.operandTypes)
                    set += bindType(type, size);
                for (Type& type : op.resultTypes)
                    set += bindType(type, size);
                for (Region& nested : op.regions)
                    set += bindRegion(nested, size);
            }
        }
        return set;
    }

} // namespace

std::vector<DynamicDimUse> unboundDynamicDims(const Module& module)
{
    std::vector<DynamicDimUse> uses;
    for (const Function& function : module.functions) {
        for (std::size_t a = 0; a < function.argumentTypes.size(); ++a) {
            if (unboundDynamic(function.argumentTypes[a]))
                uses.push_back({ function.location,
                    "@" + function.name + " argument " + std::to_string(a) + " "
                        + toString(function.argumentTypes[a]) });
        }
        for (std::size_t r = 0; r < function.resultTypes.size(); ++r) {
            if (unboundDynamic(function.resultTypes[r]))
                uses.push_back({ function.location,
                    "@" + function.name + " result " + std::to_string(r) + " " + toString(function.resultTypes[r]) });
        }
        collectUses(function.body, uses);
    }
    return uses;
}

std::int64_t bindDynamicDims(Module& module, std::int64_t size)
{
    std::int64_t set = 0;
    for (Function& function : module.functions) {
        for (Type& type : function.argumentTypes)
            set += bindType(type, size);
        for (Type& type : function.resultTypes)
            set += bindType(type, size);
        set += bindRegion(function.body, size);
    }
    for (Type& type : module.valueTypes)
        set += bindType(type, size);
    return set;
}

} // namespace elk::hlo
