// One virtual channel's flit buffer: a ring of depth_p entries. Credit flow
// control guarantees the upstream never pushes into a full buffer.
module wn_fifo #(
  parameter int width_p = wn_pkg::flit_width_gp,
  parameter int depth_p = wn_pkg::max_buf_gp
) (
  input  logic               clk_i,
  input  logic               reset_i,
  input  logic               push_i,
  input  logic [width_p-1:0] data_i,
  input  logic               pop_i,
  output logic [width_p-1:0] front_o,
  output logic               empty_o
`ifdef FORMAL
  // the ring as it is, for lemmas about the flits it holds (wn_input_unit)
  , output logic [depth_p*width_p-1:0] fv_mem_o
  , output logic [$clog2(depth_p)-1:0] fv_rd_o
  , output logic [$clog2(depth_p):0] fv_count_o
`endif
);
  localparam int ptr_w_lp = $clog2(depth_p);
  logic [width_p-1:0] mem_r [depth_p];
  logic [ptr_w_lp-1:0] rd_ptr_r, wr_ptr_r;
  logic [ptr_w_lp:0]   count_r;
  always_ff @(posedge clk_i) begin
    if (reset_i) begin
      rd_ptr_r <= '0;
      wr_ptr_r <= '0;
      count_r <= '0;
    end else begin
      if (push_i) wr_ptr_r <= wr_ptr_r + 1'b1;
      if (pop_i) rd_ptr_r <= rd_ptr_r + 1'b1;
      count_r <= count_r + (ptr_w_lp+1)'(push_i) - (ptr_w_lp+1)'(pop_i);
    end
  end
  // Storage needs no reset: count_r says what is valid.
  always_ff @(posedge clk_i) if (push_i) mem_r[wr_ptr_r] <= data_i;
  assign front_o = mem_r[rd_ptr_r];
  assign empty_o = (count_r == '0);
`ifdef FORMAL
  for (genvar i = 0; i < depth_p; i++) begin : fv_slot
    assign fv_mem_o[i*width_p +: width_p] = mem_r[i];
  end
  assign fv_rd_o = rd_ptr_r;
  assign fv_count_o = count_r;
  // Credit flow control never pushes into a full buffer (a lost flit) and the
  // switch never pops an empty one (a duplicated or invented flit).
  always @(*) if (!reset_i) begin
    assert (count_r <= (ptr_w_lp+1)'(depth_p));
    assert (!(push_i && count_r == (ptr_w_lp+1)'(depth_p)));
    assert (!(pop_i && count_r == '0));
    // The ring's bookkeeping (a lemma for unbounded proofs): the pointers are
    // count_r apart, so a push never overwrites the front of a non-empty ring.
    assert (ptr_w_lp'(wr_ptr_r - rd_ptr_r) == ptr_w_lp'(count_r));
  end
`endif
endmodule
