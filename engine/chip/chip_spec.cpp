// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/chip/chip_spec.h"

namespace elk::chip {

namespace {

    template <typename Enum, std::size_t N> std::optional<Enum> fromString(const Enum (&all)[N], std::string_view text)
    {
        for (Enum value : all) {
            if (text == toString(value))
                return value;
        }
        return std::nullopt;
    }

} // namespace

const char* toString(TileCostModelKind kind)
{
    switch (kind) {
    case TileCostModelKind::IpuMk2:
        return "ipu-mk2";
    case TileCostModelKind::Roofline:
        return "roofline";
    case TileCostModelKind::Fitted:
        return "fitted";
    }
    return "?";
}

const char* toString(Topology topology)
{
    switch (topology) {
    case Topology::AllToAll:
        return "all-to-all";
    case Topology::Mesh2d:
        return "mesh2d";
    }
    return "?";
}

const char* toString(ControllerPlacement placement)
{
    switch (placement) {
    case ControllerPlacement::Spread:
        return "spread";
    case ControllerPlacement::WestEdge:
        return "west-edge";
    case ControllerPlacement::WestEastEdges:
        return "west-east-edges";
    case ControllerPlacement::AllEdges:
        return "all-edges";
    case ControllerPlacement::Explicit:
        return "explicit";
    }
    return "?";
}

std::optional<TileCostModelKind> tileCostModelKindFromString(std::string_view text)
{
    return fromString(kAllTileCostModelKinds, text);
}

std::optional<Topology> topologyFromString(std::string_view text)
{
    return fromString(kAllTopologies, text);
}

std::optional<ControllerPlacement> controllerPlacementFromString(std::string_view text)
{
    return fromString(kAllControllerPlacements, text);
}

} // namespace elk::chip
