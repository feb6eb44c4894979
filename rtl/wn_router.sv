// wormnet router top: wires the unit modules only (rtl/README.md is the
// contract). ports_p network ports, each with vcs_max_p VCs; ports_p injection
// channels and ports_p ejection channels, of which cfg_i.inj / cfg_i.ej are used.
// Wire names: <from>_<to>_<what>; iu input unit, va VC allocator,
// sa switch allocator, xb crossbar, ou output unit.
// Per-port signals are flat vectors, element p at [p*width +: width] (yosys 0.23
// has no packed multi-dimensional ports); the verilated C++ sees the same vectors.
module wn_router #(
  parameter int ports_p = 4,
  parameter int vcs_max_p = wn_pkg::max_vcs_gp,
  parameter int buf_max_p = wn_pkg::max_buf_gp,
  // Elaboration-time trims for area estimates (rtl/README.md §8); the verilated
  // routers keep the defaults and select channels with cfg_i.inj / cfg_i.ej.
  parameter int inj_p = ports_p,       // injection channels built
  parameter int ej_p = ports_p,        // ejection channels built
  parameter int static_cfg_p = 0       // cfg_i is a constant: no configuration registers
) (
  input  logic clk_i,
  input  logic reset_i,
  input  wn_pkg::cfg_s cfg_i,
  input  logic [ports_p-1:0]                           in_valid_i,
  input  logic [ports_p*wn_pkg::flit_width_gp-1:0]     in_flit_i,
  output logic [ports_p-1:0]                           in_credit_o,
  output logic [ports_p*wn_pkg::vc_width_gp-1:0]       in_credit_vc_o,
  output logic [ports_p-1:0]                           out_valid_o,
  output logic [ports_p*wn_pkg::flit_width_gp-1:0]     out_flit_o,
  input  logic [ports_p-1:0]                           out_credit_i,
  input  logic [ports_p*wn_pkg::vc_width_gp-1:0]       out_credit_vc_i,
  input  logic [ports_p-1:0]                           inj_valid_i,
  input  logic [ports_p*wn_pkg::flit_width_gp-1:0]     inj_flit_i,
  output logic [ports_p-1:0]                           inj_credit_o,
  output logic [ports_p-1:0]                           ej_valid_o,
  output logic [ports_p*wn_pkg::flit_width_gp-1:0]     ej_flit_o,
  output logic [2*ports_p*wn_pkg::out_code_width_gp-1:0] obs_from_port_o,
  output logic [2*ports_p*wn_pkg::vc_width_gp-1:0]     obs_from_vc_o,
  output logic                                         busy_o
);
  // Configuration registers, loaded during reset (rtl/README.md §2: static, stable during reset).
  // Routing and allocation read only the registers (`cfg`), so the verilated model evaluates them
  // once per clock edge; buf_depth (credits load at the reset edge itself), inj and ports (they
  // mask input valids) come from cfg_i.
  wn_pkg::cfg_s cfg;
  wn_cfg_reg #(.static_p(static_cfg_p)) cfg_reg (.clk_i, .reset_i, .cfg_i, .cfg_r(cfg));

  localparam int vm_lp = vcs_max_p;
  localparam int fw_lp = wn_pkg::flit_width_gp;
  localparam int vw_lp = wn_pkg::vc_width_gp;
  localparam int ow_lp = wn_pkg::out_code_width_gp;  // output code: network o, or ports_p + ejection channel
  localparam int nin_lp = ports_p + inj_p;     // input ports: network, then injection
  localparam int nout_lp = ports_p + ej_p;     // outputs: network, then ejection
  localparam int reqs_lp = ports_p * vm_lp + inj_p;  // VA requesters

  // input units -> VC allocator
  logic [reqs_lp-1:0]       iu_va_req, iu_va_eject;
  logic [reqs_lp*ow_lp-1:0] iu_va_out;
  logic [reqs_lp*vw_lp-1:0] iu_va_lo, iu_va_hi;
  // VC allocator -> input units / output units
  logic [reqs_lp-1:0]       va_iu_grant;
  logic [reqs_lp*ow_lp-1:0] va_iu_out;
  logic [reqs_lp*vw_lp-1:0] va_iu_vc;
  logic [ports_p*vm_lp-1:0] va_ou_set_busy;
  logic [ej_p-1:0]          va_ou_set_ej_busy;
  // output units -> VC allocator / input units
  logic [ports_p*vm_lp-1:0] ou_va_busy, ou_iu_credit_ok;
  logic [ej_p-1:0]          ou_va_ej_busy;
  // input units <-> switch allocator, crossbar
  logic [nin_lp*vm_lp-1:0]       iu_sa_cand;
  logic [nin_lp*vm_lp*ow_lp-1:0] iu_sa_out;
  logic [nin_lp*vw_lp-1:0]       sa_iu_pick;
  logic [nin_lp-1:0]             sa_iu_win;
  logic [nin_lp*fw_lp-1:0]       iu_xb_flit;
  logic [nin_lp*vw_lp-1:0]       iu_xb_out_vc;
  logic [nin_lp-1:0]             iu_busy;
  // switch allocator -> crossbar -> output units
  logic [nout_lp-1:0]       sa_ou_valid;
  logic [nout_lp*ow_lp-1:0] sa_xb_sel;
  logic [nout_lp*fw_lp-1:0] xb_ou_flit;
  logic [nout_lp*vw_lp-1:0] xb_ou_out_vc, xb_ou_from_vc;
  logic [nout_lp-1:0]       ou_valid;
