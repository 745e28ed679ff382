# LibTorch for `trainbench train`'s plugin (included by CMakeLists.txt). Sets
# TRAINBENCH_HAVE_TORCH, and with it TORCH_LIBRARIES, TORCH_INCLUDE_DIRS, TORCH_INSTALL_PREFIX and
# TRAINBENCH_TORCH_DEFINITIONS.
#
# LibTorch is the one inside PyPI's torch (pinned in requirements.txt), found the way LibTorch
# users find it: -DCMAKE_PREFIX_PATH=$(python -c 'import torch; print(torch.utils.cmake_prefix_path)')
# (scripts/build.sh passes the one of .venv/; a GPU host passes its own PyTorch's).
#
# PyPI's x86_64 torch is a CUDA build, and its TorchConfig.cmake ends the configure with a
# FATAL_ERROR, QUIET or not, when it finds no CUDA toolkit (nvcc), as on a CPU machine. There
# the plugin links LibTorch's CPU half, libtorch_cpu and libc10, with the same headers and the
# compile definitions torch_cpu's CMake target carries; it runs on the CPU (the CUDA runtime
# libtorch_cpu.so itself needs comes from the nvidia-* wheels beside torch). With a toolkit (a
# GPU host) TorchConfig.cmake is used as it is, and the plugin links torch_cuda too.
set(TRAINBENCH_HAVE_TORCH OFF)
set(TRAINBENCH_TORCH_DEFINITIONS "")
if(NOT TRAINBENCH_WITH_TORCH)
  return()
endif()

# The prefix path first: a Torch_DIR cached by an earlier configure (Debian's 1.13 until
# 2026-11) does not outlive the torch given now.
find_file(trainbench_torch_config TorchConfig.cmake HINTS ${CMAKE_PREFIX_PATH} ${Torch_DIR}
          PATH_SUFFIXES Torch NO_DEFAULT_PATH NO_CACHE)
set(trainbench_torch_cpu_half OFF)
if(trainbench_torch_config)
  get_filename_component(trainbench_torch_prefix "${trainbench_torch_config}/../../../.." ABSOLUTE)
  if(EXISTS "${trainbench_torch_prefix}/lib/libtorch_cuda.so")
    find_package(CUDAToolkit QUIET)
    if(NOT CUDAToolkit_FOUND)
      set(trainbench_torch_cpu_half ON)
    endif()
  endif()
endif()

if(trainbench_torch_cpu_half)
  set(TORCH_INSTALL_PREFIX "${trainbench_torch_prefix}")
  find_library(trainbench_torch_cpu torch_cpu PATHS "${TORCH_INSTALL_PREFIX}/lib" NO_DEFAULT_PATH
               NO_CACHE)
  find_library(trainbench_c10 c10 PATHS "${TORCH_INSTALL_PREFIX}/lib" NO_DEFAULT_PATH NO_CACHE)
  # torch_cpu's definitions (USE_DISTRIBUTED, USE_C10D_GLOO, ...) as its exported target has them:
  # c10d's headers declare nothing without them.
  file(READ "${trainbench_torch_prefix}/share/cmake/Caffe2/Caffe2Targets.cmake" targets)
  if(targets MATCHES "set_target_properties\\(torch_cpu PROPERTIES[^)]*INTERFACE_COMPILE_DEFINITIONS \"([^\"]*)\"")
    set(TRAINBENCH_TORCH_DEFINITIONS ${CMAKE_MATCH_1})
  endif()
  if(trainbench_torch_cpu AND trainbench_c10)
    set(TORCH_LIBRARIES ${trainbench_torch_cpu} ${trainbench_c10})
    set(TORCH_INCLUDE_DIRS "${TORCH_INSTALL_PREFIX}/include"
                           "${TORCH_INSTALL_PREFIX}/include/torch/csrc/api/include")
    set(TRAINBENCH_HAVE_TORCH ON)
    message(STATUS "trainbench: LibTorch ${TORCH_INSTALL_PREFIX} is a CUDA build and no CUDA "
                   "toolkit is here: the plugin links its CPU half (torch_cpu, c10)")
  endif()
else()
  if(trainbench_torch_config)
    get_filename_component(dir "${trainbench_torch_config}" DIRECTORY)
    set(Torch_DIR "${dir}" CACHE PATH "The directory containing TorchConfig.cmake" FORCE)
  endif()
  find_package(Torch QUIET)
  if(Torch_FOUND)
    set(TRAINBENCH_HAVE_TORCH ON)
  endif()
endif()

# The plugin uses LibTorch 2.4's APIs (autocast by device type, the CPU's AMP kernels, fused
# SGD, post-accumulate-grad hooks); an older LibTorch (Debian's 1.13) is skipped, saying so.
if(TRAINBENCH_HAVE_TORCH)
  # torch/headeronly/version.h since 2.9; torch/version.h before.
  find_file(trainbench_torch_version_h version.h PATHS ${TORCH_INCLUDE_DIRS}
            PATH_SUFFIXES torch/headeronly torch NO_DEFAULT_PATH NO_CACHE)
  file(STRINGS "${trainbench_torch_version_h}" trainbench_torch_version
       REGEX "#define TORCH_VERSION_(MAJOR|MINOR) ")
  string(REGEX REPLACE ".*MAJOR ([0-9]+).*MINOR ([0-9]+).*" "\\1.\\2" trainbench_torch_version
         "${trainbench_torch_version}")
  if(trainbench_torch_version VERSION_LESS 2.4)
    message(STATUS "trainbench: LibTorch ${trainbench_torch_version} at ${TORCH_INSTALL_PREFIX} is "
                   "older than 2.4, which `train` needs: no plugin (requirements.txt pins torch)")
    set(TRAINBENCH_HAVE_TORCH OFF)
  endif()
endif()
