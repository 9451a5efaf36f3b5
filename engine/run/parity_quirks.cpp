// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/run/artifact_parity.h"

namespace elk::run {

const std::vector<std::string>& parityQuirkNames()
{
    static const std::vector<std::string> names = { "temporal-scramble", "hbm-mib-per-ms", "per-design-constants",
        "chooser-undercharge", "basic-preload-stretch" };
    return names;
}

bool setParityQuirk(ParityQuirks& quirks, std::string_view name, bool on)
{
    if (name == "temporal-scramble")
        quirks.scrambledTemporal = on;
    else if (name == "hbm-mib-per-ms")
        quirks.hbmGBpsAsMiBPerMs = on;
    else if (name == "per-design-constants")
        quirks.scheduler.perDesignConstants = on;
    else if (name == "chooser-undercharge")
        quirks.scheduler.chooserUnderchargesPreloads = on;
    else if (name == "basic-preload-stretch")
        quirks.scheduler.basicPreloadStretch = on;
    else
        return false;
    return true;
}

} // namespace elk::run
