// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The in-memory form of a StableHLO text module: functions, ops, types, attributes and regions,
// as written. The reader keeps every op it can parse (known or not); what an op costs is decided
// later (hlo_program.h). Values of dense constants are not materialised; shapes always are.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace elk::hlo {

struct SourceLocation {
    int line = 0; ///< 1-based; 0: unknown
    int column = 0; ///< 1-based
    bool operator==(const SourceLocation&) const = default;
};

inline constexpr std::int64_t kDynamicDim = -1; ///< a `?` dimension

enum class TypeKind {
    Tensor, ///< tensor<...>, scalars included (`tensor<f32>`); also a bare element type like `i32`
    Token, ///< !stablehlo.token
    Tuple, ///< tuple<...>
    Other, ///< anything else (index, !stablehlo.future<...>, unknown dialect types); `text` keeps it
};

struct Type {
    TypeKind kind = TypeKind::Tensor;
    std::vector<std::int64_t> dims; ///< kDynamicDim for `?`; empty for a scalar
    std::vector<std::int64_t> bounds; ///< per dim of a bounded dynamic tensor (kDynamicDim: none); usually empty
    /// Element type as spelled: "bf16", "f32", "i1", "ui8", "f8E4M3FN", "complex<f32>",
    /// "!quant.uniform<i8:f32, 2.0:15>" (quantized element types keep their text).
    std::string elementType;
    std::string encoding; ///< a tensor encoding other than bounds (e.g. "#CSR"); empty normally
    std::vector<Type> elements; ///< of a tuple
    std::string text; ///< TypeKind::Other: the whole type text
    bool operator==(const Type&) const = default;
};

bool isDynamic(const Type& type);
/// Bytes per element used for costing (import.md §4.2): i1/pred 1, i4/f4 0.5, f6 0.75, f8/i8 1,
/// bf16/f16 2, f32/i32 4, f64/i64 8, complex 2× its part, quantized: its storage type. 0 when unknown.
double elementBytes(std::string_view elementType);
/// Elements of a tensor (1 for a scalar); a dynamic dim counts as its bound if any, else 1.
/// Saturates at INT64_MAX instead of overflowing (absurd shapes are rejected by the reader).
std::int64_t elementCount(const Type& type);
/// Bytes of a tensor (tuples: sum of elements; token/other: 0).
double typeBytes(const Type& type);
/// MLIR spelling, e.g. "tensor<4x?xbf16>", "tuple<tensor<i32>>".
std::string toString(const Type& type);

struct Attribute {
    enum class Kind {
        Unit, ///< a bare name in a dictionary (`use_global_device_ids`)
        Bool,
        Integer, ///< `1 : i64`, `1`
        Float,
        String, ///< `text` holds the unescaped content
        Symbol, ///< `@name`; `text` holds the name without `@`
        Array, ///< `[a, b]` and `array<i64: 1, 2>`; `items`
        Dictionary, ///< `{a = 1, b}`; `fields`
        Dense, ///< dense<...>, dense_resource<...>; `type`, `denseSplat`, `denseInts` (when small and integral)
        Type, ///< a type used as an attribute; `type`
        Dialect, ///< `#dialect.name<body>` / `#dialect<body>`; `text` = "stablehlo.dot", `body` = raw text
                 ///< between the angle brackets, `fields` = its `key = value` pairs when it has that form
        Enum, ///< a bare keyword (DEFAULT, LT, FLOAT, ...); `text`
    };
    Kind kind = Kind::Unit;
    bool boolValue = false;
    std::int64_t intValue = 0;
    double floatValue = 0;
    std::string text;
    std::string body;
    Type type;
    bool denseSplat = false; ///< dense<x> with one value for the whole tensor
    std::vector<std::int64_t> denseInts; ///< values of an integral dense of ≤ 4096 elements (row-major)
    std::vector<Attribute> items;
    std::vector<std::pair<std::string, Attribute>> fields;

    // Defined where Attribute is complete: clang with libstdc++ rejects implicit ones that need
    // std::pair<std::string, Attribute> inside the class itself.
    Attribute();
    Attribute(const Attribute&);
    Attribute(Attribute&&) noexcept;
    Attribute& operator=(const Attribute&);
    Attribute& operator=(Attribute&&) noexcept;
    ~Attribute();

    const Attribute* field(std::string_view name) const;
};

