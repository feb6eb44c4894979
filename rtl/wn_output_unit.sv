`include "wn_flit.svh"
// One output: the output register (a one-cycle pulse, rtl/README.md §4.5)
// and, for a network output, per-VC credit counters and ownership bits; for an
// ejection channel, one ownership bit (the NI always accepts).
module wn_output_unit #(
  parameter int vcs_max_p = 4,
  parameter int flit_width_p = 64,
  parameter bit is_eject_p = 1'b0,
  parameter int out_w_p = 5
) (
  input  logic clk_i,
  input  logic reset_i,
  input  logic [4:0] cfg_buf_i,
  // from the crossbar
  input  logic                    valid_i,
  input  logic [flit_width_p-1:0] flit_i,
  input  logic [1:0]              out_vc_i,
  input  logic [out_w_p-1:0]      from_i,
  input  logic [1:0]              from_vc_i,
  // from VC allocation
  input  logic [vcs_max_p-1:0]    set_busy_i,
  // credits from downstream
  input  logic                    credit_i,
  input  logic [1:0]              credit_vc_i,
  output logic [vcs_max_p-1:0]    busy_o,
  output logic [vcs_max_p-1:0]    credit_ok_o,
  // registered output
  output logic                    valid_o,
  output logic [flit_width_p-1:0] flit_o,
  output logic [out_w_p-1:0]      from_o,
  output logic [1:0]              from_vc_o
`ifdef FORMAL
  // per output VC, for the router-level lemmas (rtl/formal/wn_router_lemmas.sv)
  , output logic [vcs_max_p-1:0]         fv_open_o
  , output logic [vcs_max_p*out_w_p-1:0] fv_owner_o
  , output logic [vcs_max_p*2-1:0]       fv_owner_vc_o
`endif
);
  logic [4:0] credits_r [vcs_max_p];
  logic [vcs_max_p-1:0] busy_r;
  logic tail;
  logic [1:0] vc;
  assign tail = valid_i && flit_i[`WN_TAIL_BIT];
  assign vc = is_eject_p ? 2'd0 : out_vc_i;
  logic [1:0] unused_in_vc;  // the VC field is rewritten on the way out
  assign unused_in_vc = flit_i[`WN_VC_LSB +: `WN_VC_W];

  for (genvar w = 0; w < vcs_max_p; w++) begin : ovc
    logic dec, inc;
    assign dec = !is_eject_p && valid_i && out_vc_i == 2'(w);
    assign inc = !is_eject_p && credit_i && credit_vc_i == 2'(w);
    always_ff @(posedge clk_i) begin
      if (reset_i) begin
        credits_r[w] <= cfg_buf_i;
        busy_r[w] <= 1'b0;
      end else begin
        credits_r[w] <= credits_r[w] + 5'(inc) - 5'(dec);
        if (set_busy_i[w]) busy_r[w] <= 1'b1;
        else if (tail && vc == 2'(w)) busy_r[w] <= 1'b0;
      end
    end
    assign credit_ok_o[w] = credits_r[w] != 5'd0;
  end
  assign busy_o = busy_r;

  // Decoded for waveforms only: the step tag carried by the flit in the output
  // register (meaningful on head flits), so contention can be read off a trace.
  logic [`WN_STEP_W-1:0] wave_step_unused;
  assign wave_step_unused = flit_o[`WN_STEP_LSB +: `WN_STEP_W];

  always_ff @(posedge clk_i) begin
    if (reset_i) begin
      valid_o <= 1'b0;
      flit_o <= '0;
      from_o <= '0;
      from_vc_o <= '0;
    end else begin
      valid_o <= valid_i;
      if (valid_i) begin
        flit_o <= {flit_i[flit_width_p-1:`WN_VC_LSB+`WN_VC_W], vc, flit_i[`WN_VC_LSB-1:0]};
        from_o <= from_i;
        from_vc_o <= from_vc_i;
      end
    end
  end
`ifdef FORMAL
  // Credits stay within 0..buffer depth; a flit leaves only with a credit, on an
  // output VC its packet owns; one input VC owns the output VC from head to tail
  // (owner_r: the input port and VC of the packet on the VC, set by its head).
  logic [vcs_max_p-1:0] open_r;
  logic [out_w_p-1:0] owner_r [vcs_max_p];
  logic [1:0] owner_vc_r [vcs_max_p];
  for (genvar w = 0; w < vcs_max_p; w++) begin : fv
    always @(*) if (!reset_i) begin
      if (!is_eject_p) assert (credits_r[w] <= cfg_buf_i);
      if (!is_eject_p && valid_i && out_vc_i == 2'(w)) assert (credits_r[w] != 5'd0);
      if (valid_i && vc == 2'(w)) begin
        assert (busy_r[w]);
        if (open_r[w]) assert (owner_r[w] == from_i && owner_vc_r[w] == from_vc_i);
        assert (flit_i[`WN_HEAD_BIT] != open_r[w]);  // a head starts a packet, nothing else does
      end
    end
    // The credit loop's conservation law, stated so that an unbounded proof can
    // use it (rtl/README.md §9): flits that left the output register and whose
    // credit has not come back, the flit in the register, and the credits add
    // up to the downstream buffer depth.
    logic [4:0] owed_r;
    logic sent, back;
    assign sent = valid_o && flit_o[`WN_VC_LSB +: `WN_VC_W] == 2'(w);
    assign back = credit_i && credit_vc_i == 2'(w);
    always @(*) if (!reset_i && !is_eject_p)
      assert (owed_r + credits_r[w] + 5'(sent) == cfg_buf_i);
    always_ff @(posedge clk_i) begin
      if (reset_i) owed_r <= '0;
      else owed_r <= owed_r + 5'(sent) - 5'(back);
    end
    always_ff @(posedge clk_i) begin
      if (reset_i) open_r[w] <= 1'b0;
      else if (valid_i && vc == 2'(w)) begin
        open_r[w] <= !flit_i[`WN_TAIL_BIT];
        owner_r[w] <= from_i;
        owner_vc_r[w] <= from_vc_i;
      end
    end
    assign fv_open_o[w] = open_r[w];
    assign fv_owner_o[w*out_w_p +: out_w_p] = owner_r[w];
    assign fv_owner_vc_o[w*2 +: 2] = owner_vc_r[w];
  end
`endif
endmodule
