#include "train/state_dict.h"

#include <caffe2/serialize/inline_container.h>
#include <fmt/format.h>
#include <torch/csrc/jit/serialization/export.h>
#include <torch/csrc/jit/serialization/pickler.h>
#include <torch/serialize.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "common/error.h"

namespace trainbench::train {

namespace {

// torch::pickle_save's zip (data.pkl and one record per tensor), with the dict left untagged:
// pickle_save tags a typed c10::Dict with torch.jit._pickle.restore_type_tag, which torch.load
// refuses by default since PyTorch 2.6 (weights_only=True accepts plain dicts of tensors).
std::vector<char> PickleUntagged(const c10::IValue& value) {
  std::vector<char> pickle;
  torch::jit::Pickler pickler(
      [&pickle](const char* data, size_t size) { pickle.insert(pickle.end(), data, data + size); },
      /*tensor_table=*/nullptr, /*type_renamer=*/nullptr, /*memoized_class_types=*/nullptr,
      /*get_tensor_id=*/nullptr, /*tag_aggregates=*/false);
  pickler.protocol();
  pickler.pushIValue(value);
  pickler.stop();
  std::vector<char> zip;
  caffe2::serialize::PyTorchStreamWriter writer([&zip](const void* data, size_t size) {
    const char* bytes = static_cast<const char*>(data);
    zip.insert(zip.end(), bytes, bytes + size);
    return size;
  });
  torch::jit::writeArchiveAndTensors("data", pickle.data(), pickle.size(), pickler.tensorData(),
                                     writer);
  writer.writeEndOfFile();
  return zip;
}

}  // namespace

void SaveStateDict(const torch::nn::Module& module, const std::string& path) {
  c10::Dict<std::string, at::Tensor> dict;
  // Contiguous CPU copies: channels-last or CUDA tensors load anywhere this way.
  for (const auto& item : module.named_parameters(true))
    dict.insert(item.key(), item.value().detach().to(at::kCPU).contiguous());
  for (const auto& item : module.named_buffers(true))
    dict.insert(item.key(), item.value().detach().to(at::kCPU).contiguous());
  const std::vector<char> bytes = PickleUntagged(dict);
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
