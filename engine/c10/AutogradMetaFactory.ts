// How a TensorImpl gets its autograd metadata (c10/core/TensorImpl.h: AutogradMetaFactory).
// c10 cannot know autograd's types, so autograd installs a factory at load time; until then a plain
// record of requires_grad is used, which is all a tensor needs before any graph exists.

import type { AutogradMetaInterface } from "./TensorImpl.js";

export interface AutogradMetaFactory {
  make(requiresGrad: boolean): AutogradMetaInterface;
}

class PlainAutogradMeta implements AutogradMetaInterface {
  constructor(private requiresGrad: boolean) {}
  requires_grad(): boolean {
    return this.requiresGrad;
  }
  set_requires_grad(requiresGrad: boolean): void {
    this.requiresGrad = requiresGrad;
  }
}

let factory: AutogradMetaFactory = { make: (r) => new PlainAutogradMeta(r) };

export function SetAutogradMetaFactory(f: AutogradMetaFactory): void {
  factory = f;
}

export function GetAutogradMetaFactory(): AutogradMetaFactory {
  return factory;
}
