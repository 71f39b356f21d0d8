// The allowlist of the weights-only unpickler (torch/_weights_only_unpickler.py, _get_allowed_globals): the only
// module-level names a checkpoint may refer to. Everything else is refused with PyTorch 2.x's error texts; no
// name is ever looked up in a module, so a checkpoint cannot reach a function that is not listed here.

import { allDtypes, type dtype } from "../c10/ScalarType.js";
import { device } from "../c10/Device.js";
import { Size } from "../aten/core/Size.js";
import { Tensor } from "../aten/core/Tensor.js";
import { Parameter } from "../nn/parameter.js";
import { PyCallable, PyDict, PySet, UnpicklingError, pyTypeName } from "./unpickler.js";
import { StorageType, storageClassDtypes, unsupportedStorageClasses } from "./storage_types.js";
import {
  _rebuild_meta_tensor_no_storage, _rebuild_parameter, _rebuild_parameter_with_state, _rebuild_tensor,
  _rebuild_tensor_v2, _rebuild_tensor_v3, makeParameter, setObjState,
} from "./rebuild.js";
import { uint8 } from "../c10/ScalarType.js";

/** Modules never allowed, whatever else is (the 2.x blocklist). */
const blocklistedModules = ["sys", "os", "posix", "nt"];

/** Python 2 module names a protocol-2 pickle carries (pickle's _compat_pickle.IMPORT_MAPPING, the ones that matter). */
const importMapping: Record<string, string> = { __builtin__: "builtins", copy_reg: "copyreg" };

/** Names PyTorch allows but Glasstorch cannot build: refused with a clear reason instead of "not allowed". */
const knownUnsupported = new Map<string, string>([
  ["torch._utils._rebuild_qtensor", "quantized tensors"],
  ["torch._utils._rebuild_sparse_tensor", "sparse tensors"],
  ["torch.serialization._get_layout", "sparse tensors"],
  ["torch._utils._rebuild_wrapper_subclass", "tensor subclasses"],
  ["torch._utils._rebuild_device_tensor_from_numpy", "tensors saved through NumPy"],
  ["torch._utils._rebuild_device_tensor_from_cpu_tensor", "tensors of devices without storage"],
  ["builtins.complex", "complex numbers"],
  ["torch.complex32", "complex dtypes"], ["torch.complex64", "complex dtypes"], ["torch.complex128", "complex dtypes"],
  ["torch.quint8", "quantized dtypes"], ["torch.qint8", "quantized dtypes"], ["torch.qint32", "quantized dtypes"],
  ["torch.quint4x2", "quantized dtypes"], ["torch.quint2x4", "quantized dtypes"],
  ["torch.per_tensor_affine", "quantized tensors"], ["torch.per_tensor_symmetric", "quantized tensors"],
  ["torch.per_channel_affine", "quantized tensors"], ["torch.per_channel_symmetric", "quantized tensors"],
  ["torch.per_channel_affine_float_qparams", "quantized tensors"],
  ...unsupportedStorageClasses.flatMap((c): [string, string][] => [[`torch.${c}`, "complex or quantized storages"], [`torch.cuda.${c}`, "complex or quantized storages"]]),
]);

export function asDtype(v: unknown): dtype {
  if (allDtypes.includes(v as dtype)) return v as dtype;
  throw new UnpicklingError(`expected a torch.dtype, got ${pyTypeName(v)}`);
}

function fn(fullName: string, call: (args: unknown[]) => unknown): PyCallable {
  return new PyCallable(fullName, "function", call);
}

function cls(fullName: string, call: (args: unknown[]) => unknown): PyCallable {
  return new PyCallable(fullName, "class", call);
}

function bytesFromLatin1(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0xff) throw new UnpicklingError("'latin-1' codec can't encode character");
    out[i] = c;
  }
  return out;
}

