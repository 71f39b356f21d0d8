// The forward AD ops (autograd.yaml): _fw_primal, _make_dual, _unpack_dual, _new_zeros_with_same_feature_meta.
export { _fw_primal, _make_dual, _unpack_dual, _new_zeros_with_same_feature_meta } from "./ForwardAD.js";
