# Empty dependencies file for evrec_port_posix.
# This may be replaced when dependencies are built.
