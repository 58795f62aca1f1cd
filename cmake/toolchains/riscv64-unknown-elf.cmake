# SPDX-License-Identifier: Apache-2.0
# Toolchain file for bare-metal RISC-V with riscv64-unknown-elf-gcc (RV32 and RV64, no libc).
#   cmake -S examples/firmware -B build-cross-rv32 \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/riscv64-unknown-elf.cmake -DEVREC_ARCH=rv32imac
# EVREC_ARCH: a -march base (rv32imac, rv64imac, rv32imc, ...); the ABI follows (ilp32/lp64).
# Compilation adds _zicsr (binutils >= 2.38 require it for CSR instructions); the link line
# repeats the plain -march last so that GCC 12 still picks the matching libgcc multilib.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv)
set(EVREC_ARCH "rv32imac" CACHE STRING "-march base for the RISC-V cross build")

find_program(CMAKE_C_COMPILER riscv64-unknown-elf-gcc REQUIRED)
find_program(CMAKE_ASM_COMPILER riscv64-unknown-elf-gcc REQUIRED)
find_program(CMAKE_SIZE riscv64-unknown-elf-size)
find_program(CMAKE_NM riscv64-unknown-elf-nm)
set(CMAKE_OBJCOPY riscv64-unknown-elf-objcopy CACHE FILEPATH "")

if(EVREC_ARCH MATCHES "^rv64")
  set(_evrec_abi lp64)
else()
  set(_evrec_abi ilp32)
endif()
if(EVREC_ARCH MATCHES "^rv32e")
  set(_evrec_abi ilp32e)
endif()
set(CMAKE_C_FLAGS_INIT "-march=${EVREC_ARCH}_zicsr -mabi=${_evrec_abi} -mcmodel=medany")
set(CMAKE_ASM_FLAGS_INIT "-march=${EVREC_ARCH}_zicsr -mabi=${_evrec_abi} -mcmodel=medany")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-march=${EVREC_ARCH} -nostdlib -nostartfiles")
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
