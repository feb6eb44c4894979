`include "wn_flit.svh"
// Synthesis top for area estimates (scripts/rtl_cost.sh, rtl/README.md §8):
// one router with its whole configuration fixed at elaboration, so synthesis
// removes what the configuration never uses: absent injection / ejection
// channels are not built, VCs and buffers are sized exactly, and the routing
// and allocation logic folds the constant kind / radix / VC count. The node
// address stays an input: one design serves every node of the network.
module wn_router_cost #(
  parameter int ports_p = 4,
  parameter int vcs_p = 2,
  parameter int buf_p = 4,
  parameter int inj_p = 1,
  parameter int ej_p = 1,
  parameter int kind_p = 0,             // 0 mesh, 1 torus, 2 cube (rtl/README.md §3)
  parameter int ndims_p = 2,
  parameter int k0_p = 8, k1_p = 8, k2_p = 1,
  parameter int w0_p = 3, w1_p = 3, w2_p = 0,
  parameter int flit_width_p = 64
) (
  input  logic clk_i,
  input  logic reset_i,
  input  logic [`WN_DEST_W-1:0]           addr_i,
  input  logic [ports_p-1:0]              in_valid_i,
  input  logic [ports_p*flit_width_p-1:0] in_flit_i,
  output logic [ports_p-1:0]              in_credit_o,
  output logic [ports_p*2-1:0]            in_credit_vc_o,
  output logic [ports_p-1:0]              out_valid_o,
  output logic [ports_p*flit_width_p-1:0] out_flit_o,
  input  logic [ports_p-1:0]              out_credit_i,
  input  logic [ports_p*2-1:0]            out_credit_vc_i,
  input  logic [inj_p-1:0]                inj_valid_i,
  input  logic [inj_p*flit_width_p-1:0]   inj_flit_i,
  output logic [inj_p-1:0]                inj_credit_o,
  output logic [ej_p-1:0]                 ej_valid_o,
  output logic [ej_p*flit_width_p-1:0]    ej_flit_o
);
  logic [ports_p-1:0] inj_credit, ej_valid;
  logic [ports_p*flit_width_p-1:0] ej_flit;
  logic [2*ports_p*5-1:0] unused_from_port;
  logic [2*ports_p*2-1:0] unused_from_vc;
  logic unused_busy;
  wn_router #(.ports_p(ports_p), .vcs_max_p(vcs_p), .buf_max_p(buf_p), .flit_width_p(flit_width_p),
              .inj_p(inj_p), .ej_p(ej_p), .static_cfg_p(1)) router (
    .clk_i, .reset_i,
    .cfg_vcs_i(3'(vcs_p)), .cfg_buf_i(5'(buf_p)), .cfg_inj_i(4'(inj_p)), .cfg_ej_i(4'(ej_p)),
    .cfg_ports_i(4'(ports_p)), .cfg_kind_i(2'(kind_p)), .cfg_ndims_i(4'(ndims_p)), .cfg_addr_i(addr_i),
    .cfg_k0_i(12'(k0_p)), .cfg_k1_i(12'(k1_p)), .cfg_k2_i(12'(k2_p)),
    .cfg_w0_i(4'(w0_p)), .cfg_w1_i(4'(w1_p)), .cfg_w2_i(4'(w2_p)), .cfg_dateline_i(kind_p == 1),
    .in_valid_i, .in_flit_i, .in_credit_o, .in_credit_vc_o, .out_valid_o, .out_flit_o,
    .out_credit_i, .out_credit_vc_i,
    .inj_valid_i(ports_p'(inj_valid_i)), .inj_flit_i((ports_p*flit_width_p)'(inj_flit_i)),
    .inj_credit_o(inj_credit), .ej_valid_o(ej_valid), .ej_flit_o(ej_flit),
    .obs_from_port_o(unused_from_port), .obs_from_vc_o(unused_from_vc), .busy_o(unused_busy));
  assign inj_credit_o = inj_credit[inj_p-1:0];
  assign ej_valid_o = ej_valid[ej_p-1:0];
  assign ej_flit_o = ej_flit[ej_p*flit_width_p-1:0];
  // The router ties absent channels' outputs to zero.
  logic unused_absent;
  assign unused_absent = ^{inj_credit, ej_valid, ej_flit};
endmodule
