# The C++ view of rtl/wn_pkg.sv, so that every limit, width and layout is written once.
#   wn_pkg_generate(<wn_pkg.sv> <dir>) writes <dir>/wormnet/wn_pkg.h (namespace wn::pkg) and
#   <dir>/wormnet/flit_layout.h (the wn::layout::WN_* names, aliases of wn::pkg).
#   cmake -DWN_PKG_SV=<wn_pkg.sv> -DWN_PKG_OUT=<dir> -P cmake/wn_pkg.cmake does the same (the
#   wn_pkg_* ctests translate edited copies of the package with it).
# The reader is strict on purpose: a line it does not understand would be a fact the C++ side
# silently lacks, so it stops with the line instead. It takes, one per line:
#   localparam int NAME = EXPR;            -> inline constexpr int NAME = EXPR;
#   typedef logic [EXPR-1:0] NAME;         -> inline constexpr int NAME_width = EXPR;
#   typedef struct packed { ... } NAME;    -> namespace NAME { M_lsb, M_width, M_count; bits }
#     with members  logic M;  logic [EXPR-1:0] M;  logic [EXPR-1:0][EXPR-1:0] M;
# EXPR: numbers, earlier localparams, + - * / ( ) and $clog2(), which the header defines.
# SystemVerilog and C++ agree on these for 32-bit ints (division truncates in both).
if(CMAKE_SCRIPT_MODE_FILE)
  cmake_minimum_required(VERSION 3.18)  # the project's policies (IN_LIST) in script mode too
endif()

function(_wn_pkg_fail file lineno line why)
  message(FATAL_ERROR "${file}:${lineno}: ${why}\n  ${line}\n"
                      "cmake/wn_pkg.cmake translates only the declarations its header lists.")
endfunction()

# Checks EXPR against the known names; sets <out> to its C++ spelling.
function(_wn_pkg_expr expr known file lineno line out)
  string(REPLACE "$clog2(" "(" bare "${expr}")
  string(REGEX REPLACE "[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[-+*/() ]" "" rest "${bare}")
  if(NOT rest STREQUAL "")
    _wn_pkg_fail("${file}" ${lineno} "${line}"
      "'${rest}' in '${expr}': only numbers, earlier localparams, + - * / ( ) and $clog2 are allowed")
  endif()
  string(REGEX MATCHALL "[A-Za-z_][A-Za-z0-9_]*" names "${bare}")
  foreach(n IN LISTS names)
    if(NOT n IN_LIST known)
      _wn_pkg_fail("${file}" ${lineno} "${line}" "'${n}' is not a localparam declared above it")
    endif()
  endforeach()
  string(REPLACE "$clog2(" "clog2(" cxx "${expr}")
  set(${out} "${cxx}" PARENT_SCOPE)
endfunction()

