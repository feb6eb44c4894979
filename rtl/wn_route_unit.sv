// Routing function of rtl/README.md §3 for one input VC's head flit:
// dimension order on meshes, shortest direction with dateline VC classes on
// tori, e-cube on hypercubes. Combinational; recomputed while the head waits.
module wn_route_unit (
  input  wn_pkg::cfg_s       cfg_i,
  input  logic               en_i,        // a head waits for VC allocation: the outputs are read
  input  wn_pkg::addr_t      dest_i,
  input  logic               from_net_i,  // 0: injection channel
  input  logic [wn_pkg::port_dim_width_gp-1:0] in_dim_i,  // dimension of the network input port (port / 2)
  input  wn_pkg::vc_t        in_vc_i,
  output logic               eject_o,
  output wn_pkg::out_code_t  out_o,
  output wn_pkg::vc_t        vc_lo_o,
  output wn_pkg::vc_t        vc_hi_o
);
  localparam int aw_lp = wn_pkg::addr_width_gp;
  localparam int dw_lp = aw_lp + 2;          // torus offset d - c (+ k), and twice it
  localparam int nd_lp = wn_pkg::max_dims_gp;
  localparam int kw_lp = wn_pkg::radix_width_gp;
  localparam int vw_lp = wn_pkg::vc_width_gp;
  localparam int cw_lp = wn_pkg::cfg_vcs_width_gp;
  localparam int iw_lp = wn_pkg::dim_index_width_gp;
  localparam int ow_lp = wn_pkg::out_code_width_gp;

  logic [kw_lp-1:0] k [nd_lp];
  logic [wn_pkg::dim_bits_width_gp-1:0] lsb [nd_lp];
  logic [wn_pkg::dim_bits_width_gp-1:0] w [nd_lp];
  logic [aw_lp-1:0] d [nd_lp], c [nd_lp];
  logic [aw_lp-1:0] diff;
  logic        found, plus, cls;
  logic [iw_lp-1:0] dim;
  logic [cw_lp-1:0] half;
  logic [dw_lp-1:0] delta;

  // Every unit takes the whole configuration; routing does not read these (named here for
  // lint, synthesis drops them).
  logic unused_cfg;
  assign unused_cfg = ^{cfg_i.buf_depth, cfg_i.inj, cfg_i.ej, cfg_i.ports};

  always_comb begin
    // Outputs and temporaries hold these unless en_i (then nothing reads the outputs): a
    // simulator evaluates the route only for heads that wait, not for every VC every cycle.
    eject_o = 1'b1;
    out_o = '0;
    vc_lo_o = '0;
    vc_hi_o = vw_lp'(cfg_i.vcs - cw_lp'(1));
    found = 1'b0;
    plus = 1'b0;
    dim = '0;
    delta = '0;
    cls = 1'b0;
    half = '0;
    diff = '0;
    for (int i = 0; i < nd_lp; i++) begin
      k[i] = '0;
      w[i] = '0;
      lsb[i] = '0;
      d[i] = '0;
      c[i] = '0;
    end
    if (en_i) begin
      for (int i = 0; i < nd_lp; i++) begin
        k[i] = cfg_i.k[i];
        w[i] = cfg_i.w[i];
      end
      // dimension i's coordinate starts above the bits of the dimensions before it
      lsb[0] = '0;
      for (int i = 1; i < nd_lp; i++) lsb[i] = lsb[i-1] + w[i-1];
      for (int i = 0; i < nd_lp; i++) begin
        d[i] = (dest_i >> lsb[i]) & ((aw_lp'(1) << w[i]) - aw_lp'(1));
        c[i] = (cfg_i.addr >> lsb[i]) & ((aw_lp'(1) << w[i]) - aw_lp'(1));
      end
      half = cfg_i.vcs >> 1;
      diff = (dest_i ^ cfg_i.addr) & ((aw_lp'(1) << cfg_i.ndims) - aw_lp'(1));
      if (cfg_i.kind == wn_pkg::kind_width_gp'(wn_pkg::kind_cube_gp)) begin
        // e-cube: lowest differing address bit first
        for (int b = aw_lp - 1; b >= 0; b--) begin
          if (diff[b]) begin
            eject_o = 1'b0;
            out_o = ow_lp'(b);
          end
        end
      end else begin
        for (int i = nd_lp - 1; i >= 0; i--) begin
          if (i < (cfg_i.ndims) && d[i] != c[i]) begin
            found = 1'b1;
            dim = iw_lp'(i);
          end
        end
        if (found) begin
          eject_o = 1'b0;
          if (cfg_i.kind == wn_pkg::kind_width_gp'(wn_pkg::kind_mesh_gp)) begin
            plus = d[dim] > c[dim];
          end else begin
            delta = (d[dim] >= c[dim]) ? dw_lp'(d[dim]) - dw_lp'(c[dim])
                                       : dw_lp'(d[dim]) + dw_lp'(k[dim]) - dw_lp'(c[dim]);
            plus = (delta << 1) <= dw_lp'(k[dim]);  // ties (exactly k/2) go +
          end
          out_o = ow_lp'({dim, ~plus});          // port 2*dim is +, 2*dim+1 is -
          if (cfg_i.kind == wn_pkg::kind_width_gp'(wn_pkg::kind_torus_gp) && cfg_i.dateline) begin
            // Class continues within a dimension from an upper-half VC; it is 1
            // from the hop that crosses the wrap-around link on.
            cls = from_net_i && (in_dim_i == wn_pkg::port_dim_width_gp'(dim)) && (cw_lp'(in_vc_i) >= half);
            if (plus ? (kw_lp'(c[dim]) == k[dim] - kw_lp'(1)) : (c[dim] == '0)) cls = 1'b1;
            vc_lo_o = cls ? vw_lp'(half) : '0;
            vc_hi_o = cls ? vw_lp'(cfg_i.vcs - cw_lp'(1)) : vw_lp'(half - cw_lp'(1));
          end
        end
      end
    end
  end
endmodule
