// thrust/detail/config.h: Thrust's configuration header; here the version macros
// (thrust/version.h) are all a program can ask it for.
#pragma once
#include <thrust/version.h>