`ifdef FORMAL
  // unit state for the router-level lemmas (rtl/formal/wn_router_lemmas.sv)
  logic [nin_lp*vm_lp-1:0]        fv_active, fv_mid;
  logic [nin_lp*vm_lp*ow_lp-1:0]  fv_out;
  logic [nin_lp*vm_lp*vw_lp-1:0]  fv_out_vc;
  logic [nout_lp*vm_lp-1:0]       fv_busy, fv_open;
  logic [nout_lp*vm_lp*ow_lp-1:0] fv_owner;
  logic [nout_lp*vm_lp*vw_lp-1:0] fv_owner_vc;
`endif

  // ---- network input units ----
  for (genvar p = 0; p < ports_p; p++) begin : net_in
    wn_pkg::vc_t credit_vc;
    wn_input_unit #(.ports_p(ports_p), .vcs_p(vm_lp), .vcs_max_p(vm_lp), .buf_max_p(buf_max_p),
                    .is_inj_p(1'b0), .port_id_p(p)) iu (
      .clk_i, .reset_i, .cfg_i(cfg),
      .valid_i(in_valid_i[p] && p < (cfg_i.ports)), .flit_i(in_flit_i[p*fw_lp +: fw_lp]),
      .credit_o(in_credit_o[p]), .credit_vc_o(credit_vc),
      .va_req_o(iu_va_req[p*vm_lp +: vm_lp]), .va_eject_o(iu_va_eject[p*vm_lp +: vm_lp]),
      .va_out_o(iu_va_out[p*vm_lp*ow_lp +: vm_lp*ow_lp]), .va_lo_o(iu_va_lo[p*vm_lp*vw_lp +: vm_lp*vw_lp]),
      .va_hi_o(iu_va_hi[p*vm_lp*vw_lp +: vm_lp*vw_lp]), .va_grant_i(va_iu_grant[p*vm_lp +: vm_lp]),
      .va_grant_out_i(va_iu_out[p*vm_lp*ow_lp +: vm_lp*ow_lp]),
      .va_grant_vc_i(va_iu_vc[p*vm_lp*vw_lp +: vm_lp*vw_lp]),
      .credit_ok_i(ou_iu_credit_ok), .sa_cand_o(iu_sa_cand[p*vm_lp +: vm_lp]),
      .sa_out_o(iu_sa_out[p*vm_lp*ow_lp +: vm_lp*ow_lp]), .sa_pick_i(sa_iu_pick[p*vw_lp +: vw_lp]),
      .sa_win_i(sa_iu_win[p]), .xb_flit_o(iu_xb_flit[p*fw_lp +: fw_lp]),
      .xb_out_vc_o(iu_xb_out_vc[p*vw_lp +: vw_lp]), .busy_o(iu_busy[p])
`ifdef FORMAL
      , .fv_active_o(fv_active[p*vm_lp +: vm_lp]), .fv_mid_o(fv_mid[p*vm_lp +: vm_lp]),
      .fv_out_o(fv_out[p*vm_lp*ow_lp +: vm_lp*ow_lp]), .fv_out_vc_o(fv_out_vc[p*vm_lp*vw_lp +: vm_lp*vw_lp])
`endif
      );
    assign in_credit_vc_o[p*vw_lp +: vw_lp] = credit_vc;
  end

  // ---- injection input units (one VC each) ----
  for (genvar i = 0; i < inj_p; i++) begin : inj_in
    localparam int n_lp = ports_p + i;         // input port index
    localparam int q_lp = ports_p * vm_lp + i; // VA requester index
    wn_pkg::vc_t unused_credit_vc;
    wn_input_unit #(.ports_p(ports_p), .vcs_p(1), .vcs_max_p(vm_lp), .buf_max_p(buf_max_p),
                    .is_inj_p(1'b1), .port_id_p(0)) iu (
      .clk_i, .reset_i, .cfg_i(cfg),
      .valid_i(inj_valid_i[i] && i < (cfg_i.inj)), .flit_i(inj_flit_i[i*fw_lp +: fw_lp]),
      .credit_o(inj_credit_o[i]), .credit_vc_o(unused_credit_vc),
      .va_req_o(iu_va_req[q_lp]), .va_eject_o(iu_va_eject[q_lp]),
      .va_out_o(iu_va_out[q_lp*ow_lp +: ow_lp]), .va_lo_o(iu_va_lo[q_lp*vw_lp +: vw_lp]),
      .va_hi_o(iu_va_hi[q_lp*vw_lp +: vw_lp]), .va_grant_i(va_iu_grant[q_lp]),
      .va_grant_out_i(va_iu_out[q_lp*ow_lp +: ow_lp]), .va_grant_vc_i(va_iu_vc[q_lp*vw_lp +: vw_lp]),
      .credit_ok_i(ou_iu_credit_ok), .sa_cand_o(iu_sa_cand[n_lp*vm_lp]),
      .sa_out_o(iu_sa_out[n_lp*vm_lp*ow_lp +: ow_lp]), .sa_pick_i(sa_iu_pick[n_lp*vw_lp +: vw_lp]),
      .sa_win_i(sa_iu_win[n_lp]), .xb_flit_o(iu_xb_flit[n_lp*fw_lp +: fw_lp]),
      .xb_out_vc_o(iu_xb_out_vc[n_lp*vw_lp +: vw_lp]), .busy_o(iu_busy[n_lp])
`ifdef FORMAL
      , .fv_active_o(fv_active[n_lp*vm_lp]), .fv_mid_o(fv_mid[n_lp*vm_lp]),
      .fv_out_o(fv_out[n_lp*vm_lp*ow_lp +: ow_lp]), .fv_out_vc_o(fv_out_vc[n_lp*vm_lp*vw_lp +: vw_lp])
`endif
      );
    // An injection channel has one VC: its other candidate slots never request.
    if (vm_lp > 1) begin : idle_slots
      assign iu_sa_cand[n_lp*vm_lp+1 +: vm_lp-1] = '0;
      assign iu_sa_out[(n_lp*vm_lp+1)*ow_lp +: (vm_lp-1)*ow_lp] = '0;
