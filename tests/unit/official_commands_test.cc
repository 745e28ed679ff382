// The command lines a sweep prints to confirm its answer with MLPerf Storage's tools: the
// accelerator type from the workload's name, the dataset MLPerf's rule sizes for the count.
#include "app/official_commands.h"

#include <gtest/gtest.h>

#include "config/workload_yaml.h"

namespace trainbench::app {
namespace {

TEST(OfficialCommands, NameTheModelTypeCountAndTheRulesDataset) {
  const auto c = config::LoadWorkload("unet3d_b200", {"dataset.data_folder=/mnt/fs/u"}).config;
  const auto o = OfficialCommandsFor(c, 12, {"a", "b"}, 256.0);
  const auto size = config::ComputeDataSize(c, 12, 2, 256.0);
  EXPECT_EQ(o.size.files, size.files);
  const std::string files = "dataset.num_files_train=" + std::to_string(size.files);
  EXPECT_NE(o.datasize.find("--model unet3d --accelerator-type b200 --num-accelerators 12 "
                            "--num-client-hosts 2 --client-host-memory-in-gb 256"),
            std::string::npos)
      << o.datasize;
  EXPECT_NE(o.datagen.find("--hosts a,b"), std::string::npos) << o.datagen;
  EXPECT_NE(o.datagen.find(files), std::string::npos) << o.datagen;
  EXPECT_NE(o.run.find("mlpstorage training run --hosts a,b --num-client-hosts 2"),
            std::string::npos)
      << o.run;
  EXPECT_NE(o.run.find("--data-dir /mnt/fs/u"), std::string::npos) << o.run;
  EXPECT_NE(o.dlio.find("mpirun -np 12 dlio_benchmark workload=unet3d_b200"), std::string::npos)
      << o.dlio;
  EXPECT_NE(o.dlio.find("++workload." + files), std::string::npos) << o.dlio;
}

TEST(OfficialCommands, AWorkloadWithoutATypeSuffixKeepsItsModel) {
  auto c = config::LoadWorkload("resnet50_h100", {}).config;
  c.workload_name = "my_own";
  const auto o = OfficialCommandsFor(c, 4, {"h"}, 64.0);
  EXPECT_NE(o.run.find("--model resnet50 --num-accelerators 4"), std::string::npos) << o.run;
  EXPECT_EQ(o.run.find("--accelerator-type"), std::string::npos) << o.run;
}

}  // namespace
}  // namespace trainbench::app
