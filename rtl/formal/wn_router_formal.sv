`include "wn_flit.svh"
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
  input logic         clk_i,
  input logic         reset_i,
  input logic [`WN_DEST_W-1:0] addr_i,   // the node address, sampled during reset like the router's
  input logic [3:0]   in_valid_i,
  input logic [4*8-1:0] in_flit_bits_i,
  input logic [3:0]   out_credit_i,
  input logic [7:0]   out_credit_vc_i,
  input logic [3:0]   inj_valid_i,
  input logic [4*8-1:0] inj_flit_bits_i
);
  localparam int P = 4, V = 2, B = 2, W = 64;
  // Flits carry their low 8 bits from the pins (type, vc and the 4x4 dest);
  // the rest is zero, so synthesis folds it and the solver sees 8-bit flits.
  localparam int F = 8;
  logic [P*W-1:0] in_flit_i, inj_flit_i;
  for (genvar p = 0; p < P; p++) begin : widen
    assign in_flit_i[p*W +: W] = W'(in_flit_bits_i[p*F +: F]);
    assign inj_flit_i[p*W +: W] = W'(inj_flit_bits_i[p*F +: F]);
  end
  logic [`WN_DEST_W-1:0] addr;
  logic started_r = 1'b0;
  always_ff @(posedge clk_i) begin
    started_r <= 1'b1;
    if (reset_i) addr <= addr_i;
  end

  logic [3:0] in_credit, out_valid, inj_credit, ej_valid;
  logic [7:0] in_credit_vc;
  logic [255:0] out_flit, ej_flit;
  logic [39:0] from_port;
  logic [15:0] from_vc;
  logic busy;
  wn_router #(.ports_p(P), .vcs_max_p(V), .buf_max_p(B), .inj_p(inj_p), .ej_p(inj_p)) dut (
    .clk_i, .reset_i, .cfg_vcs_i(3'(V)), .cfg_buf_i(5'(B)), .cfg_inj_i(4'(inj_p)), .cfg_ej_i(4'(inj_p)),
    .cfg_ports_i(4'(P)), .cfg_kind_i(2'(kind_p)), .cfg_ndims_i(kind_p == 2 ? 4'd4 : 4'd2), .cfg_addr_i(addr_i),
    .cfg_k0_i(12'd4), .cfg_k1_i(12'd4), .cfg_k2_i(12'd1), .cfg_w0_i(4'd2), .cfg_w1_i(4'd2), .cfg_w2_i(4'd0),
    .cfg_dateline_i(kind_p == 1), .in_valid_i, .in_flit_i, .in_credit_o(in_credit), .in_credit_vc_o(in_credit_vc),
    .out_valid_o(out_valid), .out_flit_o(out_flit), .out_credit_i, .out_credit_vc_i,
    .inj_valid_i, .inj_flit_i, .inj_credit_o(inj_credit), .ej_valid_o(ej_valid), .ej_flit_o(ej_flit),
    .obs_from_port_o(from_port), .obs_from_vc_o(from_vc), .busy_o(busy));

  always @(*) begin
    assume (reset_i == !started_r);  // reset in the first cycle only
    assume (addr_i[`WN_DEST_W-1:4] == '0);
  end

  // ---- upstream neighbours: credits and packet framing per input VC ----
  for (genvar p = 0; p < P; p++) begin : up
    for (genvar v = 0; v < V; v++) begin : vc
      // Counted like the input unit's own FORMAL shadow (flits sent whose
      // credit has not come back), so the two are one register to the prover.
      logic [4:0] owed_r;
      logic open_r;
      logic arrive, ret;
      logic [W-1:0] f;
      assign f = in_flit_i[p*W +: W];
      assign arrive = in_valid_i[p] && f[`WN_VC_LSB +: `WN_VC_W] == 2'(v);
      assign ret = in_credit[p] && in_credit_vc[p*2 +: 2] == 2'(v);
      always @(*) if (!reset_i) begin
        if (arrive) assume (owed_r < 5'(B) && f[`WN_HEAD_BIT] != open_r);
        if (arrive && f[`WN_HEAD_BIT]) assume (f[`WN_DEST_LSB+4 +: `WN_DEST_W-4] == '0);
        assert (!(ret && owed_r == 5'd0));   // no credit returned for a flit not received
      end
      always_ff @(posedge clk_i) begin
        if (reset_i) begin
          owed_r <= '0;
          open_r <= 1'b0;
        end else begin
          owed_r <= owed_r + 5'(arrive) - 5'(ret);
          if (arrive) open_r <= !f[`WN_TAIL_BIT];
        end
      end
    end
    always @(*) if (!reset_i && in_valid_i[p]) assume (in_flit_i[p*W + `WN_VC_LSB +: `WN_VC_W] < 2'(V));
  end

  // ---- the node's NI: injection credits and framing per channel ----
  for (genvar i = 0; i < P; i++) begin : ni
    logic [4:0] owed_r;   // flits injected whose credit has not come back
    logic open_r;
    logic [W-1:0] f;
    assign f = inj_flit_i[i*W +: W];
    always @(*) if (!reset_i && inj_valid_i[i]) begin
      assume (i < inj_p && owed_r < 5'(B) && f[`WN_HEAD_BIT] != open_r);
      if (f[`WN_HEAD_BIT]) assume (f[`WN_DEST_LSB+4 +: `WN_DEST_W-4] == '0);
    end
    always @(*) if (!reset_i) assert (!(inj_credit[i] && owed_r == 5'd0));
    always_ff @(posedge clk_i) begin
      if (reset_i) begin
        owed_r <= '0;
        open_r <= 1'b0;
      end else begin
        owed_r <= owed_r + 5'(inj_valid_i[i]) - 5'(inj_credit[i]);
        if (inj_valid_i[i]) open_r <= !f[`WN_TAIL_BIT];
      end
    end
  end

  // ---- downstream neighbours: flits sent on an output VC never exceed its buffer ----
  for (genvar o = 0; o < P; o++) begin : down
    for (genvar w = 0; w < V; w++) begin : vc
      logic [4:0] owed_r;   // flits sent on (o, w) whose credit has not come back (as the output unit counts)
      logic sent, back;
      assign sent = out_valid[o] && out_flit[o*W + `WN_VC_LSB +: `WN_VC_W] == 2'(w);
      assign back = out_credit_i[o] && out_credit_vc_i[o*2 +: 2] == 2'(w);
      always @(*) if (!reset_i) begin
        if (back) assume (owed_r != 5'd0);
        assert (owed_r + 5'(sent) <= 5'(B));
      end
      always_ff @(posedge clk_i) begin
        if (reset_i) owed_r <= '0;
        else owed_r <= owed_r + 5'(sent) - 5'(back);
      end
    end
    always @(*) if (!reset_i && out_credit_i[o]) assume (out_credit_vc_i[o*2 +: 2] < 2'(V));
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
  logic [`WN_DEST_W-1:0] in_total_r, out_total_r;
  always @(*) if (!reset_i) begin
`ifdef WN_FORMAL_TOTALS
    assert (out_total_r <= in_total_r);               // no flit invented or duplicated
`endif
    for (int o = 0; o < P; o++)
      if (out_valid[o] && out_flit[o*W + `WN_HEAD_BIT]) begin
        assert (out_flit[o*W + `WN_DEST_LSB +: 4] != addr[3:0]);
        assert (3'(o) == expect_port(out_flit[o*W + `WN_DEST_LSB +: 4], addr[3:0]));
        if (kind_p == 1)   // dateline class: VC 1 once the packet crossed a wrap-around link of this dimension
          assert (out_flit[o*W + `WN_VC_LSB] ==
                  ((from_port[o*5 +: 5] < 5'(P) && from_port[o*5+1 +: 4] == 4'(o / 2) && from_vc[o*2 +: 2] != 2'd0) ||
                   (o % 2 == 0 ? (o < 2 ? addr[1:0] == 2'd3 : addr[3:2] == 2'd3)
                               : (o < 2 ? addr[1:0] == 2'd0 : addr[3:2] == 2'd0))));
      end
    for (int j = 0; j < P; j++)
      if (ej_valid[j] && ej_flit[j*W + `WN_HEAD_BIT]) assert (ej_flit[j*W + `WN_DEST_LSB +: `WN_DEST_W] == addr);
  end
  always_ff @(posedge clk_i) begin
    if (reset_i) begin
      in_total_r <= '0;
      out_total_r <= '0;
    end else begin
      in_total_r <= in_total_r + `WN_DEST_W'($countones(in_valid_i)) + `WN_DEST_W'($countones(inj_valid_i));
      out_total_r <= out_total_r + `WN_DEST_W'($countones(out_valid)) + `WN_DEST_W'($countones(ej_valid));
    end
  end
  logic unused;
  assign unused = busy ^ (^from_vc) ^ (^from_port);
endmodule
