// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/run/artifact_parity.h"

namespace elk::run {

const std::vector<std::string>& parityQuirkNames()
{
    static const std::vector<std::string> names = { "reload-earlier-activations", "drop-gatherv2", "capacity-split",
        "temporal-scramble", "hbm-mib-per-ms", "per-design-constants", "chooser-undercharge", "basic-preload-stretch" };
    return names;
}

namespace {

    /// The switch a name stands for, or null.
    bool* quirkField(ParityQuirks& quirks, std::string_view name)
    {
        if (name == "reload-earlier-activations")
            return &quirks.reloadEarlierActivations;
        if (name == "drop-gatherv2")
            return &quirks.dropGatherV2;
        if (name == "capacity-split")
            return &quirks.capacitySplit;
        if (name == "temporal-scramble")
            return &quirks.scrambledTemporal;
        if (name == "hbm-mib-per-ms")
            return &quirks.hbmGBpsAsMiBPerMs;
        if (name == "per-design-constants")
            return &quirks.scheduler.perDesignConstants;
        if (name == "chooser-undercharge")
            return &quirks.scheduler.chooserUnderchargesPreloads;
        if (name == "basic-preload-stretch")
            return &quirks.scheduler.basicPreloadStretch;
        return nullptr;
    }

} // namespace

bool setParityQuirk(ParityQuirks& quirks, std::string_view name, bool on)
{
    bool* field = quirkField(quirks, name);
    if (field != nullptr)
        *field = on;
    return field != nullptr;
}

std::optional<bool> parityQuirk(const ParityQuirks& quirks, std::string_view name)
{
    ParityQuirks copy = quirks;
    const bool* field = quirkField(copy, name);
    return field != nullptr ? std::optional<bool>(*field) : std::nullopt;
}

} // namespace elk::run
