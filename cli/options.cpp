#include "options.hpp"

#include "cost/catalog/catalog.hpp"
#include "models/zoo.hpp"
#include "util/quantity.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace simt::cli {

namespace {

// The option's long name as a person typed it, for messages: "--threads".
std::string display_name(const std::string& spec) {
  for (std::size_t start = 0; start < spec.size();) {
    std::size_t end = spec.find(',', start);
    if (end == std::string::npos) end = spec.size();
    std::string part = spec.substr(start, end - start);
    if (part.rfind("--", 0) == 0) return part;
    start = end + 1;
  }
  return spec;
}

// A check that turns a std::logic_error of `parse` (invalid_argument, out_of_range:
// a bad value) into CLI11's validation error (exit 2, the option named). A
// runtime_error, such as a malformed $SIMT_CATALOG met while looking a device up, is
// an error in an input file: it leaves the parse for main's exit 1.
template <class Parse>
CLI::Validator checked(Parse parse, const std::string& kind) {
  return CLI::Validator(
      [parse](std::string& text) -> std::string {
        try {
          parse(text);
        } catch (const std::logic_error& e) {
          return e.what();
        }
        return {};
      },
      kind);
}

template <class Int>
CLI::Option* add_count(CLI::App* cmd, const std::string& name, Int& value, const std::string& help, long long lo,
                       long long hi) {
  const std::string what = display_name(name);
  auto* opt = cmd->add_option_function<std::string>(
      name, [&value, what, lo, hi](const std::string& s) { value = static_cast<Int>(parse_count(s, what, lo, hi)); },
      help);
  // CLI11 puts the option's name before a check's message.
  opt->check(checked([lo, hi](const std::string& s) { parse_count(s, "the value", lo, hi); }, "COUNT"));
  opt->default_str(fmt::format("{}", value));
  return opt;
}

}  // namespace

CLI::Option* add_device_option(CLI::App* cmd, std::string& device, const std::string& help) {
  return cmd->add_option("--device,-d", device, help)
      ->check(checked([](const std::string& s) { cost::Catalog::builtin().device(s); }, "DEVICE"));
}

CLI::Option* add_accelerator_option(CLI::App* cmd, std::string& device, const std::string& help) {
  return cmd->add_option("--device,-d", device, help)
      ->check(checked([](const std::string& s) { cost::Catalog::builtin().accelerator(s); }, "DEVICE"));
}

CLI::Option* add_model_option(CLI::App* cmd, std::string& model, const std::string& help) {
  return cmd->add_option("--model,-m", model, help)
      ->check(checked([](const std::string& s) { models::find_model(s); }, "MODEL"));
}

CLI::Option* add_count_option(CLI::App* cmd, const std::string& name, long long& value, const std::string& help,
                              long long lo, long long hi) {
  return add_count(cmd, name, value, help, lo, hi);
}
CLI::Option* add_count_option(CLI::App* cmd, const std::string& name, unsigned& value, const std::string& help,
                              long long lo, long long hi) {
  return add_count(cmd, name, value, help, lo, hi);
}
CLI::Option* add_count_option(CLI::App* cmd, const std::string& name, std::size_t& value, const std::string& help,
                              long long lo, long long hi) {
  return add_count(cmd, name, value, help, lo, hi);
}

CLI::Validator whole_count_check(long long lo, long long hi) {
  return checked([lo, hi](const std::string& s) { parse_count(s, "the value", lo, hi); }, "COUNT");
}

CLI::Option* add_whole_quantity_option(CLI::App* cmd, const std::string& name, double& value,
                                       const std::string& help) {
  auto parse = [](const std::string& s) {
    const std::string what = "the value";  // CLI11 puts the option's name before a check's message
    const double v = parse_quantity(s, what);
    if (v < 1 || v != std::floor(v))
      throw std::invalid_argument(fmt::format("{} must be a whole number >= 1, got '{}'", what, s));
    return v;
  };
  auto* opt = cmd->add_option_function<std::string>(name, [&value, parse](const std::string& s) { value = parse(s); },
                                                    help);
  opt->check(checked(parse, "COUNT"));
  return opt;
}

CLI::Option* add_quantity_option(CLI::App* cmd, const std::string& name, double& value, const std::string& help,
                                 bool positive) {
  auto parse = [positive](const std::string& s) {
    const std::string what = "the value";  // CLI11 puts the option's name before a check's message
    const double v = parse_quantity(s, what);
    if (positive && v <= 0) throw std::invalid_argument(fmt::format("{} must be greater than 0, got '{}'", what, s));
    return v;
  };
  auto* opt = cmd->add_option_function<std::string>(name, [&value, parse](const std::string& s) { value = parse(s); },
                                                    help);
  opt->check(checked(parse, "QUANTITY"));
  return opt;
}

}  // namespace simt::cli
