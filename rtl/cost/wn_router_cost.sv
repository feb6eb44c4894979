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
  parameter int kind_p = wn_pkg::kind_mesh_gp,  // rtl/README.md §3
  parameter int ndims_p = 2,
  parameter int k0_p = 8, k1_p = 8, k2_p = 1,
  parameter int w0_p = 3, w1_p = 3, w2_p = 0
) (
  input  logic clk_i,
  input  logic reset_i,
  input  wn_pkg::addr_t                              addr_i,
  input  logic [ports_p-1:0]                         in_valid_i,
  input  logic [ports_p*wn_pkg::flit_width_gp-1:0]   in_flit_i,
  output logic [ports_p-1:0]                         in_credit_o,
  output logic [ports_p*wn_pkg::vc_width_gp-1:0]     in_credit_vc_o,
  output logic [ports_p-1:0]                         out_valid_o,
  output logic [ports_p*wn_pkg::flit_width_gp-1:0]   out_flit_o,
  input  logic [ports_p-1:0]                         out_credit_i,
  input  logic [ports_p*wn_pkg::vc_width_gp-1:0]     out_credit_vc_i,
  input  logic [inj_p-1:0]                           inj_valid_i,
  input  logic [inj_p*wn_pkg::flit_width_gp-1:0]     inj_flit_i,
  output logic [inj_p-1:0]                           inj_credit_o,
  output logic [ej_p-1:0]                            ej_valid_o,
  output logic [ej_p*wn_pkg::flit_width_gp-1:0]      ej_flit_o
);
  localparam int fw_lp = wn_pkg::flit_width_gp;
  localparam int pw_lp = wn_pkg::port_count_width_gp;
  localparam int kw_lp = wn_pkg::radix_width_gp;
  localparam int ww_lp = wn_pkg::dim_bits_width_gp;
  logic [ports_p-1:0] inj_credit, ej_valid;
  logic [ports_p*fw_lp-1:0] ej_flit;
  logic [2*ports_p*wn_pkg::out_code_width_gp-1:0] unused_from_port;
  logic [2*ports_p*wn_pkg::vc_width_gp-1:0] unused_from_vc;
  logic unused_busy;
  wn_pkg::cfg_s cfg;
  always_comb begin
    cfg = '0;
    cfg.vcs = wn_pkg::cfg_vcs_width_gp'(vcs_p);
    cfg.buf_depth = wn_pkg::cfg_buf_width_gp'(buf_p);
    cfg.inj = pw_lp'(inj_p);
    cfg.ej = pw_lp'(ej_p);
    cfg.ports = pw_lp'(ports_p);
    cfg.kind = wn_pkg::kind_width_gp'(kind_p);
    cfg.ndims = pw_lp'(ndims_p);
    cfg.addr = addr_i;
    cfg.k[0] = kw_lp'(k0_p);
    cfg.k[1] = kw_lp'(k1_p);
    cfg.k[2] = kw_lp'(k2_p);
    cfg.w[0] = ww_lp'(w0_p);
    cfg.w[1] = ww_lp'(w1_p);
    cfg.w[2] = ww_lp'(w2_p);
    cfg.dateline = kind_p == wn_pkg::kind_torus_gp;
  end
  wn_router #(.ports_p(ports_p), .vcs_max_p(vcs_p), .buf_max_p(buf_p),
              .inj_p(inj_p), .ej_p(ej_p), .static_cfg_p(1)) router (
    .clk_i, .reset_i, .cfg_i(cfg),
    .in_valid_i, .in_flit_i, .in_credit_o, .in_credit_vc_o, .out_valid_o, .out_flit_o,
    .out_credit_i, .out_credit_vc_i,
    .inj_valid_i(ports_p'(inj_valid_i)), .inj_flit_i((ports_p*fw_lp)'(inj_flit_i)),
    .inj_credit_o(inj_credit), .ej_valid_o(ej_valid), .ej_flit_o(ej_flit),
    .obs_from_port_o(unused_from_port), .obs_from_vc_o(unused_from_vc), .busy_o(unused_busy));
  assign inj_credit_o = inj_credit[inj_p-1:0];
  assign ej_valid_o = ej_valid[ej_p-1:0];
  assign ej_flit_o = ej_flit[ej_p*fw_lp-1:0];
  // The router ties absent channels' outputs to zero.
  logic unused_absent;
  assign unused_absent = ^{inj_credit, ej_valid, ej_flit};
endmodule
