// wn_cfg_reg: configuration registers, loaded while reset_i is high.
// rtl/README.md §2 makes the configuration static and stable during reset,
// so the router samples it once. Besides being the usual hardware practice,
// this makes every allocator input a register: the verilated model then
// evaluates the allocation logic once per clock edge instead of also on
// every input change.
// Three fields pass straight through: the output units load their credits
// from buf_depth at the reset edge itself (one reset cycle must be enough),
// and inj / ports only mask the input valids, which are low during reset.
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
  wn_pkg::cfg_s held;
  if (static_p != 0) begin : fixed
    logic unused_clk_reset;
    assign unused_clk_reset = clk_i ^ reset_i;
    assign held = cfg_i;
  end else begin : loaded
    always_ff @(posedge clk_i) begin
      if (reset_i) held <= cfg_i;
    end
  end
  // (members are read out here: yosys 0.23 does not resolve them inside a generate block)
  always_comb begin
    cfg_r = held;
    cfg_r.buf_depth = cfg_i.buf_depth;
    cfg_r.inj = cfg_i.inj;
    cfg_r.ports = cfg_i.ports;
  end
  logic unused_held;  // the pass-through fields' registers (synthesis drops them)
  assign unused_held = ^{held.buf_depth, held.inj, held.ports};
endmodule
