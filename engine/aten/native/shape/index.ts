// Kernels of the shape operator family, re-exported into at::native (../index.ts).
export {};
