# Layer helpers. A layer is one folder (WN_LAYERS, lowest first) compiled into one target.
# Every target sees one include root, the repository (plus the generated flit layout).

# Adds the .cpp files under DIR to TARGET (a folder nested in another layer's folder is not
# part of it: WN_LAYERS has none today, and check_layers.cmake would report such a file twice).
function(wn_layer_sources target dir)
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/${dir}/*.cpp)
  target_sources(${target} PRIVATE ${srcs})
  target_include_directories(${target} PUBLIC ${CMAKE_SOURCE_DIR} ${WN_GEN_DIR})
endfunction()

# wn_layer(TARGET DIR [DEPENDENCIES...]): a static library of DIR's sources, or an interface
# library when DIR has headers only.
function(wn_layer target dir)
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/${dir}/*.cpp)
  if(srcs)
    add_library(${target} STATIC ${srcs})
    target_include_directories(${target} PUBLIC ${CMAKE_SOURCE_DIR} ${WN_GEN_DIR})
    target_link_libraries(${target} PUBLIC ${ARGN})
  else()
    add_library(${target} INTERFACE)
    target_include_directories(${target} INTERFACE ${CMAKE_SOURCE_DIR} ${WN_GEN_DIR})
    target_link_libraries(${target} INTERFACE ${ARGN})
  endif()
endfunction()

# The layering check runs on every build and as the ctest case `layering`.
function(wn_layer_check)
  string(REPLACE ";" "," layers "${WN_LAYERS}")
  set(cmd ${CMAKE_COMMAND} -DROOT=${CMAKE_SOURCE_DIR} -DLAYERS=${layers}
          -P ${CMAKE_SOURCE_DIR}/cmake/check_layers.cmake)
  add_custom_target(layer_check ALL COMMAND ${cmd} COMMENT "Checking that layers include only downward")
  add_test(NAME layering COMMAND ${cmd})
  # The check must be able to fail: a fixture tree where a low layer includes a high one.
  add_test(NAME layering_detects_upward_include
    COMMAND ${CMAKE_COMMAND} -DROOT=${CMAKE_SOURCE_DIR}/testbench/layering_fixture -DLAYERS=low,high
            -P ${CMAKE_SOURCE_DIR}/cmake/check_layers.cmake)
  set_tests_properties(layering_detects_upward_include PROPERTIES
    PASS_REGULAR_EXPRESSION "low/bad.h includes high/top.h: layer 'low'")
endfunction()