`ifdef FORMAL
      assign fv_active[n_lp*vm_lp+1 +: vm_lp-1] = '0;
      assign fv_mid[n_lp*vm_lp+1 +: vm_lp-1] = '0;
      assign fv_out[(n_lp*vm_lp+1)*ow_lp +: (vm_lp-1)*ow_lp] = '0;
      assign fv_out_vc[(n_lp*vm_lp+1)*vw_lp +: (vm_lp-1)*vw_lp] = '0;
`endif
    end
  end
  for (genvar i = inj_p; i < ports_p; i++) begin : inj_absent
    logic unused_valid;
    wn_pkg::flit_t unused_flit;
    assign unused_valid = inj_valid_i[i];
    assign unused_flit = inj_flit_i[i*fw_lp +: fw_lp];
    assign inj_credit_o[i] = 1'b0;
  end

  // ---- allocators and crossbar ----
  wn_vc_allocator #(.ports_p(ports_p), .vcs_max_p(vm_lp), .ej_p(ej_p), .reqs_p(reqs_lp)) va (
    .clk_i, .reset_i, .cfg_i(cfg), .req_i(iu_va_req), .eject_i(iu_va_eject), .out_i(iu_va_out),
    .lo_i(iu_va_lo), .hi_i(iu_va_hi), .out_busy_i(ou_va_busy), .ej_busy_i(ou_va_ej_busy),
    .grant_o(va_iu_grant), .grant_out_o(va_iu_out), .grant_vc_o(va_iu_vc),
    .set_out_busy_o(va_ou_set_busy), .set_ej_busy_o(va_ou_set_ej_busy));

  wn_switch_allocator #(.ports_p(ports_p), .vcs_max_p(vm_lp), .inputs_p(nin_lp), .outputs_p(nout_lp)) sa (
    .clk_i, .reset_i, .cand_i(iu_sa_cand), .cand_out_i(iu_sa_out), .pick_o(sa_iu_pick), .win_o(sa_iu_win),
    .out_valid_o(sa_ou_valid), .out_sel_o(sa_xb_sel));

  wn_crossbar #(.inputs_p(nin_lp), .outputs_p(nout_lp)) xb (
    .in_flit_i(iu_xb_flit), .in_out_vc_i(iu_xb_out_vc), .in_vc_i(sa_iu_pick), .sel_i(sa_xb_sel),
    .valid_i(sa_ou_valid),
    .out_flit_o(xb_ou_flit), .out_vc_o(xb_ou_out_vc), .out_from_vc_o(xb_ou_from_vc));

  // ---- network output units ----
  for (genvar o = 0; o < ports_p; o++) begin : net_out
    wn_output_unit #(.vcs_max_p(vm_lp), .is_eject_p(1'b0)) ou (
      .clk_i, .reset_i, .cfg_i, .valid_i(sa_ou_valid[o]), .flit_i(xb_ou_flit[o*fw_lp +: fw_lp]),
      .out_vc_i(xb_ou_out_vc[o*vw_lp +: vw_lp]), .from_i(sa_xb_sel[o*ow_lp +: ow_lp]),
      .from_vc_i(xb_ou_from_vc[o*vw_lp +: vw_lp]),
      .set_busy_i(va_ou_set_busy[o*vm_lp +: vm_lp]), .credit_i(out_credit_i[o]),
      .credit_vc_i(out_credit_vc_i[o*vw_lp +: vw_lp]), .busy_o(ou_va_busy[o*vm_lp +: vm_lp]),
      .credit_ok_o(ou_iu_credit_ok[o*vm_lp +: vm_lp]), .valid_o(ou_valid[o]),
      .flit_o(out_flit_o[o*fw_lp +: fw_lp]), .from_o(obs_from_port_o[o*ow_lp +: ow_lp]),
      .from_vc_o(obs_from_vc_o[o*vw_lp +: vw_lp])
