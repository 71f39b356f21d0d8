// A progress bar as one line of text, tqdm's layout: "train  45%|█████▍      | 45/100 [12.3 it/s]".

import type { ProgressNotification } from "../../host/protocol.js";

const WIDTH = 24;
const PARTIAL = [" ", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];

export function progressBarText(p: ProgressNotification): string {
  const label = p.label ? `${p.label} ` : "";
  const rate = p.rate !== undefined && Number.isFinite(p.rate) ? ` [${formatRate(p.rate)}]` : "";
  const done = p.done ? " done" : "";
  if (p.total === undefined || !(p.total > 0)) return `${label}${p.current} it${rate}${done}`;
  const fraction = Math.min(1, Math.max(0, p.current / p.total));
  const eighths = Math.floor(fraction * WIDTH * 8);
  const full = Math.floor(eighths / 8);
  const bar = "█".repeat(full) + (full < WIDTH ? PARTIAL[eighths % 8] + " ".repeat(WIDTH - full - 1) : "");
  const percent = `${Math.floor(fraction * 100)}`.padStart(3);
  return `${label}${percent}%|${bar}| ${p.current}/${p.total}${rate}${done}`;
}

function formatRate(rate: number): string {
  return rate >= 1 || rate === 0 ? `${rate.toFixed(rate >= 100 ? 0 : 1)} it/s` : `${(1 / rate).toFixed(1)} s/it`;
}
