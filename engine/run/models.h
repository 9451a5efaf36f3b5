// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The engine facade for models: what the app, the CLI and the widgets may use of engine/model and
// engine/import. A front end includes this header, never those folders (check_layers.cmake refuses
// it).
//
// - run::loadModel / loadRunModel (model_load.h): any model file or bundled model, bound for a step,
//   validated; what a run loads;
// - the graph IR read-only: model::Graph, its roles and op kinds, GraphSummary / summarizeGraph,
//   GraphAnalysis / analyzeGraph, elk.graph/1 files (loadGraphFile, GraphParseError);
// - the front ends for `elk inspect`, which reports each importer's issues as it found them:
//   importOnnxFile / importOnnxBytes, importEinsteinFile, ImportResult / ImportIssue, DimBindings,
//   FreeDim; the bundled transformers (bundledModelNames, bundledModelConfig, buildTransformerOnnx).

#include "engine/import/einstein_importer.h"
#include "engine/import/import_result.h"
#include "engine/import/onnx_importer.h"
#include "engine/import/transformer_builder.h"
#include "engine/model/graph.h"
#include "engine/model/graph_analysis.h"
#include "engine/model/graph_json.h"
#include "engine/model/graph_summary.h"
#include "engine/run/model_load.h"
