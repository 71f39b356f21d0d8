// torch.serialization: torch.save / torch.load (PyTorch's zip checkpoints, read by a weights-only unpickler).

export { save, saveToBytes } from "./torch_save.js";
export { load, type LoadOptions, type LoadSource, type MapLocation } from "./torch_load.js";
export { UnpicklingError } from "./unpickler.js";
export { OrderedDict, tuple, isTuple, isOrderedDict } from "./py_types.js";
