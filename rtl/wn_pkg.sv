// The router's limits, widths, encodings, flit layout and configuration, written once
// (rtl/README.md §1-§3). CMake turns every `localparam int` and `typedef` line of this file into
// the C++ header wormnet/wn_pkg.h (cmake/wn_pkg.cmake), so the RTL, the C++ model and the
// verilated wrapper can not drift apart: change a value here and both sides follow.
// That reader takes only the shapes below (one declaration per line; expressions of numbers,
// earlier names, + - * / ( ) and $clog2) and stops the configure step on anything else.
// yosys 0.23 has no `import` and no packed multi-dimensional arrays outside packed structs, so
// modules write wn_pkg::name and keep flat vectors for per-port signals.
package wn_pkg;
  // Some values exist for the C++ side only (the payload field).
  // verilator lint_off UNUSEDPARAM
  // ---- limits ----
  // The largest radix (cube:14 on a radix-14 router); CMake's WN_RTL_RADICES ends at or below it
  // (systemc/router/rtl/rtl_radices_check.h).
  localparam int max_ports_gp = 14;
  // VMAX: the torus dateline splits the VCs into two classes, so at least 2. The C++ model keeps
  // one bit per input VC in a mask: max_ports_gp * max_vcs_gp + max_ports_gp <= 128.
  localparam int max_vcs_gp = 4;
  // BMAX, FIFO slots per VC; a power of two because the FIFO is a ring.
  localparam int max_buf_gp = 16;
  // Mesh and torus dimensions (X, Y, Z).
  localparam int max_dims_gp = 3;
  // Router address bits (16,384 routers: 128x128, 32x32x16, cube:14); the flit's dest and src.
  localparam int addr_width_gp = 14;
  localparam int flit_width_gp = 64;

  // ---- widths derived from the limits ----
  localparam int vc_width_gp = $clog2(max_vcs_gp);               // a VC index
  localparam int cfg_vcs_width_gp = $clog2(max_vcs_gp + 1);      // a VC count, 1..max_vcs_gp
  localparam int cfg_buf_width_gp = $clog2(max_buf_gp + 1);      // a slot or credit count, 0..max_buf_gp
  // A port or channel count 1..max_ports_gp; also a cube's dimension count, which equals its ports.
  localparam int port_count_width_gp = $clog2(max_ports_gp + 1);
  // The mesh/torus dimension of a network port (port / 2).
  localparam int port_dim_width_gp = $clog2(max_ports_gp / 2);
  localparam int dim_index_width_gp = $clog2(max_dims_gp);
  // Address bits of one dimension, 0..addr_width_gp, and the lsb of a later one (their sum).
  localparam int dim_bits_width_gp = $clog2(addr_width_gp + 1);
  // A dimension's radix k: at least two dimensions of at least one address bit each, so
  // k <= 2^(addr_width_gp - 1), which addr_width_gp bits hold.
  localparam int radix_width_gp = addr_width_gp;
  // Output code: network output o, or ports_p + j for ejection channel j (both below
  // 2 * max_ports_gp); also an input port index (network p, or ports_p + injection i).
  localparam int out_code_width_gp = $clog2(2 * max_ports_gp);

  // ---- network kind (rtl/README.md §3) ----
  localparam int kind_mesh_gp = 0;
  localparam int kind_torus_gp = 1;
  localparam int kind_cube_gp = 2;
  localparam int kind_width_gp = $clog2(kind_cube_gp + 1);

  // ---- flit layout (rtl/README.md §1), fields packed from bit 0 up ----
  localparam int flit_type_lsb_gp = 0;
  localparam int flit_type_width_gp = 2;
  localparam int flit_head_bit_gp = flit_type_lsb_gp;      // type bit 0
  localparam int flit_tail_bit_gp = flit_type_lsb_gp + 1;  // type bit 1
  // Every flit names the VC it occupies, so the field holds any VC index.
  localparam int flit_vc_lsb_gp = flit_type_lsb_gp + flit_type_width_gp;
  localparam int flit_vc_width_gp = vc_width_gp;
  localparam int flit_dest_lsb_gp = flit_vc_lsb_gp + flit_vc_width_gp;
  localparam int flit_dest_width_gp = addr_width_gp;
  localparam int flit_src_lsb_gp = flit_dest_lsb_gp + flit_dest_width_gp;
  localparam int flit_src_width_gp = addr_width_gp;
  localparam int flit_step_lsb_gp = flit_src_lsb_gp + flit_src_width_gp;
  localparam int flit_step_width_gp = 8;
  // The packet tag takes what is left: the wider, the later PacketStore must stop a run.
  localparam int flit_msg_lsb_gp = flit_step_lsb_gp + flit_step_width_gp;
  localparam int flit_msg_width_gp = flit_width_gp - flit_msg_lsb_gp;
  // Body and tail flits carry payload where a head carries its addresses, step and tag.
  localparam int flit_payload_lsb_gp = flit_dest_lsb_gp;
  localparam int flit_payload_width_gp = flit_width_gp - flit_payload_lsb_gp;

  typedef logic [flit_width_gp-1:0] flit_t;
  typedef logic [vc_width_gp-1:0] vc_t;
  typedef logic [addr_width_gp-1:0] addr_t;
  typedef logic [out_code_width_gp-1:0] out_code_t;
  typedef logic [cfg_buf_width_gp-1:0] buf_count_t;

  // A head flit, the first member highest; the C++ header checks it against the lsbs above.
  typedef struct packed {
    logic [flit_msg_width_gp-1:0] msg;
    logic [flit_step_width_gp-1:0] step;
    logic [flit_src_width_gp-1:0] src;
    logic [flit_dest_width_gp-1:0] dest;
    logic [flit_vc_width_gp-1:0] vc;
    logic tail;
    logic head;
  } head_flit_s;

  // The run-time configuration (rtl/README.md §2), static during a run and stable during reset.
  // The verilated wrapper packs RouterConfig into it from the offsets CMake derives from this
  // declaration (the first member highest).
  typedef struct packed {
    logic [cfg_vcs_width_gp-1:0] vcs;            // VCs per network port
    logic [cfg_buf_width_gp-1:0] buf_depth;      // FIFO slots per VC = initial credits
    logic [port_count_width_gp-1:0] inj;         // injection channels used
    logic [port_count_width_gp-1:0] ej;          // ejection channels used
    logic [port_count_width_gp-1:0] ports;       // network ports used
    logic [kind_width_gp-1:0] kind;
    logic [port_count_width_gp-1:0] ndims;       // mesh/torus dimensions, or d of cube:d
    logic [addr_width_gp-1:0] addr;              // this router's address
    logic [max_dims_gp-1:0][radix_width_gp-1:0] k;     // radix per dimension
    logic [max_dims_gp-1:0][dim_bits_width_gp-1:0] w;  // address bits per dimension
    logic dateline;                              // torus dateline VC classes (debug switch)
  } cfg_s;
  // verilator lint_on UNUSEDPARAM
endpackage
