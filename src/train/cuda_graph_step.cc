#include "train/cuda_graph_step.h"

#include "common/error.h"

#if defined(TRAINBENCH_TORCH_CUDA)
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>
#endif

namespace trainbench::train {

#if defined(TRAINBENCH_TORCH_CUDA)

namespace {

class CudaGraphStep : public GraphedStep {
 public:
  CudaGraphStep(TrainStep& step, const at::Tensor& images, const at::Tensor& labels,
                bool static_inputs)
      : images_(static_inputs ? images : images.clone()),
        labels_(static_inputs ? labels : labels.clone()) {
    // Capture on a side stream (the legacy default stream cannot be captured), after the
    // work queued so far, and make later work on the current stream wait for it.
    const c10::cuda::CUDAStream current = c10::cuda::getCurrentCUDAStream();
    const c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool();
    current.synchronize();
    {
      c10::cuda::CUDAStreamGuard guard(side);
      // Thread-local mode: the loader's threads may allocate pinned memory meanwhile.
      graph_.capture_begin({0, 0}, cudaStreamCaptureModeThreadLocal);
      loss_ = step.Run(images_, labels_);
      graph_.capture_end();
    }
    side.synchronize();
  }

  at::Tensor Run(const at::Tensor& images, const at::Tensor& labels) override {
    if (!images.is_same(images_)) images_.copy_(images, /*non_blocking=*/true);
    if (!labels.is_same(labels_)) labels_.copy_(labels, /*non_blocking=*/true);
    graph_.replay();
    return loss_;
  }

 private:
  at::Tensor images_, labels_, loss_;
  at::cuda::CUDAGraph graph_;
};

}  // namespace

bool CudaGraphsAvailable() { return true; }

std::unique_ptr<GraphedStep> CaptureStep(TrainStep& step, const at::Tensor& images,
                                         const at::Tensor& labels, bool static_inputs) {
  return std::make_unique<CudaGraphStep>(step, images, labels, static_inputs);
}

#else

bool CudaGraphsAvailable() { return false; }

std::unique_ptr<GraphedStep> CaptureStep(TrainStep&, const at::Tensor&, const at::Tensor&, bool) {
  throw UsageError("--cuda-graphs needs a LibTorch built with CUDA");
}

#endif

}  // namespace trainbench::train
