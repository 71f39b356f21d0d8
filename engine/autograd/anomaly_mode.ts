// Anomaly mode (torch/csrc/autograd/anomaly_mode.h; torch/autograd/anomaly_mode.py): when on, every
// Node remembers the forward call site that made it, and backward checks each gradient for NaN.

let enabled = false;

export const AnomalyMode = {
  is_enabled(): boolean {
    return enabled;
  },
  set_enabled(value: boolean): void {
    enabled = value;
  },
};
