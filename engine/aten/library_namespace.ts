// torch.library: Library, fallthrough_kernel.
export { Library, fallthrough_kernel, type LibraryKind } from "./core/library.js";