`ifdef FORMAL
      , .fv_open_o(fv_open[o*vm_lp +: vm_lp]), .fv_owner_o(fv_owner[o*vm_lp*ow_lp +: vm_lp*ow_lp]),
      .fv_owner_vc_o(fv_owner_vc[o*vm_lp*vw_lp +: vm_lp*vw_lp])
`endif
      );
    assign out_valid_o[o] = ou_valid[o];
  end

  // ---- ejection channels ----
  for (genvar j = 0; j < ej_p; j++) begin : ej_out
    localparam int k_lp = ports_p + j;
    logic [vm_lp-1:0] busy, unused_credit_ok;
    wn_output_unit #(.vcs_max_p(vm_lp), .is_eject_p(1'b1)) ou (
      .clk_i, .reset_i, .cfg_i, .valid_i(sa_ou_valid[k_lp]),
      .flit_i(xb_ou_flit[k_lp*fw_lp +: fw_lp]), .out_vc_i(xb_ou_out_vc[k_lp*vw_lp +: vw_lp]),
      .from_i(sa_xb_sel[k_lp*ow_lp +: ow_lp]), .from_vc_i(xb_ou_from_vc[k_lp*vw_lp +: vw_lp]),
      .set_busy_i(vm_lp'(va_ou_set_ej_busy[j])), .credit_i(1'b0), .credit_vc_i('0),
      .busy_o(busy), .credit_ok_o(unused_credit_ok), .valid_o(ou_valid[k_lp]),
      .flit_o(ej_flit_o[j*fw_lp +: fw_lp]), .from_o(obs_from_port_o[k_lp*ow_lp +: ow_lp]),
      .from_vc_o(obs_from_vc_o[k_lp*vw_lp +: vw_lp])
`ifdef FORMAL
      , .fv_open_o(fv_open[k_lp*vm_lp +: vm_lp]), .fv_owner_o(fv_owner[k_lp*vm_lp*ow_lp +: vm_lp*ow_lp]),
      .fv_owner_vc_o(fv_owner_vc[k_lp*vm_lp*vw_lp +: vm_lp*vw_lp])
`endif
      );
    assign ou_va_ej_busy[j] = busy[0];
    if (vm_lp > 1) begin : owner
      logic [vm_lp-2:0] unused_busy_hi;  // an ejection channel has one owner bit
      assign unused_busy_hi = busy[vm_lp-1:1];
    end
    assign ej_valid_o[j] = ou_valid[k_lp];
  end
  for (genvar j = ej_p; j < ports_p; j++) begin : ej_absent
    assign ej_valid_o[j] = 1'b0;
    assign ej_flit_o[j*fw_lp +: fw_lp] = '0;
    assign obs_from_port_o[(ports_p+j)*ow_lp +: ow_lp] = '0;
    assign obs_from_vc_o[(ports_p+j)*vw_lp +: vw_lp] = '0;
  end

  assign busy_o = (iu_busy != '0) || (ou_valid != '0);
`ifdef FORMAL
  for (genvar j = 0; j < ej_p; j++) begin : fv_ej
    assign fv_busy[(ports_p+j)*vm_lp +: vm_lp] = ej_out[j].busy;
  end
  assign fv_busy[ports_p*vm_lp-1:0] = ou_va_busy;
  wn_router_lemmas #(.vcs_max_p(vm_lp), .nin_p(nin_lp), .nout_p(nout_lp)) lemmas (
    .reset_i, .active_i(fv_active), .mid_i(fv_mid), .out_i(fv_out), .out_vc_i(fv_out_vc), .busy_i(fv_busy),
    .open_i(fv_open), .owner_i(fv_owner), .owner_vc_i(fv_owner_vc));
`endif
endmodule
