// Router-level lemmas (rtl/README.md §9), instantiated by wn_router under
// `FORMAL`: how an input VC's state (active, its output and output VC, mid =
// its head has left) agrees with the output units' busy/open/owner registers.
// They are invariants of the router, not assumptions, and exist so that pdr
// can close the units' own checks (an output VC carries one packet, its owner
// is the input sending) without unrolling. A target is out * vcs_max_p + out_vc
// (an ejection channel's VC is 0).
module wn_router_lemmas #(
  parameter int vcs_max_p = 2,
  parameter int nin_p = 5,     // input ports: network, then injection
  parameter int nout_p = 5     // outputs: network, then ejection
) (
  input logic reset_i,
  input logic [nin_p*vcs_max_p-1:0]                            active_i,
  input logic [nin_p*vcs_max_p-1:0]                            mid_i,
  input logic [nin_p*vcs_max_p*wn_pkg::out_code_width_gp-1:0]  out_i,
  input logic [nin_p*vcs_max_p*wn_pkg::vc_width_gp-1:0]        out_vc_i,
  input logic [nout_p*vcs_max_p-1:0]                           busy_i,
  input logic [nout_p*vcs_max_p-1:0]                           open_i,
  input logic [nout_p*vcs_max_p*wn_pkg::out_code_width_gp-1:0] owner_i,
  input logic [nout_p*vcs_max_p*wn_pkg::vc_width_gp-1:0]       owner_vc_i
);
  localparam int ow_lp = wn_pkg::out_code_width_gp;
  localparam int vw_lp = wn_pkg::vc_width_gp;
  localparam int reqs_lp = nin_p * vcs_max_p;
  localparam int tgts_lp = nout_p * vcs_max_p;
  localparam int tw_lp = $clog2(tgts_lp) + 1;
  localparam int rw_lp = $clog2(reqs_lp) + 1;

  logic [reqs_lp*tw_lp-1:0] tgt;
  for (genvar r = 0; r < reqs_lp; r++) begin : req
    logic [tw_lp-1:0] t;
    assign tgt[r*tw_lp +: tw_lp] = t;
    assign t = tw_lp'(out_i[r*ow_lp +: ow_lp]) * tw_lp'(vcs_max_p) + tw_lp'(out_vc_i[r*vw_lp +: vw_lp]);
    always @(*) if (!reset_i && active_i[r]) begin
      assert (out_i[r*ow_lp +: ow_lp] < ow_lp'(nout_p) && out_vc_i[r*vw_lp +: vw_lp] < vw_lp'(vcs_max_p));
      assert (busy_i[t]);               // the VC allocator marked what it granted
      assert (open_i[t] == mid_i[r]);   // the output VC is mid-packet exactly when this VC is
      if (mid_i[r])
        assert (owner_i[t*ow_lp +: ow_lp] == ow_lp'(r / vcs_max_p) &&
                owner_vc_i[t*vw_lp +: vw_lp] == vw_lp'(r % vcs_max_p));
      for (int s = r + 1; s < reqs_lp; s++)
        if (active_i[s]) assert (tgt[s*tw_lp +: tw_lp] != t);   // one packet per output VC
    end
  end

  for (genvar k = 0; k < tgts_lp; k++) begin : target
    logic [rw_lp-1:0] owner;
    assign owner = rw_lp'(owner_i[k*ow_lp +: ow_lp]) * rw_lp'(vcs_max_p) + rw_lp'(owner_vc_i[k*vw_lp +: vw_lp]);
    always @(*) if (!reset_i && open_i[k]) begin
      assert (owner_i[k*ow_lp +: ow_lp] < ow_lp'(nin_p) && owner_vc_i[k*vw_lp +: vw_lp] < vw_lp'(vcs_max_p));
      assert (active_i[owner] && mid_i[owner] && tgt[owner*tw_lp +: tw_lp] == tw_lp'(k));
    end
  end
endmodule
