// The one symbol libtrainbench_train.so exports for the binary, which loads it with dlopen
// when `trainbench train` runs (see src/cli/train_plugin.h).
#include "train/trainer.h"

extern "C" __attribute__((visibility("default"))) trainbench::train::TrainFunction
TrainbenchTrainEntry() {
  return &trainbench::train::Train;
}
