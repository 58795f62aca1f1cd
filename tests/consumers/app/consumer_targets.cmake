# SPDX-License-Identifier: Apache-2.0
# The consumer's targets, the same in every way of taking evrec in (installed package,
# add_subdirectory, FetchContent): its generated event types, the recording app and a reader-only
# tool (evrec::reader alone: evrec_reader.h needs no port).
evrec_generate(consumer_events SCHEMA ${CMAKE_CURRENT_LIST_DIR}/consumer.yaml)
add_executable(consumer_app ${CMAKE_CURRENT_LIST_DIR}/consumer_app.c)
target_link_libraries(consumer_app PRIVATE consumer_events evrec::recorder evrec::port_posix)
target_compile_options(consumer_app PRIVATE -Wall -Wextra -Werror)
add_executable(consumer_reader ${CMAKE_CURRENT_LIST_DIR}/consumer_reader.c)
target_link_libraries(consumer_reader PRIVATE evrec::reader)
target_compile_options(consumer_reader PRIVATE -Wall -Wextra -Werror)
