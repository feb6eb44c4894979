# Changing the VC limit is one edit of rtl/wn_pkg.sv: the RTL and the C++ both follow it.
#   cmake -DSRC=<repository> -DOUT=<dir> -DVERILATOR=<bin> -DCXX=<compiler> [-DVCS=<n>]
#         -P testbench/tools/wn_pkg_one_edit.cmake
# Copies rtl/, sets max_vcs_gp = VCS in the copy's package (no edit without VCS), lints the copy with
# Verilator as the build verilates it, reads wn_router's elaborated default vcs_max_p, generates the
# C++ header from the same copy, and compiles the C++ limits and their checks against it: kMaxVcs
# must equal that default (and VCS). Used by the ctests wn_pkg_verilated_default and wn_pkg_one_edit.
cmake_minimum_required(VERSION 3.18)
include(${SRC}/cmake/wn_pkg.cmake)
file(REMOVE_RECURSE ${OUT})
file(GLOB sv ${SRC}/rtl/*.sv)
file(COPY ${sv} DESTINATION ${OUT}/rtl)
set(pkg ${OUT}/rtl/wn_pkg.sv)
if(DEFINED VCS)
  file(READ ${pkg} text)
  string(REGEX REPLACE "localparam int max_vcs_gp = [0-9]+;" "localparam int max_vcs_gp = ${VCS};" edited "${text}")
  if(edited STREQUAL text)
    message(FATAL_ERROR "rtl/wn_pkg.sv has no 'localparam int max_vcs_gp = N;' line to edit")
  endif()
  file(WRITE ${pkg} "${edited}")
endif()
file(GLOB rest ${OUT}/rtl/*.sv)
list(REMOVE_ITEM rest ${pkg})

# The RTL: lint as the build does, then the default Verilator elaborates for the top.
execute_process(COMMAND ${VERILATOR} --lint-only -Wall -Gports_p=4 --top-module wn_router ${pkg} ${rest}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the edited RTL does not lint:\n${err}")
endif()
execute_process(COMMAND ${VERILATOR} --xml-only --Mdir ${OUT}/xml -Gports_p=4 --top-module wn_router ${pkg} ${rest}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "verilator --xml-only failed:\n${err}")
endif()
file(READ ${OUT}/xml/Vwn_router.xml xml)
# From the top module on: its vcs_max_p comes first and carries the elaborated value.
string(FIND "${xml}" "name=\"wn_router\" origName=\"wn_router\" topModule=\"1\"" top)
if(top EQUAL -1)
  message(FATAL_ERROR "no top module wn_router in ${OUT}/xml/Vwn_router.xml")
endif()
string(SUBSTRING "${xml}" ${top} -1 xml)
string(REGEX MATCH "name=\"vcs_max_p\"[^>]*param=\"true\">[ \n]*<const [^>]*name=\"32&apos;sh([0-9a-f]+)\"" m "${xml}")
if(NOT m)
  message(FATAL_ERROR "no vcs_max_p value in ${OUT}/xml/Vwn_router.xml")
endif()
math(EXPR rtl_vcs "0x${CMAKE_MATCH_1}")

# The C++: the header generated from the same copy, the limits and every check on them.
wn_pkg_generate(${pkg} ${OUT}/generated)
set(expect "")
if(DEFINED VCS)
  set(expect "static_assert(wn::kMaxVcs == ${VCS}, \"kMaxVcs follows the edit\");\n")
endif()
file(WRITE ${OUT}/follow.cpp
  "#include \"systemc/router/model/router_model.h\"\n#include \"systemc/router/rtl/rtl_pkg_check.h\"\n"
  "static_assert(wn::kMaxVcs == ${rtl_vcs}, \"kMaxVcs equals the RTL's default vcs_max_p\");\n${expect}")
execute_process(COMMAND ${CXX} -std=c++17 -fsyntax-only -I${OUT}/generated -I${SRC} ${OUT}/follow.cpp
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the C++ does not follow rtl/wn_pkg.sv:\n${err}")
endif()
message(STATUS "wn_pkg: vcs_max_p = kMaxVcs = ${rtl_vcs}")
