# Layer helpers. A layer is one folder of WN_LAYER_GRAPH compiled into one target, wn_<the
# folder's name>. Every target sees one include root, the repository (plus generated headers).

# The targets of DIR's direct dependencies in WN_LAYER_GRAPH, into OUT.
function(wn_layer_links dir out)
  set(found FALSE)
  set(targets "")
  foreach(e IN LISTS WN_LAYER_GRAPH)
    string(REGEX MATCH "^([^:]+):(.*)$" ok "${e}")
    if(CMAKE_MATCH_1 STREQUAL dir)
      set(found TRUE)
      string(REPLACE "," ";" deps "${CMAKE_MATCH_2}")
      foreach(d IN LISTS deps)
        get_filename_component(name ${d} NAME)
        list(APPEND targets wn_${name})
      endforeach()
    endif()
  endforeach()
  if(NOT found)
    message(FATAL_ERROR "${dir} is not a layer of WN_LAYER_GRAPH")
  endif()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

# Adds the .cpp files under DIR to TARGET (a folder nested in another layer's folder is not
# part of it: WN_LAYER_GRAPH has none today, and check_layers.cmake would report such a file twice).
function(wn_layer_sources target dir)
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/${dir}/*.cpp)
  target_sources(${target} PRIVATE ${srcs})
  target_include_directories(${target} PUBLIC ${CMAKE_SOURCE_DIR} ${WN_GEN_DIR})
endfunction()

# The include root of a layer: the repository and the generated headers in the build tree; the
# installed headers (cmake/install.cmake) keep the same paths under include/wormnet.
set(WN_INCLUDE_ROOTS $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}> $<BUILD_INTERFACE:${WN_GEN_DIR}>
    $<INSTALL_INTERFACE:include/wormnet>)

# wn_layer(TARGET DIR [EXTERNAL LIBRARIES...]): a static library of DIR's sources (an interface
# library when DIR has headers only), linked to the layers WN_LAYER_GRAPH gives DIR.
function(wn_layer target dir)
  get_filename_component(name ${dir} NAME)
  if(NOT target STREQUAL "wn_${name}")
    message(FATAL_ERROR "the layer ${dir} is the target wn_${name}, not ${target}")
  endif()
  wn_layer_links(${dir} layer_deps)
  set(libs ${ARGN} ${layer_deps})
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/${dir}/*.cpp)
  if(srcs)
    add_library(${target} STATIC ${srcs})
    target_include_directories(${target} PUBLIC ${WN_INCLUDE_ROOTS})
    target_link_libraries(${target} PUBLIC ${libs})
  else()
    add_library(${target} INTERFACE)
    target_include_directories(${target} INTERFACE ${WN_INCLUDE_ROOTS})
    target_link_libraries(${target} INTERFACE ${libs})
  endif()
  # Installed as wormnet::<folder name> (cmake/install.cmake).
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
endfunction()

# The layering check runs on every build and as the ctest case `layering`.
function(wn_layer_check)
  string(REPLACE ";" "|" graph "${WN_LAYER_GRAPH}")
  set(cmd ${CMAKE_COMMAND} -DROOT=${CMAKE_SOURCE_DIR} "-DGRAPH=${graph}"
          -P ${CMAKE_SOURCE_DIR}/cmake/check_layers.cmake)
  add_custom_target(layer_check ALL COMMAND ${cmd} COMMENT "Checking includes against the layer graph" VERBATIM)
  add_test(NAME layering COMMAND ${cmd})
  # The check must be able to fail: fixture trees checked against the same graph, where a low
  # layer includes a higher one, a family includes the co-simulation (algorithms does not reach
  # systemc/cosim, though cosim is listed below it) and a family includes another family.
  set(fixture ${CMAKE_SOURCE_DIR}/testbench/layering_fixture)
  foreach(case upward family_cosim family_family)
    add_test(NAME layering_detects_${case}
      COMMAND ${CMAKE_COMMAND} -DROOT=${fixture}/${case} "-DGRAPH=${graph}"
              -P ${CMAKE_SOURCE_DIR}/cmake/check_layers.cmake)
  endforeach()
  set_tests_properties(layering_detects_upward PROPERTIES PASS_REGULAR_EXPRESSION
    "systemc/topology/bad.h includes systemc/network/net.h: layer 'systemc/topology' may include only systemc/topology, systemc/core\n")
  set_tests_properties(layering_detects_family_cosim PROPERTIES PASS_REGULAR_EXPRESSION
    "algorithms/families/mine/mine.cpp includes systemc/cosim/cosim.h: layer 'algorithms'")
  set_tests_properties(layering_detects_family_family PROPERTIES PASS_REGULAR_EXPRESSION
    "algorithms/families/mine/mine.cpp includes algorithms/families/other/other.h: family 'mine' includes family 'other'")
endfunction()
