#include "app/param_words.h"

namespace wn::cli {

std::string flag_word(Param p) {
  switch (p) {
    case Param::algorithm:
      return "--algorithm";
    case Param::avoid:
      return "--avoid";
    case Param::backend:
      return "--backend";
    case Param::baseline:
      return "--baseline";
    case Param::buf:
      return "--buf";
    case Param::by:
      return "--by";
    case Param::bytes:
      return "--bytes";
    case Param::bytes_per_flit:
      return "--bytes-per-flit";
    case Param::clock_ns:
      return "--clock-ns";
    case Param::combine_cycles:
      return "--combine-cycles";
    case Param::copy_cycles:
      return "--copy-cycles";
    case Param::cycles:
      return "--cycles";
    case Param::firmware:
      return "--firmware";
    case Param::group:
      return "--group";
    case Param::index_cycles:
      return "--index-cycles";
    case Param::reorder_cycles:
      return "--reorder-cycles";
    case Param::index_op_cycles:
      return "--index-op-cycles";
    case Param::index_setup_cycles:
      return "--index-setup-cycles";
    case Param::json:
      return "--json";
    case Param::max_cycles:
      return "--max-cycles";
    case Param::hotspot_fraction:
      return "--hotspot-fraction";
    case Param::hotspot_node:
      return "--hotspot-node";
    case Param::max_hops:
      return "--max-hops";
    case Param::max_packet_bytes:
      return "--max-packet-bytes";
    case Param::mem_words:
      return "--mem-words-per-cycle";
    case Param::multiport_flit_cycles:
      return "--multiport-flit-cycles";
    case Param::multiport_startup:
      return "--multiport-startup";
    case Param::merge:
      return "--merge";
    case Param::op:
      return "--op";
    case Param::out:
      return "--out";
    case Param::packet_flits:
      return "--packet-flits";
    case Param::pattern:
      return "--pattern";
    case Param::ports:
      return "--ports";
    case Param::profile:
      return "--profile";
    case Param::rate:
      return "--rate";
    case Param::schedule:
      return "--schedule";
    case Param::source:
      return "--source";
    case Param::steps:
      return "--steps";
    case Param::tolerance:
      return "--tolerance";
    case Param::topology:
      return "--topology";
    case Param::trace:
      return "--trace";
    case Param::vcs:
      return "--vcs";
  }
  return param_id(p);  // unreachable: -Wswitch names a parameter without a word
}

std::string worded(const std::string& text) { return words_of(text, flag_word); }

std::string describe(const ConfigError& e) {
  return (e.param() ? flag_word(*e.param()) : e.field()) + ": " + worded(e.detail());
}

}  // namespace wn::cli
