# Empty dependencies file for evrec_recorder.
# This may be replaced when dependencies are built.
