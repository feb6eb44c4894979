#include "experiments/json_stream.h"

#include <map>
#include <stdexcept>

namespace wn {

namespace {

// nlohmann's indent step (dump(2)): a top-level value is this deep, a list's elements twice.
constexpr size_t kIndent = 2;

// `text` (one value as dump(2) writes it at depth 0) as it appears `depth` spaces deep: every line
// after the first indented. A JSON string escapes its newlines, so each '\n' is a line break.
void write_indented(ReportOut& out, const std::string& text, size_t depth) {
  const std::string pad = "\n" + std::string(depth, ' ');
  size_t from = 0;
  for (size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', from)) {
    out.write(std::string_view(text).substr(from, nl - from));
    out.write(pad);
    from = nl + 1;
  }
  out.write(std::string_view(text).substr(from));
}

// A list as dump(2) writes an array `depth` spaces deep: "[]" when empty.
void write_list(ReportOut& out, const StreamedJson::List& list, size_t depth) {
  const std::string item_pad(depth + kIndent, ' ');
  bool first = true;
  list([&](const nlohmann::json& e) {
    out.write(first ? "[\n" : ",\n");
    first = false;
    out.write(item_pad);
    write_indented(out, e.dump(int(kIndent)), depth + kIndent);
  });
  out.write(first ? "[]" : "\n" + std::string(depth, ' ') + "]");
}

}  // namespace

nlohmann::json StreamedJson::whole() const {
  nlohmann::json j = head;
  for (const auto& [key, list] : lists) {
    nlohmann::json a = nlohmann::json::array();
    list([&a](const nlohmann::json& e) { a.push_back(e); });
    j[key] = std::move(a);
  }
  return j;
}

void write_streamed_json(const StreamedJson& r, ReportOut& out) {
  if (!r.head.is_object()) throw std::logic_error("a streamed JSON report's head is not an object");
  const nlohmann::json head = with_identity(r.head);
  // Every piece of the head is rendered before the first byte is written: a value nlohmann
  // refuses (a string that is not UTF-8) throws while nothing is out yet, as with one dump().
  std::map<std::string, std::string> text;  // key -> value dump(2) at depth 0; "" for a list
  for (const auto& [key, value] : head.items()) text.emplace(key, value.dump(int(kIndent)));
  std::map<std::string, const StreamedJson::List*> list_of;
  for (const auto& [key, list] : r.lists)
    if (!text.emplace(key, "").second || !list_of.emplace(key, &list).second)
      throw std::logic_error("streamed JSON report: key '" + key + "' twice");
  if (text.empty()) {
    out.write("{}\n");
    return;
  }
  // The object's keys in nlohmann's order (its object is a std::map): the lists among them.
  const std::string key_pad(kIndent, ' ');
  bool first = true;
  for (const auto& [key, value] : text) {
    out.write(first ? "{\n" : ",\n");
    first = false;
    out.write(key_pad);
    out.write(nlohmann::json(key).dump());
    out.write(": ");
    if (const auto it = list_of.find(key); it != list_of.end())
      write_list(out, *it->second, kIndent);
    else
      write_indented(out, value, kIndent);
  }
  out.write("\n}\n");
}

void stream_json_report(const std::string& path, const StreamedJson& r, const ConfigField& field) {
  stream_report(
      path, [&r](ReportOut& out) { write_streamed_json(r, out); }, field);
}

}  // namespace wn