function(wn_pkg_generate sv dir)
  file(READ ${sv} text)
  get_filename_component(file ${sv} NAME)
  set(body "")
  set(known "")
  set(state before)  # before, package, struct, after
  set(lineno 0)
  # Line by line without CMake lists: SystemVerilog's ';' and '[' would split or merge them.
  while(NOT text STREQUAL "")
    string(FIND "${text}" "\n" nl)
    if(nl EQUAL -1)
      set(line "${text}")
      set(text "")
    else()
      string(SUBSTRING "${text}" 0 ${nl} line)
      math(EXPR nl "${nl} + 1")
      string(SUBSTRING "${text}" ${nl} -1 text)
    endif()
    math(EXPR lineno "${lineno} + 1")
    string(REGEX REPLACE "//.*$" "" code "${line}")
    string(STRIP "${code}" code)
    string(REGEX REPLACE "[ \t]+" " " code "${code}")
    set(ident "[a-z_][a-z0-9_]*")
    set(dim "\\[([^]:]+)-1:0\\]")
    if(code STREQUAL "")
      continue()
    elseif(state STREQUAL "before" AND code STREQUAL "package wn_pkg;")
      set(state package)
    elseif(state STREQUAL "package" AND code STREQUAL "endpackage")
      set(state after)
    elseif(state STREQUAL "package" AND code MATCHES "^localparam int (${ident}) = ([^;]+);$")
      set(name ${CMAKE_MATCH_1})
      _wn_pkg_expr("${CMAKE_MATCH_2}" "${known}" ${file} ${lineno} "${line}" cxx)
      string(APPEND body "inline constexpr int ${name} = ${cxx};\n")
      list(APPEND known ${name})
    elseif(state STREQUAL "package" AND code MATCHES "^typedef logic ${dim} (${ident});$")
      set(name ${CMAKE_MATCH_2})
      _wn_pkg_expr("${CMAKE_MATCH_1}" "${known}" ${file} ${lineno} "${line}" cxx)
      string(APPEND body "inline constexpr int ${name}_width = ${cxx};\n")
    elseif(state STREQUAL "package" AND code STREQUAL "typedef struct packed {")
      set(state struct)
      set(members "")
    elseif(state STREQUAL "struct" AND code MATCHES "^} (${ident});$")
      # SystemVerilog packs the first member highest: offsets run from the last one up.
      set(name ${CMAKE_MATCH_1})
      string(APPEND body "// typedef struct packed ${name}, the last member at bit 0; an element i of\n"
                         "// a member's packed array is at M_lsb + i * M_width.\nnamespace ${name} {\n")
      set(lsb 0)
      list(REVERSE members)
      foreach(m IN LISTS members)
        string(REPLACE "|" ";" parts "${m}")
        list(GET parts 0 mname)
        list(GET parts 1 count)
        list(GET parts 2 width)
        string(APPEND body "inline constexpr int ${mname}_lsb = ${lsb};\n"
                           "inline constexpr int ${mname}_width = ${width};\n"
                           "inline constexpr int ${mname}_count = ${count};\n")
        set(lsb "${mname}_lsb + ${mname}_count * ${mname}_width")
      endforeach()
      string(APPEND body "inline constexpr int bits = ${lsb};\n}  // namespace ${name}\n")
      set(state package)
    elseif(state STREQUAL "struct" AND code MATCHES "^logic (${ident});$")
      list(APPEND members "${CMAKE_MATCH_1}|1|1")
    elseif(state STREQUAL "struct" AND code MATCHES "^logic ${dim} (${ident});$")
      set(mname ${CMAKE_MATCH_2})
      _wn_pkg_expr("${CMAKE_MATCH_1}" "${known}" ${file} ${lineno} "${line}" w)
      list(APPEND members "${mname}|1|(${w})")
    elseif(state STREQUAL "struct" AND code MATCHES "^logic ${dim}${dim} (${ident});$")
      set(mname ${CMAKE_MATCH_3})
      set(inner "${CMAKE_MATCH_2}")
      _wn_pkg_expr("${CMAKE_MATCH_1}" "${known}" ${file} ${lineno} "${line}" n)
      _wn_pkg_expr("${inner}" "${known}" ${file} ${lineno} "${line}" w)
      list(APPEND members "${mname}|(${n})|(${w})")
    else()
      _wn_pkg_fail(${file} ${lineno} "${line}" "not a declaration this reader translates (state: ${state})")
    endif()
  endwhile()
  if(NOT state STREQUAL "after")
    message(FATAL_ERROR "${file}: no complete 'package wn_pkg; ... endpackage' (cmake/wn_pkg.cmake)")
  endif()
  file(WRITE ${dir}/wormnet/wn_pkg.h.tmp
    "// Generated by CMake (cmake/wn_pkg.cmake) from rtl/wn_pkg.sv. Do not edit.\n#pragma once\n"
    "namespace wn::pkg {\n// SystemVerilog's $clog2: the bits that index n values (0 for n <= 1).\n"
    "constexpr int clog2(long long n) {\n  int r = 0;\n  while ((1LL << r) < n) ++r;\n  return r;\n}\n"
    "${body}}  // namespace wn::pkg\n")
  configure_file(${dir}/wormnet/wn_pkg.h.tmp ${dir}/wormnet/wn_pkg.h COPYONLY)
  # The flit layout under the names C++ has always used.
  set(layout "")
  foreach(pair FLIT_W:flit_width TYPE_LSB:flit_type_lsb TYPE_W:flit_type_width VC_LSB:flit_vc_lsb
               VC_W:flit_vc_width DEST_LSB:flit_dest_lsb DEST_W:flit_dest_width SRC_LSB:flit_src_lsb
               SRC_W:flit_src_width STEP_LSB:flit_step_lsb STEP_W:flit_step_width MSG_LSB:flit_msg_lsb
               MSG_W:flit_msg_width PAYLOAD_LSB:flit_payload_lsb PAYLOAD_W:flit_payload_width
               HEAD_BIT:flit_head_bit TAIL_BIT:flit_tail_bit)
    string(REPLACE ":" ";" kv ${pair})
    list(GET kv 0 key)
    list(GET kv 1 value)
    if(NOT ${value}_gp IN_LIST known)
      message(FATAL_ERROR "${file}: the flit layout needs localparam ${value}_gp (cmake/wn_pkg.cmake)")
    endif()
    string(APPEND layout "inline constexpr int WN_${key} = pkg::${value}_gp;\n")
  endforeach()
  file(WRITE ${dir}/wormnet/flit_layout.h.tmp
    "// Generated by CMake (cmake/wn_pkg.cmake): the flit layout of rtl/wn_pkg.sv. Do not edit.\n"
    "#pragma once\n#include \"wormnet/wn_pkg.h\"\nnamespace wn::layout {\n${layout}}  // namespace wn::layout\n")
  configure_file(${dir}/wormnet/flit_layout.h.tmp ${dir}/wormnet/flit_layout.h COPYONLY)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND DEFINED WN_PKG_SV)
  wn_pkg_generate(${WN_PKG_SV} ${WN_PKG_OUT})
endif()