/** OrderedDict(), OrderedDict(dict), OrderedDict([(k, v), ...]); Counter(dict) likewise. */
function dictFrom(target: PyDict, args: unknown[], name: string): PyDict {
  if (args.length > 1) throw new UnpicklingError(`${name} expected at most 1 argument, got ${args.length}`);
  const src = args[0];
  if (src === undefined) return target;
  if (src instanceof PyDict) {
    for (const [k, v] of src.entries) target.entries.set(k, v);
  } else if (Array.isArray(src)) {
    for (const pair of src) {
      if (!Array.isArray(pair) || pair.length !== 2) throw new UnpicklingError(`${name}: items must be (key, value) pairs`);
      target.entries.set(pair[0], pair[1]);
    }
  } else {
    throw new UnpicklingError(`${name}: cannot build from ${pyTypeName(src)}`);
  }
  return target;
}

const tensorClass = cls("torch.Tensor", () => {
  throw new UnpicklingError("torch.Tensor cannot be called from a weights-only checkpoint");
});
const parameterClass = cls("torch.nn.parameter.Parameter", (args) => makeParameter(args[0], args[1]));

function buildAllowed(): Map<string, unknown> {
  const rc = new Map<string, unknown>();
  rc.set("collections.OrderedDict", cls("collections.OrderedDict", (args) => dictFrom(new PyDict(true), args, "OrderedDict")));
  rc.set("collections.Counter", cls("collections.Counter", (args) => dictFrom(new PyDict(false, "collections.Counter"), args, "Counter")));
  rc.set("torch.nn.parameter.Parameter", parameterClass);
  rc.set("torch.Tensor", tensorClass);
  rc.set("torch.Size", cls("torch.Size", (args) => {
    const items = args[0] ?? [];
    if (!Array.isArray(items) || !items.every((x) => typeof x === "number" && Number.isInteger(x))) {
      throw new UnpicklingError(`torch.Size() takes an iterable of 'int' (item 0 is '${pyTypeName(items)}')`);
    }
    return Size.from_(items as number[]);
  }));
  rc.set("torch.device", cls("torch.device", (args) => {
    if (typeof args[0] !== "string") throw new UnpicklingError(`device(): argument 'type' must be str, not ${pyTypeName(args[0])}`);
    if (args.length > 2) throw new UnpicklingError("device() takes at most 2 arguments");
    return args.length === 2 && args[1] !== null ? new device(args[0], args[1] as number) : new device(args[0]);
  }));
  rc.set("_codecs.encode", fn("_codecs.encode", (args) => {
    const [s, enc] = args;
    if (typeof s !== "string") throw new UnpicklingError(`encode() argument 'obj' must be str, not ${pyTypeName(s)}`);
    const e = typeof enc === "string" ? enc.toLowerCase().replace(/[-_]/g, "") : "utf8";
    if (e === "latin1" || e === "iso88591") return bytesFromLatin1(s);
    if (e === "utf8") return new TextEncoder().encode(s);
    if (e === "ascii") {
      if (/[^\x00-\x7f]/.test(s)) throw new UnpicklingError("'ascii' codec can't encode character");
      return bytesFromLatin1(s);
    }
    throw new UnpicklingError(`encode(): unknown encoding: ${String(enc)}`);
  }));
  rc.set("builtins.bytearray", cls("builtins.bytearray", (args) => {
    const [src, enc] = args;
    if (src === undefined) return new Uint8Array(0);
    if (src instanceof Uint8Array) return new Uint8Array(src);
    if (typeof src === "string" && (enc === "latin-1" || enc === "latin1")) return bytesFromLatin1(src);
    throw new UnpicklingError(`bytearray(): cannot build from ${pyTypeName(src)}`);
  }));
  rc.set("builtins.set", cls("builtins.set", (args) => {
    const s = new PySet();
    const src = args[0];
    if (src === undefined) return s;
    if (!Array.isArray(src)) throw new UnpicklingError(`set(): cannot build from ${pyTypeName(src)}`);
    s.items.push(...src);
    return s;
  }));
  for (const d of allDtypes) rc.set(`torch.${d.name}`, d);
  for (const [name, d] of storageClassDtypes) {
    rc.set(`torch.${name}`, new StorageType(`torch.${name}`, d));
    rc.set(`torch.cuda.${name}`, new StorageType(`torch.cuda.${name}`, d));
  }
  rc.set("torch.storage.UntypedStorage", new StorageType("torch.storage.UntypedStorage", uint8));
  rc.set("torch.UntypedStorage", new StorageType("torch.UntypedStorage", uint8));
  rc.set("torch._utils._rebuild_tensor", fn("torch._utils._rebuild_tensor", (a) => {
    if (a.length !== 4) throw new UnpicklingError(`_rebuild_tensor() takes 4 arguments (${a.length} given)`);
    return _rebuild_tensor(a[0], a[1], a[2], a[3]);
  }));
  rc.set("torch._utils._rebuild_tensor_v2", fn("torch._utils._rebuild_tensor_v2", _rebuild_tensor_v2));
  rc.set("torch._utils._rebuild_tensor_v3", fn("torch._utils._rebuild_tensor_v3", (a) => _rebuild_tensor_v3(a, asDtype)));
  rc.set("torch._utils._rebuild_parameter", fn("torch._utils._rebuild_parameter", _rebuild_parameter));
  rc.set("torch._utils._rebuild_parameter_with_state", fn("torch._utils._rebuild_parameter_with_state", _rebuild_parameter_with_state));
  rc.set("torch._utils._rebuild_meta_tensor_no_storage", fn("torch._utils._rebuild_meta_tensor_no_storage", (a) => _rebuild_meta_tensor_no_storage(a, asDtype)));
  rc.set("torch._tensor._rebuild_from_type_v2", fn("torch._tensor._rebuild_from_type_v2", (a) => {
    // (func, new_type, args, state): func(*args), then the Python attributes in state
    if (a.length !== 4) throw new UnpicklingError(`_rebuild_from_type_v2() takes 4 arguments (${a.length} given)`);
    const [func, newType, args, state] = a;
    if (!(func instanceof PyCallable) || func.kind !== "function" || !func.fullName.startsWith("torch._utils._rebuild_")) {
      throw new UnpicklingError(`Trying to call reduce for unrecognized function ${func instanceof PyCallable ? func.repr() : pyTypeName(func)}`);
    }
    if (newType !== tensorClass && newType !== parameterClass) {
      throw new UnpicklingError(`_rebuild_from_type_v2: Glasstorch builds torch.Tensor and Parameter only, not ${newType instanceof PyCallable ? newType.repr() : pyTypeName(newType)}`);
    }
    if (!Array.isArray(args)) throw new UnpicklingError("_rebuild_from_type_v2: args must be a tuple");
    const built = func.call(args);
    if (!(built instanceof Tensor)) throw new UnpicklingError("_rebuild_from_type_v2: the rebuild function did not return a tensor");
    let t: Tensor = built;
    // `if type(ret) is not new_type: ret = ret.as_subclass(new_type)`
    if (newType === parameterClass && !(t instanceof Parameter)) t = makeParameter(t, t.requires_grad);
    setObjState(t, state);
    return t;
  }));
  return rc;
}

