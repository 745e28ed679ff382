// Loads `trainbench train`'s LibTorch code, libtrainbench_train.so, from beside the binary.
// Throws RuntimeError saying how to get LibTorch when the plugin was not built, and the
// loader's reason when it exists but cannot load (a LibTorch library missing at run time).
#pragma once

#include "train/trainer.h"

namespace trainbench::app {

train::TrainFunction LoadTrainPlugin();

}  // namespace trainbench::app
