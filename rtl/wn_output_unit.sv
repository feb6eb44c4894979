// One output: the output register (a one-cycle pulse, rtl/README.md §4.5)
// and, for a network output, per-VC credit counters and ownership bits; for an
// ejection channel, one ownership bit (the NI always accepts).
module wn_output_unit #(
  parameter int vcs_max_p = wn_pkg::max_vcs_gp,
  parameter bit is_eject_p = 1'b0
) (
  input  logic clk_i,
  input  logic reset_i,
  input  wn_pkg::cfg_s cfg_i,
  // from the crossbar
  input  logic                 valid_i,
  input  wn_pkg::flit_t        flit_i,
  input  wn_pkg::vc_t          out_vc_i,
  input  wn_pkg::out_code_t    from_i,
  input  wn_pkg::vc_t          from_vc_i,
  // from VC allocation
  input  logic [vcs_max_p-1:0] set_busy_i,
  // credits from downstream
  input  logic                 credit_i,
  input  wn_pkg::vc_t          credit_vc_i,
  output logic [vcs_max_p-1:0] busy_o,
  output logic [vcs_max_p-1:0] credit_ok_o,
  // registered output
  output logic                 valid_o,
  output wn_pkg::flit_t        flit_o,
  output wn_pkg::out_code_t    from_o,
  output wn_pkg::vc_t          from_vc_o
`ifdef FORMAL
  // per output VC, for the router-level lemmas (rtl/formal/wn_router_lemmas.sv)
  , output logic [vcs_max_p-1:0]                           fv_open_o
  , output logic [vcs_max_p*wn_pkg::out_code_width_gp-1:0] fv_owner_o
  , output logic [vcs_max_p*wn_pkg::vc_width_gp-1:0]       fv_owner_vc_o
`endif
);
  localparam int vw_lp = wn_pkg::vc_width_gp;
  localparam int cw_lp = wn_pkg::cfg_buf_width_gp;
  localparam int vc_lsb_lp = wn_pkg::flit_vc_lsb_gp;
  wn_pkg::buf_count_t credits_r [vcs_max_p];
  logic [vcs_max_p-1:0] busy_r;
  logic tail;
  wn_pkg::vc_t vc;
  assign tail = valid_i && flit_i[wn_pkg::flit_tail_bit_gp];
  assign vc = is_eject_p ? '0 : out_vc_i;
  wn_pkg::vc_t unused_in_vc;  // the VC field is rewritten on the way out
  assign unused_in_vc = flit_i[vc_lsb_lp +: wn_pkg::flit_vc_width_gp];
  // Every unit takes the whole configuration; this one reads buf_depth only (the rest is
  // named here for lint, synthesis drops it).
  logic unused_cfg;
  assign unused_cfg = ^{cfg_i.vcs, cfg_i.inj, cfg_i.ej, cfg_i.ports, cfg_i.kind, cfg_i.ndims, cfg_i.addr,
                        cfg_i.k, cfg_i.w, cfg_i.dateline};

  for (genvar w = 0; w < vcs_max_p; w++) begin : ovc
    logic dec, inc;
    assign dec = !is_eject_p && valid_i && out_vc_i == vw_lp'(w);
    assign inc = !is_eject_p && credit_i && credit_vc_i == vw_lp'(w);
    always_ff @(posedge clk_i) begin
      if (reset_i) begin
        credits_r[w] <= cfg_i.buf_depth;
        busy_r[w] <= 1'b0;
      end else begin
        credits_r[w] <= credits_r[w] + cw_lp'(inc) - cw_lp'(dec);
        if (set_busy_i[w]) busy_r[w] <= 1'b1;
        else if (tail && vc == vw_lp'(w)) busy_r[w] <= 1'b0;
      end
    end
    assign credit_ok_o[w] = credits_r[w] != '0;
  end
  assign busy_o = busy_r;

  // Decoded for waveforms only: the head fields of the flit in the output
  // register (meaningful on head flits), so contention (the step tag) and
  // destinations can be read off a trace.
  wn_pkg::head_flit_s wave_head_unused;
  assign wave_head_unused = flit_o;

  always_ff @(posedge clk_i) begin
    if (reset_i) begin
      valid_o <= 1'b0;
      flit_o <= '0;
      from_o <= '0;
      from_vc_o <= '0;
    end else begin
      valid_o <= valid_i;
      if (valid_i) begin
        flit_o <= {flit_i[wn_pkg::flit_width_gp-1:vc_lsb_lp+wn_pkg::flit_vc_width_gp], vc, flit_i[vc_lsb_lp-1:0]};
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
  wn_pkg::out_code_t owner_r [vcs_max_p];
  wn_pkg::vc_t owner_vc_r [vcs_max_p];
  for (genvar w = 0; w < vcs_max_p; w++) begin : fv
    always @(*) if (!reset_i) begin
      if (!is_eject_p) assert (credits_r[w] <= cfg_i.buf_depth);
      if (!is_eject_p && valid_i && out_vc_i == vw_lp'(w)) assert (credits_r[w] != '0);
      if (valid_i && vc == vw_lp'(w)) begin
        assert (busy_r[w]);
        if (open_r[w]) assert (owner_r[w] == from_i && owner_vc_r[w] == from_vc_i);
        assert (flit_i[wn_pkg::flit_head_bit_gp] != open_r[w]);  // a head starts a packet, nothing else does
      end
    end
    // The credit loop's conservation law, stated so that an unbounded proof can
    // use it (rtl/README.md §9): flits that left the output register and whose
    // credit has not come back, the flit in the register, and the credits add
    // up to the downstream buffer depth.
    wn_pkg::buf_count_t owed_r;
    logic sent, back;
    assign sent = valid_o && flit_o[vc_lsb_lp +: wn_pkg::flit_vc_width_gp] == vw_lp'(w);
    assign back = credit_i && credit_vc_i == vw_lp'(w);
    always @(*) if (!reset_i && !is_eject_p)
      assert (owed_r + credits_r[w] + cw_lp'(sent) == cfg_i.buf_depth);
    always_ff @(posedge clk_i) begin
      if (reset_i) owed_r <= '0;
      else owed_r <= owed_r + cw_lp'(sent) - cw_lp'(back);
    end
    always_ff @(posedge clk_i) begin
      if (reset_i) open_r[w] <= 1'b0;
      else if (valid_i && vc == vw_lp'(w)) begin
        open_r[w] <= !flit_i[wn_pkg::flit_tail_bit_gp];
        owner_r[w] <= from_i;
        owner_vc_r[w] <= from_vc_i;
      end
    end
    assign fv_open_o[w] = open_r[w];
    assign fv_owner_o[w*wn_pkg::out_code_width_gp +: wn_pkg::out_code_width_gp] = owner_r[w];
    assign fv_owner_vc_o[w*vw_lp +: vw_lp] = owner_vc_r[w];
  end
`endif
endmodule
