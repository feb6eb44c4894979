# Schedule files (wormnet.schedule/1), included from testbench/CMakeLists.txt.
#   schedule_files_bad:  every malformed file of bad/cases.txt is refused by `run` and `check` with
#                        exit 2 and one line "error: FILE: JSON.PATH: what; allowed: ...".
#   schedule_files_good: the hand-written collectives of good/ pass on mesh, torus and hypercube,
#                        every port model and backend; the wrong one fails its data check, the
#                        conflicting one is found by `check` (and `check --simulate` agrees).
set(WN_SCHEDULE_FILES_DIR ${CMAKE_CURRENT_LIST_DIR})
add_test(NAME schedule_files_bad
  COMMAND bash ${WN_SCHEDULE_FILES_DIR}/check_bad.sh)
add_test(NAME schedule_files_good
  COMMAND bash ${WN_SCHEDULE_FILES_DIR}/check_good.sh)
set_tests_properties(schedule_files_bad schedule_files_good PROPERTIES
  ENVIRONMENT "WORMNET=$<TARGET_FILE:wormnet>"
  TIMEOUT 300)
