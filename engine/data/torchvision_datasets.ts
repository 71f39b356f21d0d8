export { FashionMNIST, SyntheticFashionMNIST, read_idx_file, type FashionMNISTOptions } from "./fashion_mnist.js";
