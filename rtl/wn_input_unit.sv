// One input port: a FIFO and a state (IDLE / ACTIVE(out, out_vc)) per
// virtual channel, the route of every waiting head, the switch-allocation
// candidates, and the credit returned upstream when a flit leaves.
// Injection ports are instances with one VC (a channel carries one packet at a time).
module wn_input_unit #(
  parameter int ports_p = 4,       // network ports of the router
  parameter int vcs_p = wn_pkg::max_vcs_gp,  // VCs of this input (1 for injection)
  parameter int vcs_max_p = wn_pkg::max_vcs_gp,
  parameter int buf_max_p = wn_pkg::max_buf_gp,
  parameter bit is_inj_p = 1'b0,
  parameter int port_id_p = 0      // network port number (network inputs)
) (
  input  logic clk_i,
  input  logic reset_i,
  input  wn_pkg::cfg_s cfg_i,
  // link
  input  logic          valid_i,
  input  wn_pkg::flit_t flit_i,
  output logic          credit_o,
  output wn_pkg::vc_t   credit_vc_o,
  // VC allocation
  output logic [vcs_p-1:0]                           va_req_o,
  output logic [vcs_p-1:0]                           va_eject_o,
  output logic [vcs_p*wn_pkg::out_code_width_gp-1:0] va_out_o,
  output logic [vcs_p*wn_pkg::vc_width_gp-1:0]       va_lo_o,
  output logic [vcs_p*wn_pkg::vc_width_gp-1:0]       va_hi_o,
  input  logic [vcs_p-1:0]                           va_grant_i,
  input  logic [vcs_p*wn_pkg::out_code_width_gp-1:0] va_grant_out_i,
  input  logic [vcs_p*wn_pkg::vc_width_gp-1:0]       va_grant_vc_i,
  // switch allocation
  input  logic [ports_p*vcs_max_p-1:0]               credit_ok_i,  // network output VC has a credit
  output logic [vcs_p-1:0]                           sa_cand_o,
  output logic [vcs_p*wn_pkg::out_code_width_gp-1:0] sa_out_o,
  input  wn_pkg::vc_t                                sa_pick_i,
  input  logic                                       sa_win_i,
  // crossbar
  output wn_pkg::flit_t xb_flit_o,
  output wn_pkg::vc_t   xb_out_vc_o,
  output logic          busy_o
`ifdef FORMAL
  // per VC, for the router-level lemmas (rtl/formal/wn_router_lemmas.sv)
  , output logic [vcs_p-1:0]                           fv_active_o
  , output logic [vcs_p*wn_pkg::out_code_width_gp-1:0] fv_out_o
  , output logic [vcs_p*wn_pkg::vc_width_gp-1:0]       fv_out_vc_o
  , output logic [vcs_p-1:0]                           fv_mid_o   // flits of the granted packet have left: the head is gone
`endif
);
  localparam int fw_lp = wn_pkg::flit_width_gp;
  localparam int ow_lp = wn_pkg::out_code_width_gp;
  localparam int vw_lp = wn_pkg::vc_width_gp;
  wn_pkg::flit_t front [vcs_p];
  logic [vcs_p-1:0] empty, push, pop;
  logic [vcs_p-1:0] active_r;
  wn_pkg::out_code_t out_r [vcs_p];
  wn_pkg::vc_t out_vc_r [vcs_p];
  logic credit_r;
  wn_pkg::vc_t credit_vc_r;
  wn_pkg::vc_t arrive_vc;

  assign arrive_vc = is_inj_p ? '0 : flit_i[wn_pkg::flit_vc_lsb_gp +: wn_pkg::flit_vc_width_gp];

  for (genvar v = 0; v < vcs_p; v++) begin : vc
    assign push[v] = valid_i && (arrive_vc == vw_lp'(v));
    assign pop[v] = sa_win_i && (sa_pick_i == vw_lp'(v));

`ifdef FORMAL
    logic [buf_max_p*fw_lp-1:0] fv_mem;
    logic [$clog2(buf_max_p)-1:0] fv_rd;
    logic [$clog2(buf_max_p):0] fv_count;
`endif
    wn_fifo #(.width_p(fw_lp), .depth_p(buf_max_p)) fifo (
      .clk_i, .reset_i, .push_i(push[v]), .data_i(flit_i), .pop_i(pop[v]),
      .front_o(front[v]), .empty_o(empty[v])
`ifdef FORMAL
      , .fv_mem_o(fv_mem), .fv_rd_o(fv_rd), .fv_count_o(fv_count)
`endif
      );

    // An IDLE VC whose front is a head requests an output: its route is computed, and read,
    // only then.
    logic        head_waits;
    assign head_waits = !active_r[v] && !empty[v] && front[v][wn_pkg::flit_head_bit_gp];
    logic        route_eject;
    wn_pkg::out_code_t route_out;
    wn_pkg::vc_t route_lo, route_hi;
    wn_route_unit route (
      .cfg_i, .en_i(head_waits), .dest_i(front[v][wn_pkg::flit_dest_lsb_gp +: wn_pkg::flit_dest_width_gp]),
      .from_net_i(!is_inj_p), .in_dim_i(wn_pkg::port_dim_width_gp'(port_id_p / 2)), .in_vc_i(vw_lp'(v)),
      .eject_o(route_eject), .out_o(route_out), .vc_lo_o(route_lo), .vc_hi_o(route_hi));
`ifdef FORMAL
    // The route of whatever head is at the front, for the lemma on granted heads below.
    logic        fv_route_eject;
    wn_pkg::out_code_t fv_route_out;
    wn_pkg::vc_t fv_route_lo, fv_route_hi;
    wn_route_unit fv_route (
      .cfg_i, .en_i(1'b1), .dest_i(front[v][wn_pkg::flit_dest_lsb_gp +: wn_pkg::flit_dest_width_gp]),
      .from_net_i(!is_inj_p), .in_dim_i(wn_pkg::port_dim_width_gp'(port_id_p / 2)), .in_vc_i(vw_lp'(v)),
      .eject_o(fv_route_eject), .out_o(fv_route_out), .vc_lo_o(fv_route_lo), .vc_hi_o(fv_route_hi));
`endif

    assign va_req_o[v] = head_waits;
    assign va_eject_o[v] = route_eject;
    assign va_out_o[v*ow_lp +: ow_lp] = route_out;
    assign va_lo_o[v*vw_lp +: vw_lp] = route_lo;
    assign va_hi_o[v*vw_lp +: vw_lp] = route_hi;

    // A flit may leave if its packet owns an output and, on a network
    // output, the downstream VC has a free slot (ejection always accepts).
    // Credit of the owned output VC (index o*vcs_max_p + w), by a mux.
    logic credit_ok;
    // Read only for a candidate (active, non-empty).
    always_comb begin
      credit_ok = 1'b0;
      if (active_r[v] && !empty[v])
        for (int k = 0; k < ports_p * vcs_max_p; k++)
          if (out_r[v] == ow_lp'(k / vcs_max_p) && out_vc_r[v] == vw_lp'(k % vcs_max_p)) credit_ok = credit_ok_i[k];
    end
    assign sa_cand_o[v] = active_r[v] && !empty[v] &&
                          (out_r[v] >= ow_lp'(ports_p) || credit_ok);
    assign sa_out_o[v*ow_lp +: ow_lp] = out_r[v];

    always_ff @(posedge clk_i) begin
      if (reset_i) begin
        active_r[v] <= 1'b0;
        out_r[v] <= '0;
        out_vc_r[v] <= '0;
      end else if (va_grant_i[v]) begin
        active_r[v] <= 1'b1;
        out_r[v] <= va_grant_out_i[v*ow_lp +: ow_lp];
        out_vc_r[v] <= va_grant_vc_i[v*vw_lp +: vw_lp];
      end else if (pop[v] && front[v][wn_pkg::flit_tail_bit_gp]) begin
        active_r[v] <= 1'b0;  // the tail left: the next head may allocate
      end
    end
  end

  wn_pkg::vc_t pick;
  if (vcs_p == 1) begin : one_vc
    wn_pkg::vc_t unused_pick;  // a single VC: nothing to choose
    assign unused_pick = sa_pick_i;
    assign pick = '0;
    assign xb_flit_o = front[0];
    assign xb_out_vc_o = out_vc_r[0];
  end else begin : many_vc
    localparam int pick_w_lp = $clog2(vcs_p);
    assign pick = sa_pick_i;
    assign xb_flit_o = front[pick[pick_w_lp-1:0]];
    assign xb_out_vc_o = out_vc_r[pick[pick_w_lp-1:0]];
  end

  always_ff @(posedge clk_i) begin
    if (reset_i) begin
      credit_r <= 1'b0;
      credit_vc_r <= '0;
    end else begin
      credit_r <= sa_win_i;
      credit_vc_r <= sa_win_i ? pick : '0;
    end
  end
  assign credit_o = credit_r;
  assign credit_vc_o = credit_vc_r;
  assign busy_o = (~empty != '0) || credit_r;
`ifdef FORMAL
  // The credit loop's conservation law on each input VC, stated so that an
  // unbounded proof can use it (rtl/README.md §9): flits received whose credit
  // has not gone back upstream are in the buffer or are the credit leaving now.
  for (genvar v = 0; v < vcs_p; v++) begin : fv
    localparam int cw_lp = wn_pkg::cfg_buf_width_gp;  // counts up to the buffer depth
    logic [cw_lp-1:0] owed_r, held_r;
    logic back;
    assign back = credit_r && credit_vc_r == vw_lp'(v);
    always @(*) if (!reset_i) assert (owed_r == held_r + cw_lp'(back));
    // Packet framing through the buffer (the harness assumes it on the link):
    // mid_r = flits of the front packet have left (its head is gone), wmid_r =
    // the last flit pushed was not a tail. A flit in the ring is a head exactly
    // when the one before it is a tail, so the front is a head exactly when the
    // packet before it has left completely; mid_r only while the VC is active.
    localparam int pw_lp = $clog2(buf_max_p);
    logic mid_r, wmid_r;
    always @(*) if (!reset_i) begin
      if (mid_r) assert (active_r[v]);
      if (!empty[v]) assert (front[v][wn_pkg::flit_head_bit_gp] == !mid_r);
      // (begin/end: an `else` right after an assert would be the assert's own fail action)
      if (empty[v]) begin
        assert (wmid_r == mid_r);
      end else begin
        assert (vc[v].fv_mem[pw_lp'(vc[v].fv_rd + pw_lp'(vc[v].fv_count - 1'b1)) * fw_lp + wn_pkg::flit_tail_bit_gp]
                == !wmid_r);
      end
      for (int i = 1; i < buf_max_p; i++)
        if ((pw_lp+1)'(i) < vc[v].fv_count)
          assert (vc[v].fv_mem[pw_lp'(vc[v].fv_rd + pw_lp'(i)) * fw_lp + wn_pkg::flit_head_bit_gp] ==
                  vc[v].fv_mem[pw_lp'(vc[v].fv_rd + pw_lp'(i - 1)) * fw_lp + wn_pkg::flit_tail_bit_gp]);
    end
    always_ff @(posedge clk_i) begin
      if (reset_i) begin
        mid_r <= 1'b0;
        wmid_r <= 1'b0;
      end else begin
        if (pop[v]) mid_r <= !front[v][wn_pkg::flit_tail_bit_gp];
        if (push[v]) wmid_r <= !flit_i[wn_pkg::flit_tail_bit_gp];
      end
    end
    assign fv_active_o[v] = active_r[v];
    assign fv_out_o[v*ow_lp +: ow_lp] = out_r[v];
    assign fv_out_vc_o[v*vw_lp +: vw_lp] = out_vc_r[v];
    assign fv_mid_o[v] = mid_r;
    // While the granted head waits at the front, the grant is what the route
    // unit computes for that head, its VC within the class.
    always @(*) if (!reset_i && active_r[v] && !empty[v] && !mid_r)
      assert (vc[v].fv_route_eject ? out_r[v] >= ow_lp'(ports_p)
                                   : out_r[v] == vc[v].fv_route_out && out_vc_r[v] >= vc[v].fv_route_lo &&
                                     out_vc_r[v] <= vc[v].fv_route_hi);
    always_ff @(posedge clk_i) begin
      if (reset_i) begin
        owed_r <= '0;
        held_r <= '0;
      end else begin
        owed_r <= owed_r + cw_lp'(push[v]) - cw_lp'(back);
        held_r <= held_r + cw_lp'(push[v]) - cw_lp'(pop[v]);
      end
    end
  end
`endif
endmodule
