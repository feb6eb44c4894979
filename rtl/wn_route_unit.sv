// Routing function of rtl/README.md §3 for one input VC's head flit:
// dimension order on meshes, shortest direction with dateline VC classes on
// tori, e-cube on hypercubes. Combinational; recomputed while the head waits.
`include "wn_flit.svh"
module wn_route_unit #(
  parameter int out_w_p = 5
) (
  input  logic [1:0]  cfg_kind_i,      // 0 mesh, 1 torus, 2 cube
  input  logic [3:0]  cfg_ndims_i,
  input  logic [2:0]  cfg_vcs_i,
  input  logic [`WN_DEST_W-1:0] cfg_addr_i,
  input  logic [11:0] cfg_k0_i, cfg_k1_i, cfg_k2_i,
  input  logic [3:0]  cfg_w0_i, cfg_w1_i, cfg_w2_i,
  input  logic        cfg_dateline_i,
  input  logic [`WN_DEST_W-1:0] dest_i,
  input  logic        from_net_i,      // 0: injection channel
  input  logic [2:0]  in_dim_i,        // dimension of the network input port (port / 2)
  input  logic [1:0]  in_vc_i,
  output logic        eject_o,
  output logic [out_w_p-1:0] out_o,
  output logic [1:0]  vc_lo_o,
  output logic [1:0]  vc_hi_o
);
  localparam int kind_mesh_lp = 0, kind_torus_lp = 1;
  localparam int aw_lp = `WN_DEST_W;         // address bits (rtl/README.md §3)
  localparam int dw_lp = aw_lp + 2;          // torus offset d - c (+ k), and twice it

  logic [11:0] k [3];
  logic [3:0]  lsb [3];
  logic [3:0]  w [3];
  logic [aw_lp-1:0] d [3], c [3];
  logic [aw_lp-1:0] diff;
  logic        found, plus, cls;
  logic [1:0]  dim;
  logic [2:0]  half;
  logic [dw_lp-1:0] delta;

  always_comb begin
    k[0] = cfg_k0_i;
    k[1] = cfg_k1_i;
    k[2] = cfg_k2_i;
    w[0] = cfg_w0_i;
    w[1] = cfg_w1_i;
    w[2] = cfg_w2_i;
    lsb[0] = 4'd0;
    lsb[1] = cfg_w0_i;
    lsb[2] = cfg_w0_i + cfg_w1_i;
    for (int i = 0; i < 3; i++) begin
      d[i] = (dest_i >> lsb[i]) & ((aw_lp'(1) << w[i]) - aw_lp'(1));
      c[i] = (cfg_addr_i >> lsb[i]) & ((aw_lp'(1) << w[i]) - aw_lp'(1));
    end
    half = cfg_vcs_i >> 1;
    eject_o = 1'b1;
    out_o = '0;
    vc_lo_o = 2'd0;
    vc_hi_o = 2'(cfg_vcs_i - 3'd1);
    found = 1'b0;
    plus = 1'b0;
    dim = 2'd0;
    delta = '0;
    cls = 1'b0;
    diff = (dest_i ^ cfg_addr_i) & ((aw_lp'(1) << cfg_ndims_i) - aw_lp'(1));
    if (cfg_kind_i == 2'd2) begin
      // e-cube: lowest differing address bit first
      for (int b = aw_lp - 1; b >= 0; b--) begin
        if (diff[b]) begin
          eject_o = 1'b0;
          out_o = out_w_p'(b);
        end
      end
    end else begin
      for (int i = 2; i >= 0; i--) begin
        if (i < (cfg_ndims_i) && d[i] != c[i]) begin
          found = 1'b1;
          dim = 2'(i);
        end
      end
      if (found) begin
        eject_o = 1'b0;
        if (cfg_kind_i == 2'(kind_mesh_lp)) begin
          plus = d[dim] > c[dim];
        end else begin
          delta = (d[dim] >= c[dim]) ? dw_lp'(d[dim]) - dw_lp'(c[dim])
                                     : dw_lp'(d[dim]) + dw_lp'(k[dim]) - dw_lp'(c[dim]);
          plus = (delta << 1) <= dw_lp'(k[dim]);  // ties (exactly k/2) go +
        end
        out_o = out_w_p'({dim, ~plus});       // port 2*dim is +, 2*dim+1 is -
        if (cfg_kind_i == 2'(kind_torus_lp) && cfg_dateline_i) begin
          // Class continues within a dimension from an upper-half VC; it is 1
          // from the hop that crosses the wrap-around link on.
          cls = from_net_i && (in_dim_i == 3'(dim)) && (3'(in_vc_i) >= half);
          if (plus ? (12'(c[dim]) == k[dim] - 12'd1) : (c[dim] == '0)) cls = 1'b1;
          vc_lo_o = cls ? half[1:0] : 2'd0;
          vc_hi_o = cls ? 2'(cfg_vcs_i - 3'd1) : 2'(half - 3'd1);
        end
      end
    end
  end
endmodule
