ports/posix/CMakeFiles/evrec_recorder.dir/__/__/recorder/src/status.c.o: \
 /work/main/recorder/src/status.c \
 /work/main/recorder/include/evrec/evrec_status.h