using AttributeList = std::vector<std::pair<std::string, Attribute>>;
const Attribute* findAttribute(const AttributeList& list, std::string_view name);

using ValueId = std::uint32_t; ///< index into Module::values

struct Region;

struct Op {
    /// Full name with dialect: "stablehlo.add", "func.call" (also for a bare `call`), "func.return"
    /// (also for `return`), "stablehlo.return", "sdy.manual_computation", "chlo.top_k", "mhlo.fusion"...
    std::string name;
    std::vector<ValueId> operands;
    std::vector<ValueId> results;
    /// Declared types. The pretty form `: tensor<4xf32>` (one type for all) is expanded to one per
    /// operand and result.
    std::vector<Type> operandTypes;
    std::vector<Type> resultTypes;
    /// Properties `<{...}>` and attributes `{...}` together, in source order. Pretty forms are stored
    /// under their generic names (see hlo_attrs.h): dot_general's `contracting_dims = [1] x [0]` becomes
    /// `dot_dimension_numbers` (#stablehlo.dot), broadcast_in_dim's `dims` becomes
    /// `broadcast_dimensions`, reduce's `across dimensions` `dimensions`, call's callee `callee`, ...
    AttributeList attributes;
    std::vector<Region> regions;
    SourceLocation location; ///< of the op's first token (the result list or the name)

    const Attribute* attribute(std::string_view attributeName) const
    {
        return findAttribute(attributes, attributeName);
    }
};

struct Block {
    std::vector<ValueId> arguments;
    std::vector<Type> argumentTypes;
    std::vector<Op> ops;
};

struct Region {
    std::vector<Block> blocks;
};

struct Function {
    std::string name; ///< without '@'
    std::string visibility; ///< "public", "private" or empty
    std::vector<ValueId> arguments;
    std::vector<Type> argumentTypes;
    std::vector<AttributeList> argumentAttributes; ///< one per argument (may be empty lists)
    std::vector<Type> resultTypes;
    std::vector<AttributeList> resultAttributes; ///< one per result
    AttributeList attributes; ///< trailing `attributes {...}`
    Region body;
    SourceLocation location;
};

struct MeshAxis {
    std::string name;
    std::int64_t size = 1;
    bool operator==(const MeshAxis&) const = default;
};

struct Mesh {
    std::string name; ///< without '@'
    std::vector<MeshAxis> axes;
    std::vector<std::int64_t> deviceIds; ///< explicit `device_ids=[...]`, usually empty
    std::int64_t deviceCount() const;
};

struct Module {
    std::string name; ///< without '@'; empty for an anonymous module or bare functions
    std::string sourceName; ///< file name used in messages
    AttributeList attributes;
    std::vector<Function> functions;
    std::vector<Mesh> meshes; ///< sdy.mesh declarations
    std::vector<std::string> valueNames; ///< by ValueId, as written ("%arg0", "%0#1", "%iterArg_3")
    std::vector<Type> valueTypes; ///< by ValueId

    const Function* findFunction(std::string_view functionName) const;
    /// The program: `main`, else the only public function, else the first function.
    const Function* entry() const;
    const Mesh* findMesh(std::string_view meshName) const;
    /// mhlo.num_partitions × mhlo.num_replicas when present, else the largest mesh, else 1.
    std::int64_t declaredDeviceCount() const;
};

/// Where a `?` dimension without a bound appears: an op's operand or result, a block argument, or a
/// function's signature.
struct DynamicDimUse {
    SourceLocation location;
    std::string where; ///< "stablehlo.dot_general result 0 tensor<?x4096xf32>", "@main argument 0 ..."
};
/// Every unbounded `?` of the module, in source order (bounded ones cost at their bound).
std::vector<DynamicDimUse> unboundDynamicDims(const Module& module);
/// Gives every unbounded `?` the size `size`, everywhere it is written; returns how many it set.
std::int64_t bindDynamicDims(Module& module, std::int64_t size);

/// Calls `visit(op, depth)` for every op of the function, in source order, nested regions after
/// their parent op (depth 0 = the function body).
template <typename Visit> void forEachOp(const Region& region, Visit&& visit, int depth = 0)
{
    for (const Block& block : region.blocks)
        for (const Op& op : block.ops) {
            visit(op, depth);
            for (const Region& nested : op.regions)
                forEachOp(nested, visit, depth + 1);
        }
}

} // namespace elk::hlo
