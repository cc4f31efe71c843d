// The reference a burn-in's rates are held to: cuBLAS matrix products held for a while in each
// precision (as gpu-burn does), and a STREAM-style triad kernel, written plainly in CUDA C.
//
//   nvcc -O3 -arch=sm_90 -o cuda_burn_ref bench/cuda_burn_ref.cu -lcublas && ./cuda_burn_ref [seconds] [n] [triad_mib]
//
// Matrix products: n x n x n (default 8192), random inputs in [-1, 1), cublasGemmEx with fp32
// accumulation: bf16 (CUDA_R_16BF), fp16 (CUDA_R_16F), tf32 (CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32)
// and fp32 (CUBLAS_COMPUTE_32F). Each precision runs for `seconds` (default 20) in chunks of about
// 0.25 s timed with CUDA events; the rate is the median chunk, TFLOP/s = 2 n^3 / time / 1e12.
// Triad: a[i] = b[i] + 3 c[i] over float arrays of triad_mib MiB each (default 2048), float4 loads,
// one per thread over the whole array (and, for comparison, 8 blocks per SM striding over it);
// GB/s = 3 x array bytes / time / 1e9 (two reads, one write), median of chunks. Copy:
// cudaMemcpyAsync device to device over the same arrays, GB/s = 2 x bytes / time (a read, a write).
// Prints one JSON object per figure and a summary {"ref": "cuda_burn_ref", "tflops": {...}, "triad_gbps": x}.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <vector>

#define CHECK(call)                                                                           \
  do {                                                                                        \
    cudaError_t e_ = (call);                                                                  \
    if (e_ != cudaSuccess) {                                                                  \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));  \
      exit(1);                                                                                \
    }                                                                                         \
  } while (0)
#define CHECK_BLAS(call)                                                            \
  do {                                                                              \
    cublasStatus_t s_ = (call);                                                     \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                              \
      fprintf(stderr, "%s:%d: %s: cuBLAS status %d\n", __FILE__, __LINE__, #call, (int)s_); \
      exit(1);                                                                      \
    }                                                                               \
  } while (0)

__device__ float hash_unit(size_t i, unsigned seed) {
  unsigned x = (unsigned)(i * 2654435761u) ^ seed;
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return (x & 0xffffff) / 8388608.0f - 1.0f;  // [-1, 1)
}

template <typename T> __device__ T from_float(float v);
template <> __device__ float from_float<float>(float v) { return v; }
template <> __device__ __half from_float<__half>(float v) { return __float2half(v); }
template <> __device__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) { return __float2bfloat16(v); }

template <typename T>
__global__ void fill_random(T *p, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    p[i] = from_float<T>(hash_unit(i, seed));
}

__global__ void triad(float4 *a, const float4 *b, const float4 *c, size_t n4, float s) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x) {
    float4 x = b[i], y = c[i];
    a[i] = make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w);
  }
}

static double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Runs `work(reps)` in timed chunks for about `seconds`; returns the median of amount*reps/time.
template <typename F>
static double sustain(F work, double amount, double seconds, double scale) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  work(2);  // warm-up
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaEventRecord(a));
  work(1);
  CHECK(cudaEventRecord(b));
  CHECK(cudaEventSynchronize(b));
  float ms = 0.f;
  CHECK(cudaEventElapsedTime(&ms, a, b));
  int reps = std::max(1, (int)(250.0 / std::max(ms, 1e-3f)));
  std::vector<double> rates;
  double spent = 0.0;
  while (spent < seconds) {
    CHECK(cudaEventRecord(a));
    work(reps);
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    CHECK(cudaEventElapsedTime(&ms, a, b));
    spent += ms / 1e3;
    rates.push_back(amount * reps / (ms / 1e3) / scale);
  }
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  return median(rates);
}

struct Gemm {
  const char *name;
  cudaDataType_t type;
  cublasComputeType_t compute;
  size_t elem;
};

