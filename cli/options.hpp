// The options every command spells the same way. A value is read and checked
// while the command line is parsed, so a bad one is a usage error (exit 2) that
// names the option before anything runs: sizes and counts take the same suffixes
// everywhere ("2k", "1Mi", "64MiB", "1e9"; util/quantity.hpp), ranges are checked
// (nothing wraps, nothing silently defaults), names get "did you mean".
#pragma once
#include <CLI/CLI.hpp>

#include <string>

namespace simt::cli {

// --device,-d: a device of the catalog (simt devices), checked at parse time.
CLI::Option* add_device_option(CLI::App* cmd, std::string& device, const std::string& help = "device from the catalog (simt devices)");

// --device,-d for the LLM cost model: a GPU or a TPU chip of the catalog.
CLI::Option* add_accelerator_option(CLI::App* cmd, std::string& device,
                                    const std::string& help = "GPU or TPU from the catalog (simt devices)");

// --model,-m: a model of the zoo (simt model list), checked at parse time.
CLI::Option* add_model_option(CLI::App* cmd, std::string& model, const std::string& help = "model name (simt model list)");

// A whole number in [lo, hi], with suffixes: `--threads 8`, `--n 1Mi`.
CLI::Option* add_count_option(CLI::App* cmd, const std::string& name, long long& value, const std::string& help,
                              long long lo, long long hi);
CLI::Option* add_count_option(CLI::App* cmd, const std::string& name, unsigned& value, const std::string& help,
                              long long lo, long long hi);
CLI::Option* add_count_option(CLI::App* cmd, const std::string& name, std::size_t& value, const std::string& help,
                              long long lo, long long hi);

// The check add_count_option adds, for an option kept as text (parsed later with
// parse_count): a whole number in [lo, hi], else a usage error naming the option.
CLI::Validator whole_count_check(long long lo, long long hi);

// A positive whole number of bytes, elements or parameters that may be larger than
// a count option holds (`--bucket 1e30`): a finite quantity >= 1 with no fraction.
CLI::Option* add_whole_quantity_option(CLI::App* cmd, const std::string& name, double& value,
                                       const std::string& help);

// A non-negative finite quantity with suffixes: `--bytes 1GiB`, `--flops 2e12`.
// `positive`: zero is refused too.
CLI::Option* add_quantity_option(CLI::App* cmd, const std::string& name, double& value, const std::string& help,
                                 bool positive = false);

}  // namespace simt::cli
