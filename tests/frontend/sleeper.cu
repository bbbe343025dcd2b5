// Writes its pid to argv[1], then sleeps: for checking that it dies with simt exec.
#include <cstdio>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  FILE* f = std::fopen(argv[1], "w");
  std::fprintf(f, "%d\n", int(getpid()));
  std::fclose(f);
  for (int i = 0; i < 600; ++i) sleep(1);
  return 0;
}
