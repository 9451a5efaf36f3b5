// fuzz_hlo_text found it: a transpose's permutation naming a dim its operand lacks, in a module
// not partitioned yet, read the operand's pieces past their end (heap-buffer-overflow).
module @m attributes {mhlo.num_partitions = 2 : i32} {
  func.func public @main(%arg0: tensor<4x8xf32> {mhlo.sharding = "{devices=[2,1]<=[2]}"}) -> tensor<8x4xf32> {
    %0 = stablehlo.transpose %arg0, dims = [1, 7] : (tensor<4x8xf32>) -> tensor<8x4xf32>
    return %0 : tensor<8x4xf32>
  }
}
