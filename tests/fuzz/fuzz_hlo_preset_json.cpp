// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// Device and system preset JSON of the StableHLO flow (--device FILE.json, --system FILE.json): both
// parsers on every input; a parsed preset writes back to the same text.
#include "engine/hlo/hlo_presets.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace elk::hlo;
    const std::string_view text = elk::fuzz::asText(data, size);
    const DevicePresetResult device = devicePresetFromJson(text);
    if (device.ok()) {
        const std::string written = devicePresetToJson(device.preset);
        const DevicePresetResult again = devicePresetFromJson(written);
        ELK_FUZZ_CHECK(again.ok() && devicePresetToJson(again.preset) == written, written);
    }
    const SystemPresetResult system = systemPresetFromJson(text);
    if (system.ok()) {
        const std::string written = systemPresetToJson(system.preset);
        const SystemPresetResult again = systemPresetFromJson(written);
        ELK_FUZZ_CHECK(again.ok() && systemPresetToJson(again.preset) == written, written);
    }
    return 0;
}
