// VC allocation (rtl/README.md §4.1). Network output o: one grant per cycle,
// round robin over input VCs from va_ptr_r[o]; the winner takes the lowest
// free VC of its class range. Ejection: the free channels, in index order, go
// to the requesters in round-robin order from ej_ptr_r (up to one per channel).
module wn_vc_allocator #(
  parameter int ports_p = 4,
  parameter int vcs_max_p = wn_pkg::max_vcs_gp,
  parameter int ej_p = ports_p,                          // ejection channels
  parameter int reqs_p = ports_p * vcs_max_p + ports_p  // input VCs, then injection channels
) (
  input  logic clk_i,
  input  logic reset_i,
  input  wn_pkg::cfg_s cfg_i,
  input  logic [reqs_p-1:0]                           req_i,
  input  logic [reqs_p-1:0]                           eject_i,
  input  logic [reqs_p*wn_pkg::out_code_width_gp-1:0] out_i,
  input  logic [reqs_p*wn_pkg::vc_width_gp-1:0]       lo_i,
  input  logic [reqs_p*wn_pkg::vc_width_gp-1:0]       hi_i,
  input  logic [ports_p*vcs_max_p-1:0]                out_busy_i,
  input  logic [ej_p-1:0]                             ej_busy_i,
  output logic [reqs_p-1:0]                           grant_o,
  output logic [reqs_p*wn_pkg::out_code_width_gp-1:0] grant_out_o,  // network output o, or ports_p + j for ejection channel j
  output logic [reqs_p*wn_pkg::vc_width_gp-1:0]       grant_vc_o,
  output logic [ports_p*vcs_max_p-1:0]                set_out_busy_o,
  output logic [ej_p-1:0]                             set_ej_busy_o
);
  localparam int ptr_w_lp = $clog2(reqs_p + 1);
  localparam int ow_lp = wn_pkg::out_code_width_gp;
  localparam int vw_lp = wn_pkg::vc_width_gp;
  // Every unit takes the whole configuration; this one reads ej only (the rest is named
  // here for lint, synthesis drops it).
  logic unused_cfg;
  assign unused_cfg = ^{cfg_i.vcs, cfg_i.buf_depth, cfg_i.inj, cfg_i.ports, cfg_i.kind, cfg_i.ndims, cfg_i.addr,
                        cfg_i.k, cfg_i.w, cfg_i.dateline};

  // The arbitration rule of wn_rr_arbiter, as a function for the ejection loop.
  function automatic logic [ptr_w_lp-1:0] rr_pick(input logic [reqs_p-1:0] r, input logic [ptr_w_lp-1:0] ptr);
    logic [ptr_w_lp-1:0] first_high, first_any;
    logic found_high;
    first_high = '0;
    first_any = '0;
    found_high = 1'b0;
    for (int i = reqs_p - 1; i >= 0; i--) begin
      if (r[i] && i >= (ptr)) begin
        found_high = 1'b1;
        first_high = ptr_w_lp'(i);
      end
      if (r[i]) first_any = ptr_w_lp'(i);
    end
    rr_pick = found_high ? first_high : first_any;
  endfunction

  // Per requester: free VCs in its class range at its output, and the lowest one.
  logic [reqs_p-1:0] has_free;
  wn_pkg::vc_t lowest_free [reqs_p];
  for (genvar q = 0; q < reqs_p; q++) begin : req
    logic [vcs_max_p-1:0] free, busy_here;
    wn_pkg::out_code_t o;
    assign o = out_i[q*ow_lp +: ow_lp];
    // Read only for a requester (otherwise no VC is free for it and nothing is granted).
    always_comb begin
      busy_here = '1;
      free = '0;
      lowest_free[q] = '0;
      if (req_i[q]) begin
        // The requested output's busy bits, by a mux over the outputs (no index arithmetic:
        // a multiply or modulo here costs the synthesized and the formal models dearly).
        for (int k = 0; k < ports_p; k++)
          if (o == ow_lp'(k)) busy_here = out_busy_i[k*vcs_max_p +: vcs_max_p];
        for (int w = 0; w < vcs_max_p; w++)
`ifdef WN_FORMAL_BROKEN
          // Test-only defect (scripts/rtl_formal.sh): a head may take a VC another packet holds.
          free[w] = (vw_lp'(w) >= lo_i[q*vw_lp +: vw_lp]) && (vw_lp'(w) <= hi_i[q*vw_lp +: vw_lp]);
`else
          free[w] = !busy_here[w] && (vw_lp'(w) >= lo_i[q*vw_lp +: vw_lp]) && (vw_lp'(w) <= hi_i[q*vw_lp +: vw_lp]);
`endif
        for (int w = vcs_max_p - 1; w >= 0; w--)
          if (free[w]) lowest_free[q] = vw_lp'(w);
      end
    end
    assign has_free[q] = free != '0;
  end

  // Network outputs.
  logic [ptr_w_lp-1:0] va_ptr_r [ports_p];
  logic [ports_p-1:0] net_valid;
  logic [ptr_w_lp-1:0] net_winner [ports_p];
  for (genvar o = 0; o < ports_p; o++) begin : net
    logic [reqs_p-1:0] reqs;
    always_comb begin
      reqs = '0;
      if (req_i != '0)
        for (int q = 0; q < reqs_p; q++)
          reqs[q] = req_i[q] && !eject_i[q] && has_free[q] && (out_i[q*ow_lp +: ow_lp] == ow_lp'(o));
    end
    wn_rr_arbiter #(.width_p(reqs_p), .ptr_width_p(ptr_w_lp)) arb (
      .req_i(reqs), .ptr_i(va_ptr_r[o]), .valid_o(net_valid[o]), .grant_o(net_winner[o]));
    always_ff @(posedge clk_i) begin
      if (reset_i) va_ptr_r[o] <= '0;
      else if (net_valid[o]) va_ptr_r[o] <= net_winner[o] + 1'b1;
    end
    for (genvar w = 0; w < vcs_max_p; w++) begin : set
      assign set_out_busy_o[o*vcs_max_p + w] = net_valid[o] && (lowest_free[net_winner[o]] == vw_lp'(w));
    end
  end

  // Ejection channels: in index order, each free channel takes the next
  // requester in round-robin order (one sequential loop: the chain of
  // picks is a single combinational step, no circular logic).
  logic [ptr_w_lp-1:0] ej_ptr_r;
  logic [ej_p-1:0] ej_valid;
  logic [ptr_w_lp-1:0] ej_winner [ej_p];
  logic [ptr_w_lp-1:0] ej_last;
  logic [reqs_p-1:0] ej_left;
  always_comb begin
    ej_left = req_i & eject_i;
    ej_last = '0;
    for (int j = 0; j < ej_p; j++) begin
      ej_valid[j] = 1'b0;
      ej_winner[j] = '0;
      if (j < (cfg_i.ej) && !ej_busy_i[j] && ej_left != '0) begin
        ej_valid[j] = 1'b1;
        ej_winner[j] = rr_pick(ej_left, ej_ptr_r);
        ej_left[ej_winner[j]] = 1'b0;
        ej_last = ej_winner[j];
      end
    end
  end
  assign set_ej_busy_o = ej_valid;
  always_ff @(posedge clk_i) begin
    if (reset_i) ej_ptr_r <= '0;
    else if (ej_valid != '0) ej_ptr_r <= ej_last + 1'b1;
  end

  // Per requester grant.
  for (genvar q = 0; q < reqs_p; q++) begin : grant
    always_comb begin
      grant_o[q] = 1'b0;
      grant_out_o[q*ow_lp +: ow_lp] = out_i[q*ow_lp +: ow_lp];
      grant_vc_o[q*vw_lp +: vw_lp] = lowest_free[q];
      if (req_i[q]) begin
        for (int o = 0; o < ports_p; o++)
          if (net_valid[o] && net_winner[o] == ptr_w_lp'(q)) grant_o[q] = 1'b1;
        for (int j = 0; j < ej_p; j++)
          if (ej_valid[j] && ej_winner[j] == ptr_w_lp'(q)) begin
            grant_o[q] = 1'b1;
            grant_out_o[q*ow_lp +: ow_lp] = ow_lp'(ports_p + j);
            grant_vc_o[q*vw_lp +: vw_lp] = '0;
          end
      end
    end
  end
`ifdef FORMAL
  // Grants are one-hot: an output VC goes to at most one requester per cycle and
  // never while another packet holds it; a requester gets at most one output.
  int fv_n;
  always @(*) if (!reset_i) begin
    for (int x = 0; x < ports_p * vcs_max_p; x++) if (set_out_busy_o[x]) assert (!out_busy_i[x]);
    for (int o = 0; o < ports_p; o++) assert ($onehot0(set_out_busy_o[o*vcs_max_p +: vcs_max_p]));
    for (int j = 0; j < ej_p; j++) if (ej_valid[j]) assert (!ej_busy_i[j]);
    for (int q = 0; q < reqs_p; q++) begin
      fv_n = 0;
      for (int o = 0; o < ports_p; o++) if (net_valid[o] && net_winner[o] == ptr_w_lp'(q)) fv_n = fv_n + 1;
      for (int j = 0; j < ej_p; j++) if (ej_valid[j] && ej_winner[j] == ptr_w_lp'(q)) fv_n = fv_n + 1;
      assert (fv_n <= 1);
      if (grant_o[q]) assert (req_i[q]);
    end
  end
`endif
endmodule
