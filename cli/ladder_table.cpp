#include "ladder_table.hpp"

#include "cost/catalog/catalog.hpp"
#include "cost/kernel/kernel_time.hpp"
#include "timing/time_model_io.hpp"
#include "util/near_miss.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace simt::cli {

using nlohmann::json;

namespace {

// The short names: what a handout's columns usually are. `over`: a ratio of sums.
struct ShortName {
  const char* name;
  const char* heading;
  const char* metric;
  const char* over;
  bool estimate;
  const char* help;
};

constexpr ShortName kShortNames[] = {
    {"launches", "launches", "", "", false, "kernel launches"},
    {"ld_requests", "ld requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "", false, "global load requests (one per warp instruction)"},
    {"ld_sectors", "ld sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "", false, "32-byte sectors global loads touch"},
    {"ld_sectors_per_request", "ld sect/req", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
     "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", false, "4 = coalesced floats, 32 = one sector per lane"},
    {"st_requests", "st requests", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "", false, "global store requests"},
    {"st_sectors", "st sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "", false, "32-byte sectors global stores touch"},
    {"st_sectors_per_request", "st sect/req", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
     "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", false, "sectors per store request"},
    {"shared_wavefronts", "shared wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum+l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "", false, "shared-memory wavefronts, loads and stores"},
    {"bank_conflicts", "bank conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum+l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "", false, "extra shared wavefronts caused by bank conflicts"},
    {"barriers", "barriers", "simt__warp_barriers.sum", "", false, "__syncthreads() per warp"},
    {"instructions", "warp insts", "smsp__inst_executed.sum", "", false, "warp-level instructions executed"},
    {"flops", "FLOPs", "simt__flops.sum", "", false, "floating-point operations (FMA = 2)"},
    {"dram_bytes", "DRAM bytes", "dram__bytes.sum", "", true, "DRAM bytes (simtlab's compulsory-traffic estimate)"},
};

const ShortName* short_name(const std::string& name) {
  for (const ShortName& s : kShortNames)
    if (name == s.name) return &s;
  return nullptr;
}

// The sum over a row's launches of `metrics` ("a", or "a+b": ncu reports shared
// loads and stores apart, and a column may want both).
double metric_sum(const TableRow& row, const std::string& metrics) {
  double sum = 0;
  for (const json& l : row.launches) {
    const json& m = l.at("metrics");
    for (std::size_t from = 0; from <= metrics.size();) {
      const std::size_t plus = std::min(metrics.find('+', from), metrics.size());
      sum += m.value(metrics.substr(from, plus - from), 0.0);
      from = plus + 1;
    }
  }
  return sum;
}

double predicted_seconds(const TableRow& row, const std::string& device) {
  const cost::DeviceSpec& dev = cost::Catalog::builtin().device(device);
  double s = 0;
  for (const json& l : row.launches) s += cost::kernel_time(dev, timing::time_model_counters(l)).predicted_s;
  return s;
}

bool is_time(const Column& c) { return c.name.rfind("time@", 0) == 0; }

std::string number_text(double v) {
  if (v != v) return "-";
  const double a = std::fabs(v);
  if (v == std::floor(v) && a < 1e6) return fmt::format("{}", static_cast<long long>(v));
  if (a >= 1e9) return fmt::format("{:.3g} G", v / 1e9);
  if (a >= 1e6) return fmt::format("{:.3g} M", v / 1e6);
  return fmt::format("{:.3g}", v);
}

std::string time_text(double s) {
  if (s >= 1e-3) return fmt::format("{:.3g} ms", s * 1e3);
  return fmt::format("{:.3g} us", s * 1e6);
}

std::string cell_text(const Column& c, double v, double base) {
  std::string t = is_time(c) ? time_text(v) : number_text(v);
  if (base >= 0) t += base > 0 ? fmt::format(" ({:.2f}x)", v / base) : v == 0 ? " (1x)" : " (-)";
  return t;
}

std::string escaped(const std::string& s, TableFormat f) {
  std::string out;
  for (char ch : s) {
    if (f == TableFormat::latex && (ch == '_' || ch == '%' || ch == '&' || ch == '#')) out += '\\';
    if (f == TableFormat::markdown && ch == '|') out += '\\';
    out += ch;
  }
  if (f == TableFormat::csv && out.find_first_of(",\"") != std::string::npos) {
    std::string q = "\"";
    for (char ch : out) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
  }
  return out;
}

}  // namespace

std::string default_columns() { return "launches,ld_sectors,ld_sectors_per_request,st_sectors,bank_conflicts,flops,dram_bytes,time"; }

std::string column_names_help() {
  std::string s;
  for (const ShortName& n : kShortNames) s += fmt::format("  {:<24} {}\n", n.name, n.help);
  s += fmt::format("  {:<24} {}\n", "time", "the kernel time model's prediction on each --device");
  s += fmt::format("  {:<24} {}\n", "METRIC", "any metric of `simt metrics` (summed over the launches)");
  return s;
}

std::vector<Column> parse_columns(const std::string& list, const std::vector<std::string>& devices) {
  std::vector<Column> out;
  std::vector<std::string> known;
  for (const ShortName& s : kShortNames) known.push_back(s.name);
  known.push_back("time");
  std::istringstream in(list);
  std::string name;
  while (std::getline(in, name, ',')) {
    if (name.empty()) continue;
    if (name == "time") {
      for (const std::string& d : devices) out.push_back({"time@" + d, "time " + d, true});
    } else if (const ShortName* s = short_name(name)) {
      out.push_back({name, s->heading, s->estimate});
    } else if (name.find("__") != std::string::npos) {  // a metric's full name
      out.push_back({name, name, name.rfind("dram__", 0) == 0});
    } else {
      throw std::invalid_argument(unknown_name_message("column", name, known) +
                                  " (or a metric's full name: simt metrics)");
    }
  }
  if (out.empty()) throw std::invalid_argument("--metrics names no column");
  return out;
}

double column_value(const Column& c, const TableRow& row) {
  if (c.name == "launches") return double(row.launches.size());
  if (is_time(c)) return predicted_seconds(row, c.name.substr(5));
  if (const ShortName* s = short_name(c.name)) {
    const double v = metric_sum(row, s->metric);
    if (*s->over == '\0') return v;
    const double over = metric_sum(row, s->over);
    return over > 0 ? v / over : NAN;
  }
  return metric_sum(row, c.name);
}

TableFormat parse_table_format(const std::string& name) {
  if (name == "text") return TableFormat::text;
  if (name == "markdown") return TableFormat::markdown;
  if (name == "csv") return TableFormat::csv;
  if (name == "latex") return TableFormat::latex;
  if (name == "json") return TableFormat::json;
  throw std::invalid_argument(fmt::format("--format {}: takes text, markdown, csv, latex or json", name));
}

std::string format_table(const std::vector<Column>& columns, const std::vector<TableRow>& rows, TableFormat f,
                         int ratios_to) {
  if (f == TableFormat::json) {
    json out = {{"columns", json::array()}, {"rows", json::array()}};
    for (const Column& c : columns) out["columns"].push_back({{"name", c.name}, {"heading", c.heading}, {"estimate", c.estimate}});
    for (const TableRow& r : rows) {
      json values = json::object();
      for (const Column& c : columns) {
        const double v = column_value(c, r);
        values[c.name] = v == v ? json(v) : json(nullptr);
      }
      out["rows"].push_back({{"kernel", r.label}, {"values", values}});
    }
    return out.dump(2) + "\n";
  }
  std::vector<std::string> head = {"kernel"};
  for (const Column& c : columns) head.push_back(c.estimate ? c.heading + " (est.)" : c.heading);
  std::vector<std::vector<std::string>> cells;
  std::vector<double> base(columns.size(), -1);
  if (ratios_to >= 0)
    for (std::size_t j = 0; j < columns.size(); ++j) base[j] = column_value(columns[j], rows.at(ratios_to));
  for (const TableRow& r : rows) {
    std::vector<std::string> line = {r.label};
    for (std::size_t j = 0; j < columns.size(); ++j) line.push_back(cell_text(columns[j], column_value(columns[j], r), base[j]));
    cells.push_back(std::move(line));
  }
  std::string out;
  if (f == TableFormat::csv) {
    auto csv_line = [&](const std::vector<std::string>& v) {
      std::string s;
      for (std::size_t j = 0; j < v.size(); ++j) s += (j ? "," : "") + escaped(v[j], f);
      return s + "\n";
    };
    out += csv_line(head);
    for (const auto& line : cells) out += csv_line(line);
    return out;
  }
  std::vector<std::size_t> w(head.size());
  for (std::size_t j = 0; j < head.size(); ++j) {
    w[j] = escaped(head[j], f).size();
    for (const auto& line : cells) w[j] = std::max(w[j], escaped(line[j], f).size());
  }
  auto render = [&](const std::vector<std::string>& v, const char* sep, const char* open, const char* close) {
    std::string s = open;
    for (std::size_t j = 0; j < v.size(); ++j) {
      const std::string e = escaped(v[j], f);
      s += j == 0 ? fmt::format("{:<{}}", e, w[j]) : fmt::format("{}{:>{}}", sep, e, w[j]);
    }
    return s + close + "\n";
  };
  if (f == TableFormat::text) {
    out += render(head, "  ", "", "");
    std::size_t total = 0;
    for (std::size_t x : w) total += x + 2;
    out += std::string(total - 2, '-') + "\n";
    for (const auto& line : cells) out += render(line, "  ", "", "");
  } else if (f == TableFormat::markdown) {
    out += render(head, " | ", "| ", " |");
    std::string rule = "|";
    for (std::size_t j = 0; j < w.size(); ++j) rule += j == 0 ? std::string(w[j] + 1, '-') + "-|" : std::string(w[j] + 1, '-') + ":|";
    out += rule + "\n";
    for (const auto& line : cells) out += render(line, " | ", "| ", " |");
  } else {  // latex: a tabular for \input in a handout
    out += "\\begin{tabular}{l" + std::string(columns.size(), 'r') + "}\n\\hline\n";
    out += render(head, " & ", "", " \\\\");
    out += "\\hline\n";
    for (const auto& line : cells) out += render(line, " & ", "", " \\\\");
    out += "\\hline\n\\end{tabular}\n";
  }
  return out;
}

}  // namespace simt::cli