int main(int argc, char **argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 20.0;
  int n = argc > 2 ? atoi(argv[2]) : 8192;
  double triad_mib = argc > 3 ? atof(argv[3]) : 2048.0;
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  cublasHandle_t h;
  CHECK_BLAS(cublasCreate(&h));
  Gemm gemms[] = {{"bf16", CUDA_R_16BF, CUBLAS_COMPUTE_32F, 2},
                  {"fp16", CUDA_R_16F, CUBLAS_COMPUTE_32F, 2},
                  {"tf32", CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 4},
                  {"fp32", CUDA_R_32F, CUBLAS_COMPUTE_32F, 4}};
  size_t nn = (size_t)n * n;
  void *A, *B, *C;
  CHECK(cudaMalloc(&A, nn * 4));
  CHECK(cudaMalloc(&B, nn * 4));
  CHECK(cudaMalloc(&C, nn * 4));
  char summary[1024];
  int off = snprintf(summary, sizeof summary, "{\"ref\": \"cuda_burn_ref\", \"gpu\": \"%s\", \"n\": %d, \"seconds\": %g, \"tflops\": {",
                     prop.name, n, seconds);
  for (int g = 0; g < 4; ++g) {
    Gemm m = gemms[g];
    if (m.elem == 2) {
      if (m.type == CUDA_R_16BF) {
        fill_random<<<1024, 256>>>((__nv_bfloat16 *)A, nn, 1u);
        fill_random<<<1024, 256>>>((__nv_bfloat16 *)B, nn, 2u);
      } else {
        fill_random<<<1024, 256>>>((__half *)A, nn, 1u);
        fill_random<<<1024, 256>>>((__half *)B, nn, 2u);
      }
    } else {
      fill_random<<<1024, 256>>>((float *)A, nn, 1u);
      fill_random<<<1024, 256>>>((float *)B, nn, 2u);
    }
    CHECK(cudaGetLastError());
    float alpha = 1.f, beta = 0.f;
    auto work = [&](int reps) {
      for (int r = 0; r < reps; ++r)
        CHECK_BLAS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, A, m.type, n, B, m.type, n, &beta, C,
                                m.type, n, m.compute, CUBLAS_GEMM_DEFAULT));
    };
    double tf = sustain(work, 2.0 * n * (double)n * n, seconds, 1e12);
    printf("{\"kind\": \"gemm\", \"dtype\": \"%s\", \"n\": %d, \"tflops\": %.2f}\n", m.name, n, tf);
    fflush(stdout);
    off += snprintf(summary + off, sizeof summary - off, "%s\"%s\": %.2f", g ? ", " : "", m.name, tf);
  }
  CHECK(cudaFree(A));
  CHECK(cudaFree(B));
  CHECK(cudaFree(C));
  size_t bytes = (size_t)(triad_mib * 1048576.0);
  size_t n4 = bytes / 16;
  float4 *a, *b, *c;
  CHECK(cudaMalloc(&a, n4 * 16));
  CHECK(cudaMalloc(&b, n4 * 16));
  CHECK(cudaMalloc(&c, n4 * 16));
  fill_random<<<1024, 256>>>((float *)b, n4 * 4, 3u);
  fill_random<<<1024, 256>>>((float *)c, n4 * 4, 4u);
  // The reference: one float4 per thread over the whole array (BabelStream's layout). A grid of 8 blocks per
  // SM striding over it keeps too few loads in flight on an H200 (about 5% slower: printed for comparison).
  unsigned full = (unsigned)((n4 + 255) / 256);
  auto tri = [&](int reps) {
    for (int r = 0; r < reps; ++r) triad<<<full, 256>>>(a, b, c, n4, 3.0f);
  };
  double gbps = sustain(tri, 3.0 * n4 * 16, seconds, 1e9);
  printf("{\"kind\": \"triad\", \"array_mib\": %g, \"gbps\": %.1f, \"blocks\": %u}\n", triad_mib, gbps, full);
  int strided = prop.multiProcessorCount * 8;
  auto tri_gs = [&](int reps) {
    for (int r = 0; r < reps; ++r) triad<<<strided, 256>>>(a, b, c, n4, 3.0f);
  };
  double gs_gbps = sustain(tri_gs, 3.0 * n4 * 16, seconds, 1e9);
  printf("{\"kind\": \"triad_gridstride\", \"array_mib\": %g, \"gbps\": %.1f, \"blocks\": %d}\n", triad_mib, gs_gbps, strided);
  auto copy = [&](int reps) {
    for (int r = 0; r < reps; ++r) CHECK(cudaMemcpyAsync(a, b, n4 * 16, cudaMemcpyDeviceToDevice));
  };
  double copy_gbps = sustain(copy, 2.0 * n4 * 16, seconds, 1e9);
  printf("{\"kind\": \"copy\", \"array_mib\": %g, \"gbps\": %.1f}\n", triad_mib, copy_gbps);
  snprintf(summary + off, sizeof summary - off, "}, \"triad_gbps\": %.1f, \"copy_gbps\": %.1f}", gbps, copy_gbps);
  printf("%s\n", summary);
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
  cublasDestroy(h);
  return 0;
}
