// libFuzzer over the device-catalog parser (ctest fuzz_catalog, built by Debian's
// clang with -fsanitize=fuzzer,address,undefined): any text must either parse into a
// catalog or be refused with the exception Catalog::parse documents, a
// std::runtime_error naming the file, device and field (exit 1 in `simt`). Anything
// else — another exception, a crash, a sanitizer report, a hang — fails the run.
#include "cost/catalog/catalog.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    simt::cost::Catalog::parse(std::string(reinterpret_cast<const char*>(data), size), "fuzzed.json");
  } catch (const std::runtime_error&) {  // the documented refusal
  }
  return 0;
}
