// Separable input-first switch allocation (rtl/README.md §4.2). Stage 1: each
// input port picks one candidate VC round robin from sa_in_ptr_r; stage 2:
// each output (network outputs, then ejection channels) picks one input port
// round robin from sa_out_ptr_r. Pointers advance only past winners.
module wn_switch_allocator #(
  parameter int ports_p = 4,
  parameter int vcs_max_p = wn_pkg::max_vcs_gp,
  parameter int inputs_p = 2 * ports_p,   // network inputs, then injection inputs
  parameter int outputs_p = 2 * ports_p   // network outputs, then ejection channels
) (
  input  logic clk_i,
  input  logic reset_i,
  input  logic [inputs_p*vcs_max_p-1:0]                           cand_i,
  input  logic [inputs_p*vcs_max_p*wn_pkg::out_code_width_gp-1:0] cand_out_i,
  output logic [inputs_p*wn_pkg::vc_width_gp-1:0]                 pick_o,
  output logic [inputs_p-1:0]                                     win_o,
  output logic [outputs_p-1:0]                                    out_valid_o,
  output logic [outputs_p*wn_pkg::out_code_width_gp-1:0]          out_sel_o    // winning input port per output
);
  localparam int ow_lp = wn_pkg::out_code_width_gp;
  localparam int vw_lp = wn_pkg::vc_width_gp;
  localparam int vc_ptr_w_lp = $clog2(vcs_max_p + 1);
  localparam int in_ptr_w_lp = $clog2(inputs_p + 1);

  logic [inputs_p-1:0] pick_valid;
  wn_pkg::out_code_t pick_out [inputs_p];
  for (genvar p = 0; p < inputs_p; p++) begin : in
    logic [vc_ptr_w_lp-1:0] ptr_r, pick;
    wn_rr_arbiter #(.width_p(vcs_max_p), .ptr_width_p(vc_ptr_w_lp)) arb (
      .req_i(cand_i[p*vcs_max_p +: vcs_max_p]), .ptr_i(ptr_r), .valid_o(pick_valid[p]), .grant_o(pick));
    assign pick_o[p*vw_lp +: vw_lp] = vw_lp'(pick);
    always_comb begin
      pick_out[p] = '0;
      if (pick_valid[p])
        for (int v = 0; v < vcs_max_p; v++)
          if (pick == vc_ptr_w_lp'(v)) pick_out[p] = cand_out_i[(p*vcs_max_p + v)*ow_lp +: ow_lp];
    end
    always_ff @(posedge clk_i) begin
      if (reset_i) ptr_r <= '0;
      else if (win_o[p]) ptr_r <= (pick == vc_ptr_w_lp'(vcs_max_p - 1)) ? '0 : pick + 1'b1;
    end
  end

  logic [in_ptr_w_lp-1:0] winner [outputs_p];
  for (genvar k = 0; k < outputs_p; k++) begin : out
    logic [inputs_p-1:0] reqs;
    logic [in_ptr_w_lp-1:0] ptr_r;
    always_comb begin
      reqs = '0;
      if (pick_valid != '0)
        for (int p = 0; p < inputs_p; p++) reqs[p] = pick_valid[p] && pick_out[p] == ow_lp'(k);
    end
    wn_rr_arbiter #(.width_p(inputs_p), .ptr_width_p(in_ptr_w_lp)) arb (
      .req_i(reqs), .ptr_i(ptr_r), .valid_o(out_valid_o[k]), .grant_o(winner[k]));
    assign out_sel_o[k*ow_lp +: ow_lp] = ow_lp'(winner[k]);
    always_ff @(posedge clk_i) begin
      if (reset_i) ptr_r <= '0;
      else if (out_valid_o[k]) ptr_r <= winner[k] + 1'b1;
    end
  end

  always_comb begin
    win_o = '0;
    for (int k = 0; k < outputs_p; k++)
      if (out_valid_o[k])
        for (int p = 0; p < inputs_p; p++)
          if (winner[k] == in_ptr_w_lp'(p)) win_o[p] = 1'b1;
  end
`ifdef FORMAL
  // One flit per input and per output per cycle: every granted input asked for
  // that output, and no input is granted by two outputs.
  int fv_n;
  always @(*) if (!reset_i) begin
    for (int k = 0; k < outputs_p; k++)
      if (out_valid_o[k]) assert (pick_valid[winner[k]] && pick_out[winner[k]] == ow_lp'(k));
    for (int p = 0; p < inputs_p; p++) begin
      fv_n = 0;
      for (int k = 0; k < outputs_p; k++) if (out_valid_o[k] && winner[k] == in_ptr_w_lp'(p)) fv_n = fv_n + 1;
      assert (fv_n <= 1);
      for (int v = 0; v < vcs_max_p; v++) if (win_o[p] && pick_o[p*vw_lp +: vw_lp] == vw_lp'(v)) assert (cand_i[p*vcs_max_p + v]);
    end
  end
`endif
endmodule
