# The native CPU backend (issue #8). Built by `npm install` (scripts/build-native.mjs runs node-gyp).
# Portable: the addon's own code is compiled for the x86-64 baseline; the AVX2 and AVX-512 kernel
# units are separate static libraries with their own flags, and cpu_features.cc picks one at run time
# (__builtin_cpu_supports), as PyTorch's DispatchStub picks DEFAULT/AVX2/AVX512. Never -march=native.
{
  "variables": {
    "gt_common_cflags": ["-std=c++17", "-O3", "-fPIC", "-fno-math-errno", "-ffp-contract=off", "-Wall", "-Wno-unused-function"],
  },
  "targets": [
    {
      "target_name": "gt_kernels_avx2",
      "type": "static_library",
      "sources": ["cpu/kernels_avx2.cc", "cpu/nn_kernels_avx2.cc",
        "cpu/gemm_avx2.cc",
        "cpu/pointwise_avx2.cc",
        "cpu/random_avx2.cc",
        "cpu/loss_avx2.cc",
        "cpu/depthwise_avx2.cc",
        "cpu/winograd_avx2.cc"],
      "cflags_cc": ["<@(gt_common_cflags)", "-mavx2", "-mfma"],
      "cflags_cc!": ["-fno-exceptions"],
    },
    {
      "target_name": "gt_kernels_avx512",
      "type": "static_library",
      "sources": ["cpu/kernels_avx512.cc", "cpu/nn_kernels_avx512.cc",
        "cpu/gemm_avx512.cc",
        "cpu/pointwise_avx512.cc",
        "cpu/random_avx512.cc",
        "cpu/loss_avx512.cc",
        "cpu/depthwise_avx512.cc",
        "cpu/winograd_avx512.cc"],
      "cflags_cc": ["<@(gt_common_cflags)", "-mavx2", "-mfma", "-mavx512f", "-mavx512dq", "-mavx512vl", "-mavx512bw", "-mprefer-vector-width=512"],
    },
    {
      "target_name": "glasstorch_cpu",
      "sources": ["cpu/addon.cc", "cpu/Allocator.cc", "cpu/ThreadPool.cc", "cpu/cpu_features.cc", "cpu/kernels_default.cc", "cpu/Loops.cc", "cpu/NN.cc", "cpu/nn_kernels_default.cc", "cpu/NNIndex.cc",
        "cpu/Gemm.cc", "cpu/gemm_default.cc", "cpu/Conv.cc", "cpu/depthwise_default.cc", "cpu/ConvWinograd.cc", "cpu/winograd_default.cc",
        "cpu/Pointwise.cc", "cpu/pointwise_default.cc", "cpu/Reductions.cc",
        "cpu/Random.cc", "cpu/random_default.cc",
        "cpu/Fill.cc",
        "cpu/Bmm.cc",
        "cpu/Ops2.cc",
        "cpu/AdvancedIndex.cc",
        "cpu/Sorting.cc",
        "cpu/Scan.cc",
        "cpu/Unique.cc",
        "cpu/Shape.cc",
        "cpu/Histogram.cc",
        "cpu/Bucketize.cc",
        "cpu/Loss.cc", "cpu/loss_default.cc",
        "cpu/Pooling.cc", "cpu/Im2Col.cc"],
      "dependencies": ["gt_kernels_avx2", "gt_kernels_avx512"],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")"],
      "defines": ["NAPI_VERSION=8", "NAPI_DISABLE_CPP_EXCEPTIONS", "NODE_ADDON_API_DISABLE_CPP_EXCEPTIONS"],
      "cflags_cc": ["<@(gt_common_cflags)"],
      "libraries": ["-lpthread"],
      # a system CBLAS found at configure time (scripts/detect-cblas.mjs): GT_HAVE_CBLAS, linked
      "conditions": [
        ["'<!(node ../scripts/detect-cblas.mjs)'=='openblas'", {"defines": ["GT_HAVE_CBLAS", "GT_HAVE_OPENBLAS"], "libraries": ["-lopenblas"]}],
        ["'<!(node ../scripts/detect-cblas.mjs)'=='cblas'", {"defines": ["GT_HAVE_CBLAS"], "libraries": ["-lcblas"]}],
      ],
    },
  ],
}
