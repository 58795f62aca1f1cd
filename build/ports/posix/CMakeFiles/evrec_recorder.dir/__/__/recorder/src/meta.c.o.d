ports/posix/CMakeFiles/evrec_recorder.dir/__/__/recorder/src/meta.c.o: \
 /work/main/recorder/src/meta.c \
 /work/main/recorder/include/evrec/evrec_meta.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stddef.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stdint.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stdint-gcc.h \
 /work/main/recorder/include/evrec/evrec_status.h
