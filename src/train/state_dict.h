// Saves a model's parameters and buffers as a state dict in PyTorch's own file format
// (torch::pickle_save's zip of pickled tensors, the dict untagged), so Python's torch.load reads
// it, with weights_only=True as PyTorch 2.6+ does by default, and
// torchvision.models.resnet50().load_state_dict() accepts it, names and shapes included.
// Written to a temporary name and renamed: an interrupted save leaves no partial file.
// Not thread-safe with respect to the module being trained.
#pragma once

#include <ATen/core/Tensor.h>
#include <torch/nn/module.h>

#include <string>
#include <utility>
#include <vector>

namespace trainbench::train {

void SaveStateDict(const torch::nn::Module& module, const std::string& path);

// Reads a file SaveStateDict (or Python's torch.save of a dict of tensors) wrote.
std::vector<std::pair<std::string, at::Tensor>> LoadStateDict(const std::string& path);

}  // namespace trainbench::train
