// Plain CUDA-runtime copy benchmark: the reference `gpu-wizard verify`'s bandwidth layer is held to.
//
//   nvcc -O2 -arch=sm_90 -o cuda_copy_ref bench/cuda_copy_ref.cu && ./cuda_copy_ref [size_mib ...]
//
// For each size: host->device and device->host from pinned memory (cudaMallocHost), and
// device->device (cudaMemcpyAsync between two cudaMalloc buffers), timed with CUDA events around
// a run of copies after a warm-up; best of several runs. GB/s = 10^9 B/s. D2D counts bytes read
// plus bytes written (2 x size), as the verify probe does. Prints one JSON object per size and a
// summary line {"ref": "cuda_copy_ref", "h2d_pinned_gbps": best, "d2h_pinned_gbps": best, "d2d_gbps": best}.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
      exit(1);                                                                            \
    }                                                                                     \
  } while (0)

static double time_copies(void *dst, const void *src, size_t bytes, int reps, cudaMemcpyKind kind,
                          cudaStream_t s, int trials) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  CHECK(cudaMemcpyAsync(dst, src, bytes, kind, s));  // warm-up
  CHECK(cudaStreamSynchronize(s));
  double best = 0.0;
  for (int t = 0; t < trials; ++t) {
    CHECK(cudaEventRecord(a, s));
    for (int r = 0; r < reps; ++r) CHECK(cudaMemcpyAsync(dst, src, bytes, kind, s));
    CHECK(cudaEventRecord(b, s));
    CHECK(cudaEventSynchronize(b));
    float ms = 0.f;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    double gbps = (double)bytes * reps / (ms / 1e3) / 1e9;
    if (gbps > best) best = gbps;
  }
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  return best;
}

int main(int argc, char **argv) {
  double sizes_def[] = {16, 256, 1024};
  int nsizes = argc > 1 ? argc - 1 : 3;
  double *sizes = (double *)malloc(sizeof(double) * nsizes);
  for (int i = 0; i < nsizes; ++i) sizes[i] = argc > 1 ? atof(argv[i + 1]) : sizes_def[i];

  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  double best_h2d = 0, best_d2h = 0, best_d2d = 0;
  for (int i = 0; i < nsizes; ++i) {
    size_t bytes = (size_t)(sizes[i] * 1048576.0);
    void *h, *d1, *d2;
    CHECK(cudaMallocHost(&h, bytes));
    memset(h, 7, bytes);  // never time untouched or all-zero buffers
    CHECK(cudaMalloc(&d1, bytes));
    CHECK(cudaMalloc(&d2, bytes));
    CHECK(cudaMemcpy(d1, h, bytes, cudaMemcpyHostToDevice));
    int reps = (int)(4.0 * 1073741824.0 / bytes);
    if (reps < 2) reps = 2;
    if (reps > 500) reps = 500;
    double h2d = time_copies(d1, h, bytes, reps, cudaMemcpyHostToDevice, s, 5);
    double d2h = time_copies(h, d1, bytes, reps, cudaMemcpyDeviceToHost, s, 5);
    double d2d = 2.0 * time_copies(d2, d1, bytes, reps * 8 > 2000 ? 2000 : reps * 8, cudaMemcpyDeviceToDevice, s, 5);
    printf("{\"size_mib\": %g, \"h2d_pinned_gbps\": %.2f, \"d2h_pinned_gbps\": %.2f, \"d2d_gbps\": %.2f}\n",
           sizes[i], h2d, d2h, d2d);
    if (h2d > best_h2d) best_h2d = h2d;
    if (d2h > best_d2h) best_d2h = d2h;
    // D2D headline only from sizes well past the L2 cache, as the probe does
    if ((double)bytes >= 4.0 * p.l2CacheSize && d2d > best_d2d) best_d2d = d2d;
    CHECK(cudaFreeHost(h));
    CHECK(cudaFree(d1));
    CHECK(cudaFree(d2));
  }
  printf("{\"ref\": \"cuda_copy_ref\", \"device\": \"%s\", \"h2d_pinned_gbps\": %.2f, \"d2h_pinned_gbps\": %.2f, \"d2d_gbps\": %.2f}\n",
         p.name, best_h2d, best_d2h, best_d2d);
  CHECK(cudaStreamDestroy(s));
  free(sizes);
  return 0;
}
