# SPDX-License-Identifier: Apache-2.0
# Runs greslint on one example directory and requires the report to equal expected.txt.
execute_process(COMMAND ${GRESLINT} . --slurm-version 22.05 --color never
                WORKING_DIRECTORY ${EXAMPLE_DIR}
                OUTPUT_VARIABLE actual RESULT_VARIABLE rc)
file(READ ${EXAMPLE_DIR}/expected.txt expected)
if(NOT actual STREQUAL expected)
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/actual.txt "${actual}")
  message(FATAL_ERROR "greslint output for ${EXAMPLE_DIR} differs from expected.txt:\n${actual}")
endif()
if(EXAMPLE_DIR MATCHES "broken$")
  if(NOT rc EQUAL 1)
    message(FATAL_ERROR "the broken example must exit 1, got ${rc}")
  endif()
elseif(NOT rc EQUAL 0)
  message(FATAL_ERROR "a clean example must exit 0, got ${rc}")
endif()
