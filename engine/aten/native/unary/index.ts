// Kernels of the unary operator family, re-exported into at::native (../index.ts).
export {};
