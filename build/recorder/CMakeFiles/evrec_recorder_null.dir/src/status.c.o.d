recorder/CMakeFiles/evrec_recorder_null.dir/src/status.c.o: \
 /work/main/recorder/src/status.c \
 /work/main/recorder/include/evrec/evrec_status.h
