// Round-robin arbiter (rtl/README.md §4): grants the first request at or
// after ptr_i, wrapping to the first request overall. Purely combinational;
// the owner keeps the pointer so that pointer policy stays visible there.
module wn_rr_arbiter #(
  parameter int width_p = 4,
  parameter int ptr_width_p = $clog2(width_p + 1)
) (
  input  logic [width_p-1:0]     req_i,
  input  logic [ptr_width_p-1:0] ptr_i,
  output logic                   valid_o,
  output logic [ptr_width_p-1:0] grant_o
);
  logic [width_p-1:0] high;
  logic               found_high, found_any;
  logic [ptr_width_p-1:0] first_high, first_any;
  always_comb begin
    high = '0;
    found_high = 1'b0;
    found_any = 1'b0;
    first_high = '0;
    first_any = '0;
    // Nothing requesting gives all zeros either way (the same function); the test lets a
    // simulator skip an idle arbiter, and most are idle in most cycles (rtl/README.md §7).
    if (req_i != '0) begin
      for (int i = 0; i < width_p; i++) high[i] = req_i[i] && (i >= (ptr_i));
      for (int i = width_p - 1; i >= 0; i--) begin
        if (high[i]) begin
          found_high = 1'b1;
          first_high = ptr_width_p'(i);
        end
        if (req_i[i]) begin
          found_any = 1'b1;
          first_any = ptr_width_p'(i);
        end
      end
    end
    valid_o = found_any;
    grant_o = found_high ? first_high : first_any;
  end
endmodule
