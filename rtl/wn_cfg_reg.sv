// wn_cfg_reg: configuration registers, loaded while reset_i is high.
// rtl/README.md §2 makes the configuration static and stable during reset,
// so the router samples it once. Besides being the usual hardware practice,
// this makes every allocator input a register: the verilated model then
// evaluates the allocation logic once per clock edge instead of also on
// every input change.
// wn_router reads three fields from its input instead (buf_depth, inj, ports):
// the output units load their credits at the reset edge itself (one reset
// cycle must be enough), and inj / ports only mask the input valids.
// static_p: the configuration is fixed at elaboration (constants on the
// inputs), so the registers are left out and synthesis folds the constants
// into the routing and allocation logic (area estimates, rtl/README.md §8).
module wn_cfg_reg #(
  parameter int static_p = 0
) (
  input  logic          clk_i,
  input  logic          reset_i,
  input  wn_pkg::cfg_s  cfg_i,
  output wn_pkg::cfg_s  cfg_r
);
  if (static_p != 0) begin : fixed
    logic unused_clk_reset;
    assign unused_clk_reset = clk_i ^ reset_i;
    assign cfg_r = cfg_i;
  end else begin : loaded
    always_ff @(posedge clk_i) begin
      if (reset_i) cfg_r <= cfg_i;
    end
  end
endmodule
