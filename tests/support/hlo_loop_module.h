// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A StableHLO module with a while of 10 iterations around a 4 MiB all_reduce (1024 x 1024 f32) on
// groups [[0, 1], [2, 3]]: the loop case of the Chakra export tests (tst_hlo_chakra, and
// tst_chakra_feeder, which reads the export with Chakra's own feeder).
inline constexpr const char* kLoopAllReduceModule
    = R"(func.func @main(%arg0: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%iterArg = %c0, %iterArg_0 = %arg0) : tensor<i32>, tensor<1024x1024xf32>
   cond {
    %c = stablehlo.constant dense<10> : tensor<i32>
    %1 = stablehlo.compare  LT, %iterArg, %c,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.multiply %iterArg_0, %iterArg_0 : tensor<1024x1024xf32>
    %2 = "stablehlo.all_reduce"(%1) <{replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}> ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = stablehlo.add %x, %y : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %3 = stablehlo.add %iterArg, %c_1 : tensor<i32>
    stablehlo.return %3, %2 : tensor<i32>, tensor<1024x1024xf32>
  }
  return %0#1 : tensor<1024x1024xf32>
})";
