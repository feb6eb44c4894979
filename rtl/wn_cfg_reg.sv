`include "wn_flit.svh"
// wn_cfg_reg: configuration registers, loaded while reset_i is high.
// rtl/README.md §2 makes the configuration static and stable during reset,
// so the router samples it once. Besides being the usual hardware practice,
// this makes every allocator input a register: the verilated model then
// evaluates the allocation logic once per clock edge instead of also on
// every input change.
// static_p: the configuration is fixed at elaboration (constants on the
// inputs), so the registers are left out and synthesis folds the constants
// into the routing and allocation logic (area estimates, rtl/README.md §8).
module wn_cfg_reg #(
  parameter int static_p = 0
) (
  input  logic        clk_i,
  input  logic        reset_i,
  input  logic [2:0]  vcs_i,
  input  logic [3:0]  ej_i,
  input  logic [1:0]  kind_i,
  input  logic [3:0]  ndims_i,
  input  logic [`WN_DEST_W-1:0] addr_i,
  input  logic [11:0] k0_i, k1_i, k2_i,
  input  logic [3:0]  w0_i, w1_i, w2_i,
  input  logic        dateline_i,
  output logic [2:0]  vcs_r,
  output logic [3:0]  ej_r,
  output logic [1:0]  kind_r,
  output logic [3:0]  ndims_r,
  output logic [`WN_DEST_W-1:0] addr_r,
  output logic [11:0] k0_r, k1_r, k2_r,
  output logic [3:0]  w0_r, w1_r, w2_r,
  output logic        dateline_r
);
  if (static_p != 0) begin : fixed
    logic unused_clk_reset;
    assign unused_clk_reset = clk_i ^ reset_i;
    assign {vcs_r, ej_r, kind_r, ndims_r, addr_r, k0_r, k1_r, k2_r, w0_r, w1_r, w2_r, dateline_r} =
           {vcs_i, ej_i, kind_i, ndims_i, addr_i, k0_i, k1_i, k2_i, w0_i, w1_i, w2_i, dateline_i};
  end else begin : loaded
  always_ff @(posedge clk_i) begin
    if (reset_i) begin
      vcs_r      <= vcs_i;
      ej_r       <= ej_i;
      kind_r     <= kind_i;
      ndims_r    <= ndims_i;
      addr_r     <= addr_i;
      k0_r       <= k0_i;
      k1_r       <= k1_i;
      k2_r       <= k2_i;
      w0_r       <= w0_i;
      w1_r       <= w1_i;
      w2_r       <= w2_i;
      dateline_r <= dateline_i;
    end
  end
  end
endmodule
