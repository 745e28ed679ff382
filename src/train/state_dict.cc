#include "train/state_dict.h"

#include <fmt/format.h>
#include <torch/serialize.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "common/error.h"

namespace trainbench::train {

void SaveStateDict(const torch::nn::Module& module, const std::string& path) {
  c10::Dict<std::string, at::Tensor> dict;
  // Contiguous CPU copies: channels-last or CUDA tensors load anywhere this way.
  for (const auto& item : module.named_parameters(true))
    dict.insert(item.key(), item.value().detach().to(at::kCPU).contiguous());
  for (const auto& item : module.named_buffers(true))
    dict.insert(item.key(), item.value().detach().to(at::kCPU).contiguous());
  const std::vector<char> bytes = torch::pickle_save(dict);
  const std::string temp = path + ".partial";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      const int error = errno;
      std::filesystem::remove(temp);
      throw IoError(fmt::format("--save {}: cannot write: {}", path, std::strerror(error)), error);
    }
  }
  std::error_code ec;
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    std::filesystem::remove(temp);
    throw IoError(fmt::format("--save {}: cannot rename into place: {}", path, ec.message()),
                  ec.value());
  }
}

std::vector<std::pair<std::string, at::Tensor>> LoadStateDict(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError(fmt::format("{}: cannot open", path), errno);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  const auto value = torch::pickle_load(bytes);
  std::vector<std::pair<std::string, at::Tensor>> out;
  for (const auto& entry : value.toGenericDict())
    out.emplace_back(entry.key().toStringRef(), entry.value().toTensor());
  return out;
}

}  // namespace trainbench::train
