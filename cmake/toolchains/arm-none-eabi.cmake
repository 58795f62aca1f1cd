# SPDX-License-Identifier: Apache-2.0
# Toolchain file for Cortex-M with arm-none-eabi-gcc (bare metal, no OS).
#   cmake -S examples/firmware -B build-cross-m4 \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/arm-none-eabi.cmake -DEVREC_CPU=cortex-m4
# EVREC_CPU: a -mcpu value (cortex-m0plus, cortex-m3, cortex-m4, cortex-m33, ...). Code is
# Thumb with the soft-float ABI, so one image runs on every core of a family.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(EVREC_CPU "cortex-m4" CACHE STRING "-mcpu value for the Cortex-M cross build")

find_program(CMAKE_C_COMPILER arm-none-eabi-gcc REQUIRED)
find_program(CMAKE_ASM_COMPILER arm-none-eabi-gcc REQUIRED)
find_program(CMAKE_SIZE arm-none-eabi-size)
find_program(CMAKE_NM arm-none-eabi-nm)
set(CMAKE_OBJCOPY arm-none-eabi-objcopy CACHE FILEPATH "")

set(CMAKE_C_FLAGS_INIT "-mcpu=${EVREC_CPU} -mthumb -mfloat-abi=soft")
set(CMAKE_ASM_FLAGS_INIT "-mcpu=${EVREC_CPU} -mthumb -mfloat-abi=soft")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-nostdlib -nostartfiles")
# Compiler checks build a library, not an executable (there is no startup code yet).
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
