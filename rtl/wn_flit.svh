// wormnet flit layout: the single source of truth. CMake turns these `define
// lines into the C++ header wormnet/flit_layout.h (see rtl/README.md §1).
`ifndef WN_FLIT_SVH
`define WN_FLIT_SVH
`define WN_FLIT_W        64
`define WN_TYPE_LSB      0
`define WN_TYPE_W        2
`define WN_VC_LSB        2
`define WN_VC_W          2
`define WN_DEST_LSB      4
`define WN_DEST_W        12
`define WN_SRC_LSB       16
`define WN_SRC_W         12
`define WN_STEP_LSB      28
`define WN_STEP_W        8
`define WN_MSG_LSB       36
`define WN_MSG_W         28
`define WN_PAYLOAD_LSB   4
`define WN_PAYLOAD_W     60
// type bits: bit0 = head, bit1 = tail
`define WN_HEAD_BIT      0
`define WN_TAIL_BIT      1
`endif