let allowed: Map<string, unknown> | null = null;

/** GLOBAL module.name -> the allowed value, or PyTorch 2.x's refusal. */
export function findAllowedGlobal(moduleIn: string, name: string): unknown {
  const module = importMapping[moduleIn] ?? moduleIn;
  let fullPath = `${module}.${name}`;
  if (blocklistedModules.includes(module)) {
    throw new UnpicklingError(`Trying to load unsupported GLOBAL ${fullPath} whose module ${module} is blocked.`);
  }
  allowed ??= buildAllowed();
  if (allowed.has(fullPath)) return allowed.get(fullPath);
  const reason = knownUnsupported.get(fullPath);
  if (reason !== undefined) {
    throw new UnpicklingError(`GLOBAL ${fullPath} is allowed by PyTorch's weights-only unpickler, but Glasstorch has no ${reason}.`);
  }
  // builtins print without their module, as 2.x does
  if (fullPath.startsWith("builtins")) {
    fullPath = fullPath.slice("builtins".length);
    fullPath = fullPath.startsWith(".") ? fullPath.slice(1) : "builtins" + fullPath;
  }
  throw new UnpicklingError(
    `Unsupported global: GLOBAL ${fullPath} was not an allowed global by default. ` +
      `Glasstorch's torch.load is weights-only and has no add_safe_globals: a checkpoint may hold tensors, ` +
      `storages, dtypes, devices, torch.Size and plain containers only.`,
  );
}
