recorder/CMakeFiles/evrec_recorder_null.dir/src/runtime_enum.c.o: \
 /work/main/recorder/src/runtime_enum.c \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stdatomic.h \
 /work/main/recorder/include/evrec/evrec_meta.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stddef.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stdint.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stdint-gcc.h \
 /work/main/recorder/include/evrec/evrec_status.h
