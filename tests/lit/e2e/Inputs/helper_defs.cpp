// The device definitions helper_kernel.cpp's kernel calls.
#pragma omp declare target
int scaled(int v) { return 3 * v; }
extern const int bias = 7;
#pragma omp end declare target
