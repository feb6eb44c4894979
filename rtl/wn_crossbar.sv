// Full crossbar: every output (network outputs, ejection channels) selects
// the flit of the input port the switch allocator granted it.
module wn_crossbar #(
  parameter int inputs_p = 8,
  parameter int outputs_p = 8,
  parameter int flit_width_p = 64,
  parameter int out_w_p = 5
) (
  input  logic [inputs_p*flit_width_p-1:0] in_flit_i,
  input  logic [inputs_p*2-1:0]            in_out_vc_i,
  input  logic [inputs_p*2-1:0]            in_vc_i,
  input  logic [outputs_p*out_w_p-1:0]     sel_i,
  output logic [outputs_p*flit_width_p-1:0] out_flit_o,
  output logic [outputs_p*2-1:0]            out_vc_o,      // output VC the flit takes
  output logic [outputs_p*2-1:0]            out_from_vc_o  // input VC it left
);
  for (genvar k = 0; k < outputs_p; k++) begin : out
    logic [out_w_p-1:0] s;
    assign s = sel_i[k*out_w_p +: out_w_p];
    // A mux over the inputs (no index arithmetic); an unselected output carries zeros.
    always_comb begin
      out_flit_o[k*flit_width_p +: flit_width_p] = '0;
      out_vc_o[k*2 +: 2] = '0;
      out_from_vc_o[k*2 +: 2] = '0;
      for (int i = 0; i < inputs_p; i++)
        if (s == out_w_p'(i)) begin
          out_flit_o[k*flit_width_p +: flit_width_p] = in_flit_i[i*flit_width_p +: flit_width_p];
          out_vc_o[k*2 +: 2] = in_out_vc_i[i*2 +: 2];
          out_from_vc_o[k*2 +: 2] = in_vc_i[i*2 +: 2];
        end
    end
  end
endmodule
