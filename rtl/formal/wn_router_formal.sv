// Formal harness (scripts/rtl_formal.sh, rtl/README.md §9): a radix-4 router,
// 2 VCs x 2 flits, 4x4 mesh or torus or the 4-cube, one-port (inj_p = 1) or all-port (4),
// at an arbitrary node address. Every router input is free except for what the
// neighbours and the NI promise (assume): a flit on a VC only with a credit,
// packets framed head..tail per VC and channel, credits returned only for flits
// received. The asserts here check the router from its pins; the units assert
// their own invariants under `FORMAL` (FIFOs, credits, VC ownership, grants).
module wn_router_formal #(
  parameter int inj_p = 1,
  parameter int kind_p = 0   // 0 mesh, 1 torus (dateline VC classes), 2 hypercube (cube:4, e-cube)
) (
  input logic          clk_i,
  input logic          reset_i,
  input wn_pkg::addr_t addr_i,   // the node address, sampled during reset like the router's
  // four ports, each flit's bits up to the 4x4 destination (F below)
  input logic [3:0]    in_valid_i,
  input logic [4*(wn_pkg::flit_dest_lsb_gp+4)-1:0] in_flit_bits_i,
  input logic [3:0]    out_credit_i,
  input logic [4*wn_pkg::vc_width_gp-1:0] out_credit_vc_i,
  input logic [3:0]    inj_valid_i,
  input logic [4*(wn_pkg::flit_dest_lsb_gp+4)-1:0] inj_flit_bits_i
);
  localparam int P = 4, V = 2, B = 2, W = wn_pkg::flit_width_gp;
  localparam int VW = wn_pkg::vc_width_gp, OW = wn_pkg::out_code_width_gp, CW = wn_pkg::cfg_buf_width_gp;
  localparam int VC = wn_pkg::flit_vc_lsb_gp, DEST = wn_pkg::flit_dest_lsb_gp;
  localparam int HEAD = wn_pkg::flit_head_bit_gp, TAIL = wn_pkg::flit_tail_bit_gp;
  // Flits carry their low F bits from the pins (type, vc and the 4x4 dest);
  // the rest is zero, so synthesis folds it and the solver sees F-bit flits.
  localparam int F = DEST + 4;
  logic [P*W-1:0] in_flit_i, inj_flit_i;
  for (genvar p = 0; p < P; p++) begin : widen
    assign in_flit_i[p*W +: W] = W'(in_flit_bits_i[p*F +: F]);
    assign inj_flit_i[p*W +: W] = W'(inj_flit_bits_i[p*F +: F]);
  end
  wn_pkg::addr_t addr;
  logic started_r = 1'b0;
  always_ff @(posedge clk_i) begin
    started_r <= 1'b1;
    if (reset_i) addr <= addr_i;
  end

  logic [P-1:0] in_credit, out_valid, inj_credit, ej_valid;
  logic [P*VW-1:0] in_credit_vc;
  logic [P*W-1:0] out_flit, ej_flit;
  logic [2*P*OW-1:0] from_port;
  logic [2*P*VW-1:0] from_vc;
  logic busy;
  // 4x4 mesh or torus (2 + 2 address bits), or the 4-cube
  wn_pkg::cfg_s cfg;
  always_comb begin
    cfg = '0;
    cfg.vcs = wn_pkg::cfg_vcs_width_gp'(V);
    cfg.buf_depth = CW'(B);
    cfg.inj = wn_pkg::port_count_width_gp'(inj_p);
    cfg.ej = wn_pkg::port_count_width_gp'(inj_p);
    cfg.ports = wn_pkg::port_count_width_gp'(P);
    cfg.kind = wn_pkg::kind_width_gp'(kind_p);
    cfg.ndims = wn_pkg::port_count_width_gp'(kind_p == wn_pkg::kind_cube_gp ? 4 : 2);
    cfg.addr = addr_i;
    cfg.k[0] = wn_pkg::radix_width_gp'(4);
    cfg.k[1] = wn_pkg::radix_width_gp'(4);
    cfg.k[2] = wn_pkg::radix_width_gp'(1);
    cfg.w[0] = wn_pkg::dim_bits_width_gp'(2);
    cfg.w[1] = wn_pkg::dim_bits_width_gp'(2);
    cfg.w[2] = '0;
    cfg.dateline = kind_p == wn_pkg::kind_torus_gp;
  end
  wn_router #(.ports_p(P), .vcs_max_p(V), .buf_max_p(B), .inj_p(inj_p), .ej_p(inj_p)) dut (
    .clk_i, .reset_i, .cfg_i(cfg), .in_valid_i, .in_flit_i, .in_credit_o(in_credit), .in_credit_vc_o(in_credit_vc),
    .out_valid_o(out_valid), .out_flit_o(out_flit), .out_credit_i, .out_credit_vc_i,
    .inj_valid_i, .inj_flit_i, .inj_credit_o(inj_credit), .ej_valid_o(ej_valid), .ej_flit_o(ej_flit),
    .obs_from_port_o(from_port), .obs_from_vc_o(from_vc), .busy_o(busy));

  always @(*) begin
    assume (reset_i == !started_r);  // reset in the first cycle only
    assume (addr_i[wn_pkg::addr_width_gp-1:4] == '0);
  end

  // ---- upstream neighbours: credits and packet framing per input VC ----
  for (genvar p = 0; p < P; p++) begin : up
    for (genvar v = 0; v < V; v++) begin : vc
      // Counted like the input unit's own FORMAL shadow (flits sent whose
      // credit has not come back), so the two are one register to the prover.
      logic [CW-1:0] owed_r;
      logic open_r;
      logic arrive, ret;
      logic [W-1:0] f;
      assign f = in_flit_i[p*W +: W];
      assign arrive = in_valid_i[p] && f[VC +: VW] == VW'(v);
      assign ret = in_credit[p] && in_credit_vc[p*VW +: VW] == VW'(v);
      always @(*) if (!reset_i) begin
        if (arrive) assume (owed_r < CW'(B) && f[HEAD] != open_r);
        if (arrive && f[HEAD]) assume (f[DEST+4 +: wn_pkg::flit_dest_width_gp-4] == '0);
        assert (!(ret && owed_r == '0));   // no credit returned for a flit not received
      end
      always_ff @(posedge clk_i) begin
        if (reset_i) begin
          owed_r <= '0;
          open_r <= 1'b0;
        end else begin
          owed_r <= owed_r + CW'(arrive) - CW'(ret);
          if (arrive) open_r <= !f[TAIL];
        end
      end
    end
    always @(*) if (!reset_i && in_valid_i[p]) assume (in_flit_i[p*W + VC +: VW] < VW'(V));
  end

  // ---- the node's NI: injection credits and framing per channel ----
  for (genvar i = 0; i < P; i++) begin : ni
    logic [CW-1:0] owed_r;   // flits injected whose credit has not come back
    logic open_r;
    logic [W-1:0] f;
    assign f = inj_flit_i[i*W +: W];
    always @(*) if (!reset_i && inj_valid_i[i]) begin
      assume (i < inj_p && owed_r < CW'(B) && f[HEAD] != open_r);
      if (f[HEAD]) assume (f[DEST+4 +: wn_pkg::flit_dest_width_gp-4] == '0);
    end
    always @(*) if (!reset_i) assert (!(inj_credit[i] && owed_r == '0));
    always_ff @(posedge clk_i) begin
      if (reset_i) begin
        owed_r <= '0;
        open_r <= 1'b0;
      end else begin
        owed_r <= owed_r + CW'(inj_valid_i[i]) - CW'(inj_credit[i]);
        if (inj_valid_i[i]) open_r <= !f[TAIL];
      end
    end
  end

  // ---- downstream neighbours: flits sent on an output VC never exceed its buffer ----
  for (genvar o = 0; o < P; o++) begin : down
    for (genvar w = 0; w < V; w++) begin : vc
      logic [CW-1:0] owed_r;   // flits sent on (o, w) whose credit has not come back (as the output unit counts)
      logic sent, back;
      assign sent = out_valid[o] && out_flit[o*W + VC +: VW] == VW'(w);
      assign back = out_credit_i[o] && out_credit_vc_i[o*VW +: VW] == VW'(w);
      always @(*) if (!reset_i) begin
        if (back) assume (owed_r != '0);
        assert (owed_r + CW'(sent) <= CW'(B));
      end
      always_ff @(posedge clk_i) begin
        if (reset_i) owed_r <= '0;
        else owed_r <= owed_r + CW'(sent) - CW'(back);
      end
    end
    always @(*) if (!reset_i && out_credit_i[o]) assume (out_credit_vc_i[o*VW +: VW] < VW'(V));
  end

  // ---- routing: every head leaves where rtl/README.md §3 sends it ----
  function automatic logic [2:0] expect_port(input logic [3:0] d, input logic [3:0] c);
    logic [1:0] dim;
    logic [1:0] dd, cc, delta;
    logic plus;
    dim = (d[1:0] != c[1:0]) ? 2'd0 : 2'd1;
    dd = dim == 2'd0 ? d[1:0] : d[3:2];
    cc = dim == 2'd0 ? c[1:0] : c[3:2];
    delta = dd - cc;                                  // mod 4
    plus = kind_p == 1 ? (delta == 2'd1 || delta == 2'd2) : dd > cc;
    expect_port = {dim, 1'b0} + 3'(!plus);
    if (kind_p == 2)   // e-cube: the lowest address bit that differs
      expect_port = d[0] != c[0] ? 3'd0 : d[1] != c[1] ? 3'd1 : d[2] != c[2] ? 3'd2 : 3'd3;
  endfunction
  localparam int TW = 12;   // flit totals over a proof's depth
  logic [TW-1:0] in_total_r, out_total_r;
  always @(*) if (!reset_i) begin
`ifdef WN_FORMAL_TOTALS
    assert (out_total_r <= in_total_r);               // no flit invented or duplicated
`endif
    for (int o = 0; o < P; o++)
      if (out_valid[o] && out_flit[o*W + HEAD]) begin
        assert (out_flit[o*W + DEST +: 4] != addr[3:0]);
        assert (3'(o) == expect_port(out_flit[o*W + DEST +: 4], addr[3:0]));
        if (kind_p == 1)   // dateline class: VC 1 once the packet crossed a wrap-around link of this dimension
          assert (out_flit[o*W + VC] ==
                  ((from_port[o*OW +: OW] < OW'(P) && from_port[o*OW+1 +: OW-1] == (OW-1)'(o / 2) &&
                    from_vc[o*VW +: VW] != '0) ||
                   (o % 2 == 0 ? (o < 2 ? addr[1:0] == 2'd3 : addr[3:2] == 2'd3)
                               : (o < 2 ? addr[1:0] == 2'd0 : addr[3:2] == 2'd0))));
      end
    for (int j = 0; j < P; j++)
      if (ej_valid[j] && ej_flit[j*W + HEAD]) assert (ej_flit[j*W + DEST +: wn_pkg::flit_dest_width_gp] == addr);
  end
  always_ff @(posedge clk_i) begin
    if (reset_i) begin
      in_total_r <= '0;
      out_total_r <= '0;
    end else begin
      in_total_r <= in_total_r + TW'($countones(in_valid_i)) + TW'($countones(inj_valid_i));
      out_total_r <= out_total_r + TW'($countones(out_valid)) + TW'($countones(ej_valid));
    end
  end
  logic unused;
  assign unused = busy ^ (^from_vc) ^ (^from_port);
endmodule
