// The table of `simt table` and `simt compare`: one row per kernel version, one
// column per counter, ratio or predicted time, in the four formats a handout needs.
// Rows are built from launches as `simt run --json` / `simt exec --json` write them.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace simt::cli {

// One column: a short name people type (ld_sectors), or any metric of the launch
// JSON, or time@DEVICE (the kernel time model's prediction on a catalog device).
struct Column {
  std::string name;     // as typed
  std::string heading;  // as printed
  bool estimate = false;
};

// The columns `--metrics` names (comma-separated); throws std::invalid_argument on an
// unknown one, naming the short names.
std::vector<Column> parse_columns(const std::string& list, const std::vector<std::string>& devices);
std::string default_columns();
std::string column_names_help();

struct TableRow {
  std::string label;
  nlohmann::json launches;  // array of launch objects
};

// The value of `column` over a row's launches (sums, or the ratio of sums).
double column_value(const Column& column, const TableRow& row);

enum class TableFormat { text, markdown, csv, latex, json };
TableFormat parse_table_format(const std::string& name);

// With `ratios_to` >= 0: each numeric cell also as a multiple of that row's value
// (`simt compare`: the first row is 1x). JSON keeps the raw numbers (seconds, counts):
// {"columns": [{name, heading, estimate}], "rows": [{kernel, values: {name: number|null}}]}.
std::string format_table(const std::vector<Column>& columns, const std::vector<TableRow>& rows, TableFormat format,
                         int ratios_to = -1);

}  // namespace simt::cli
