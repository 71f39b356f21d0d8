// Kernels of the binary operator family, re-exported into at::native (../index.ts).
export {};
