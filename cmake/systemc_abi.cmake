# The C++ standard libsystemc was built with, as its headers check it: the library defines
# sc_core::sc_api_version_<version>_cxx<N>, and a translation unit that includes <systemc>
# references the one of its own SC_CPLUSPLUS. Read N from the library's dynamic symbols.
function(wn_systemc_cplusplus out)
  set(value "")
  find_program(WN_NM nm)
  find_library(WN_SYSTEMC_LIB NAMES systemc HINTS ${SYSTEMC_LIBRARY_DIRS})
  if(WN_NM AND WN_SYSTEMC_LIB)
    execute_process(COMMAND ${WN_NM} -D --defined-only ${WN_SYSTEMC_LIB} OUTPUT_VARIABLE syms ERROR_QUIET)
    string(REGEX MATCH "sc_api_version_[0-9_]+_cxx([0-9]+L)" found "${syms}")
    set(value ${CMAKE_MATCH_1})
  endif()
  if(NOT value)
    message(FATAL_ERROR "libsystemc: no sc_api_version_*_cxx<N> symbol found in '${WN_SYSTEMC_LIB}' (nm: '${WN_NM}'); "
                        "wormnet needs the C++ standard the library was built with")
  endif()
  if(NOT value STREQUAL "201703L")
    message(FATAL_ERROR "libsystemc was built as C++ ${value}; wormnet builds as C++17 (201703L) exactly")
  endif()
  set(${out} ${value} PARENT_SCOPE)
endfunction()
