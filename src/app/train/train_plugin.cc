#include "app/train/train_plugin.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <filesystem>

#include "common/error.h"

namespace trainbench::app {

train::TrainFunction LoadTrainPlugin() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  const fs::path plugin = (ec ? fs::path(".") : self.parent_path()) / TRAINBENCH_TRAIN_PLUGIN;
#if defined(TRAINBENCH_TRAIN_PLUGIN_TARGET)
  if (!fs::exists(plugin))
    throw RuntimeError(fmt::format(
        "`trainbench train` needs LibTorch through its plugin {}, which this build can make but "
        "has not (scripts/main.sh builds the binary alone): cmake --build {} --target "
        "trainbench_train",
        plugin.string(), (ec ? fs::path(".") : self.parent_path()).string()));
#endif
  if (!fs::exists(plugin))
    throw RuntimeError(fmt::format(
        "`trainbench train` needs LibTorch, and this build has none ({} is not beside the binary). "
        "Install PyPI's torch into .venv (`bash scripts/setup_python.sh`, as requirements.txt "
        "pins it) and rebuild (`bash scripts/build.sh`); on a GPU machine build against its "
        "PyTorch: cmake -S . -B build "
        "-DCMAKE_PREFIX_PATH=$(python3 -c \"import torch;print(torch.utils.cmake_prefix_path)\")",
        plugin.string()));
  // RTLD_LOCAL keeps LibTorch's symbols out of the global namespace; the plugin carries its
  // own copy of the core library.
  void* handle = ::dlopen(plugin.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr)
    throw RuntimeError(
        fmt::format("cannot load {}: {}; is LibTorch installed where it was built against?",
                    plugin.string(), ::dlerror()));
  using Entry = train::TrainFunction (*)();
  auto entry = reinterpret_cast<Entry>(::dlsym(handle, "TrainbenchTrainEntry"));
  if (entry == nullptr)
    throw RuntimeError(fmt::format("{} has no TrainbenchTrainEntry: rebuild", plugin.string()));
  return entry();  // the handle stays open for the life of the process
}

}  // namespace trainbench::app
