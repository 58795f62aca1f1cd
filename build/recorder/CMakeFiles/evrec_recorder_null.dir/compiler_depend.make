# Empty compiler generated dependencies file for evrec_recorder_null.
# This may be replaced when dependencies are built.
