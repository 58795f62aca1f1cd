recorder/CMakeFiles/evrec_recorder_null.dir/src/crc32c.c.o: \
 /work/main/recorder/src/crc32c.c \
 /work/main/recorder/include/evrec/evrec_save.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stddef.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stdint.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stdint-gcc.h \
 /work/main/recorder/include/evrec/evrec_config.h \
 /work/main/recorder/include/evrec/evrec_meta.h \
 /work/main/recorder/include/evrec/evrec_status.h \
 /work/main/recorder/include/evrec/evrec_recorder.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stdatomic.h \
 /work/main/ports/null/include/evrec_port.h
