recorder/CMakeFiles/evrec_recorder_null.dir/src/save.c.o: \
 /work/main/recorder/src/save.c /usr/include/string.h \
 /usr/include/x86_64-linux-gnu/bits/libc-header-start.h \
 /usr/include/features.h /usr/include/features-time64.h \
 /usr/include/x86_64-linux-gnu/bits/wordsize.h \
 /usr/include/x86_64-linux-gnu/bits/timesize.h /usr/include/stdc-predef.h \
 /usr/include/x86_64-linux-gnu/sys/cdefs.h \
 /usr/include/x86_64-linux-gnu/bits/long-double.h \
 /usr/include/x86_64-linux-gnu/gnu/stubs.h \
 /usr/include/x86_64-linux-gnu/gnu/stubs-64.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stddef.h \
 /work/main/recorder/include/evrec/evrec_save.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stdint.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stdint-gcc.h \
 /work/main/recorder/include/evrec/evrec_config.h \
 /work/main/recorder/include/evrec/evrec_meta.h \
 /work/main/recorder/include/evrec/evrec_status.h \
 /work/main/recorder/include/evrec/evrec_recorder.h \
 /usr/lib/gcc/x86_64-linux-gnu/12/include/stdatomic.h \
 /work/main/ports/null/include/evrec_port.h
