// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
// elk_write_sample_models DIR: writes DIR/<model>-<phase>.onnx for every bundled model and phase from
// the transformer builder (engine/import/transformer_builder.h). Run through the CMake target
// elk_regenerate_sample_models; tst_bundled_models fails while the committed files differ.
#include "engine/import/onnx_summary.h"
#include "engine/import/transformer_builder.h"

#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::cerr << "usage: elk_write_sample_models OUTPUT_DIR\n";
        return 2;
    }
    const std::string dir = argv[1];
    int written = 0;
    for (const auto& name : elk::import::bundledModelNames()) {
        const auto config = elk::import::bundledModelConfig(name);
        for (const auto phase : elk::import::supportedPhases(*config)) {
            const std::string bytes = elk::import::buildTransformerOnnx(*config, phase);
            const std::string path = dir + "/" + name + "-" + elk::import::toString(phase) + ".onnx";
            std::ifstream existing(path, std::ios::binary);
            const std::string old { std::istreambuf_iterator<char>(existing), std::istreambuf_iterator<char>() };
            const auto summary = elk::import::summarizeOnnx(bytes);
            std::cout << path << ": " << bytes.size() << " bytes, " << summary.nodes << " nodes, "
                      << summary.externalInitializers << " external initializers";
            if (old == bytes) {
                std::cout << " (unchanged)\n";
                continue;
            }
            std::ofstream out(path, std::ios::binary | std::ios::trunc);
            out.write(bytes.data(), std::streamsize(bytes.size()));
            if (!out) {
                std::cerr << "\n" << path << ": cannot write\n";
                return 1;
            }
            std::cout << " (written)\n";
            ++written;
        }
    }
    std::cout << written << " file(s) written\n";
    return 0;
}
