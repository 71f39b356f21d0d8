// The exception types PyTorch raises, so a learner sees the same kind and text as in Python.
// `op` names the operator that raised (PyTorch puts it in the traceback; we carry it on the error).

export interface TorchErrorOptions {
  op?: string;
}

function init(err: Error & { op?: string }, name: string, opts?: TorchErrorOptions): void {
  err.name = name;
  if (opts?.op) err.op = opts.op;
}

export class RuntimeError extends Error {
  op?: string;
  constructor(message: string, opts?: TorchErrorOptions) {
    super(message);
    init(this, "RuntimeError", opts);
  }
}

export class IndexError extends Error {
  op?: string;
  constructor(message: string, opts?: TorchErrorOptions) {
    super(message);
    init(this, "IndexError", opts);
  }
}

export class ValueError extends Error {
  op?: string;
  constructor(message: string, opts?: TorchErrorOptions) {
    super(message);
    init(this, "ValueError", opts);
  }
}

/** Python's TypeError; also an instance of JavaScript's TypeError. */
export class TypeError_ extends TypeError {
  op?: string;
  constructor(message: string, opts?: TorchErrorOptions) {
    super(message);
    init(this, "TypeError", opts);
  }
}

/** Python's KeyError (the message is the key's text, as str(KeyError(text)) shows it). */
export class KeyError extends Error {
  op?: string;
  constructor(message: string, opts?: TorchErrorOptions) {
    super(message);
    init(this, "KeyError", opts);
  }
}

/** Python's AttributeError. */
export class AttributeError extends Error {
  op?: string;
  constructor(message: string, opts?: TorchErrorOptions) {
    super(message);
    init(this, "AttributeError", opts);
  }
}

export class NotImplementedError extends Error {
  op?: string;
  constructor(message: string, opts?: TorchErrorOptions) {
    super(message);
    init(this, "NotImplementedError", opts);
  }
}

/**
 * torch.linalg.LinAlgError (torch._C._LinAlgError): a RuntimeError raised by TORCH_CHECK_LINALG when a
 * decomposition fails on its input (a singular matrix, a matrix that is not positive-definite).
 */
export class LinAlgError extends RuntimeError {
  constructor(message: string, opts?: TorchErrorOptions) {
    super(message, opts);
    this.name = "_LinAlgError";
  }
}

/** TORCH_CHECK: throws a RuntimeError with the message when the condition fails. */
export function TORCH_CHECK(cond: unknown, message: string | (() => string), opts?: TorchErrorOptions): asserts cond {
  if (!cond) throw new RuntimeError(typeof message === "string" ? message : message(), opts);
}

/**
 * Python's KeyboardInterrupt: what a run stopped by Ctrl-C (the notebook's interrupt) raises. Not a
 * RuntimeError, so `catch` blocks that handle engine errors by class let it through.
 */
export class KeyboardInterrupt extends Error {
  op?: string;
  constructor(message = "", opts?: TorchErrorOptions) {
    super(message);
    init(this, "KeyboardInterrupt", opts);
  }
}

/** Python's AssertionError: what a failed `assert` in torch/nn/functional.py raises (multi_head_attention_forward's checks). */
export class AssertionError extends Error {
  op?: string;
  constructor(message = "", opts?: TorchErrorOptions) {
    super(message);
    init(this, "AssertionError", opts);
  }
}
