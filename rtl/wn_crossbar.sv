// Full crossbar: every output (network outputs, ejection channels) selects
// the flit of the input port the switch allocator granted it.
module wn_crossbar #(
  parameter int inputs_p = 8,
  parameter int outputs_p = 8
) (
  input  logic [inputs_p*wn_pkg::flit_width_gp-1:0]      in_flit_i,
  input  logic [inputs_p*wn_pkg::vc_width_gp-1:0]        in_out_vc_i,
  input  logic [inputs_p*wn_pkg::vc_width_gp-1:0]        in_vc_i,
  input  logic [outputs_p*wn_pkg::out_code_width_gp-1:0] sel_i,
  input  logic [outputs_p-1:0]                           valid_i,       // the output unit reads only these
  output logic [outputs_p*wn_pkg::flit_width_gp-1:0]     out_flit_o,
  output logic [outputs_p*wn_pkg::vc_width_gp-1:0]       out_vc_o,      // output VC the flit takes
  output logic [outputs_p*wn_pkg::vc_width_gp-1:0]       out_from_vc_o  // input VC it left
);
  localparam int fw_lp = wn_pkg::flit_width_gp;
  localparam int vw_lp = wn_pkg::vc_width_gp;
  localparam int ow_lp = wn_pkg::out_code_width_gp;
  for (genvar k = 0; k < outputs_p; k++) begin : out
    wn_pkg::out_code_t s;
    assign s = sel_i[k*ow_lp +: ow_lp];
    // A mux over the inputs (no index arithmetic); an unselected output carries zeros.
    always_comb begin
      out_flit_o[k*fw_lp +: fw_lp] = '0;
      out_vc_o[k*vw_lp +: vw_lp] = '0;
      out_from_vc_o[k*vw_lp +: vw_lp] = '0;
      if (valid_i[k])
        for (int i = 0; i < inputs_p; i++)
          if (s == ow_lp'(i)) begin
            out_flit_o[k*fw_lp +: fw_lp] = in_flit_i[i*fw_lp +: fw_lp];
            out_vc_o[k*vw_lp +: vw_lp] = in_out_vc_i[i*vw_lp +: vw_lp];
            out_from_vc_o[k*vw_lp +: vw_lp] = in_vc_i[i*vw_lp +: vw_lp];
          end
    end
  end
endmodule
