// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Device and system presets of the StableHLO flow (hlo-design §8): per-dtype dense peaks, memory,
// links, topology, each with its source. Built-ins live in resources/hlo/{devices,systems}/*.json
// (schemas "elk.hlo-device/1", "elk.hlo-system/1") compiled into the engine; users may pass a file.

#include "engine/chip/chip_spec.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace elk::hlo {

struct DevicePreset {
    std::string name; ///< "a100-sxm-40gb"
    std::string displayName; ///< "NVIDIA A100 SXM4 40 GB"
    /// Lineage, for speedups between generations: "NVIDIA", "AMD", "Google TPU"; empty: unknown.
    std::string vendor;
    int generation = 0; ///< place in the vendor's data-centre line, in release order (A100 1, H100 2, ...); 0: unknown
    /// Dense peak per element type, TFLOP/s (1e12 FLOP/s), keyed by MLIR spelling: "f64", "f32", "tf32",
    /// "bf16", "f16", "f8" (all f8E* types), "i8", "i32", ... Never sparse headline numbers.
    std::vector<std::pair<std::string, double>> peakTflopsByType;
    double fallbackTflops = 0; ///< for element types not listed (vector-unit f32 rate)
    bool f32MatmulUsesTf32 = false; ///< f32 dot_general/convolution run at the "tf32" peak
    double transcendentalTeraPerSecond = 0; ///< special-function rate; 0: count as fallback FLOPs
    double memoryBandwidthGBps = 0; ///< 1 GB = 1e9 bytes
    double memoryGB = 0;
    /// Achieved fraction of the peaks (1 = bare roofline). Fitted factors carry their provenance.
    double computeEfficiency = 1;
    double memoryEfficiency = 1;
    std::string efficiencyProvenance; ///< "" for unfitted; else what they were fitted on
    double kernelLaunchMicros = 0; ///< fixed cost per kernel
    std::string source; ///< where the numbers come from
};

enum class TopologyKind {
    AllToAll, ///< every device of a node reaches every other at the per-device link rate (NVLink switch, Infinity
              ///< Fabric)
    Torus2D, ///< TPU ICI: x × y torus, one link per direction per neighbour
};
const char* toString(TopologyKind kind);

struct SystemPreset {
    std::string name; ///< "4x-a100-sxm-40gb"
    std::string displayName;
    std::string device; ///< a DevicePreset name
    int devicesPerNode = 1;
    int nodes = 1;
    TopologyKind nodeTopology = TopologyKind::AllToAll;
    double linkGBpsPerDevice = 0; ///< intra-node bandwidth per device and direction, GB/s
    double linkLatencyMicros = 1; ///< per message step inside a node
    int torusX = 1, torusY = 1; ///< Torus2D: devicesPerNode = torusX × torusY
    // Inter-node network (nodes > 1): a dragonfly of routers; NIC bandwidth per node and per-hop latency.
    double nicGBpsPerNode = 0;
    double hopLatencyMicros = 0;
    int nodesPerRouter = 1;
    int routersPerGroup = 1;
    double globalLinkGBps = 0; ///< between dragonfly groups, per link (0: same as a NIC)
    std::string source;
    int deviceCount() const { return devicesPerNode * nodes; }
};

struct PresetError {
    std::string field; ///< JSON pointer, e.g. "/peakTflopsByType/bf16"
    std::string message;
};

struct DevicePresetResult {
    DevicePreset preset;
    std::vector<PresetError> errors;
    bool ok() const { return errors.empty(); }
};
struct SystemPresetResult {
    SystemPreset preset;
    std::vector<PresetError> errors;
    bool ok() const { return errors.empty(); }
};

std::vector<std::string> builtinDeviceNames(); ///< sorted
std::vector<std::string> builtinSystemNames(); ///< sorted
std::optional<DevicePreset> findDevicePreset(std::string_view name);
std::optional<SystemPreset> findSystemPreset(std::string_view name);

DevicePresetResult devicePresetFromJson(std::string_view jsonText);
SystemPresetResult systemPresetFromJson(std::string_view jsonText);
std::string devicePresetToJson(const DevicePreset& preset); ///< canonical (sorted keys, fixed number format)
std::string systemPresetToJson(const SystemPreset& preset);

/// A built-in name or a JSON file path; errors name the file and field.
DevicePresetResult resolveDevicePreset(const std::string& nameOrPath);
SystemPresetResult resolveSystemPreset(const std::string& nameOrPath);

/// Peak FLOP/s (not TFLOP/s) for an op of this element type; `matrixUnit` applies the TF32 rule.
double peakFlopsPerSecond(const DevicePreset& device, std::string_view elementType, bool matrixUnit);

/// SHA-256 hex of the canonical JSON: part of region cache keys.
std::string deviceHash(const DevicePreset& preset);

} // namespace elk::hlo
