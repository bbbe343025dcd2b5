// simt-syntax IN OUT: the compiler front end's syntax step (sim/compiler/syntax/syntax.cpp) as a
// build tool, the same rewrite `simt cc` and `simt exec` make before clang sees a
// file: `k<<<g, b>>>(args)` launches and `extern __shared__ T n[];` change, nothing
// else. OUT starts with `#line 1 "IN"`, so diagnostics, debug lines and counter
// sites name IN and its own line numbers. The CMake build of kernels/ runs it on
// every kernel file and header, then compiles OUT with clang and simtlab's pass.
#include "sim/compiler/syntax/syntax.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s IN OUT\n", argv[0]);
    return 2;
  }
  const std::string in = argv[1], out = argv[2];
  std::ifstream f(in, std::ios::binary);
  if (!f) {
    std::fprintf(stderr, "simt-syntax: cannot read %s\n", in.c_str());
    return 1;
  }
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (simt::syntax::needs_syntax_step(text)) {
    simt::syntax::SyntaxResult r = simt::syntax::syntax_source(text);
    std::cerr << simt::syntax::format_issues(in, r);
    if (!r.ok()) return 1;
    text = std::move(r.output);
  }
  std::ofstream o(out, std::ios::binary);
  o << "#line 1 \"" << in << "\"\n" << text;
  if (!o) {
    std::fprintf(stderr, "simt-syntax: cannot write %s\n", out.c_str());
    return 1;
  }
  return 0;
}
