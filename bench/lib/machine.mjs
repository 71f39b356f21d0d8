// What the benchmark ran on: CPU model, cores, ISA flags, clock, memory, Node/V8, and which BLAS each
// side uses — so a results file says under which conditions its numbers hold.
import { readFileSync, existsSync } from "node:fs";
import { spawnSync } from "node:child_process";
import os from "node:os";

const read = (p) => { try { return readFileSync(p, "utf8"); } catch { return ""; } };

/** CPU model, logical/physical cores, flags, clock (max of /proc/cpuinfo's "cpu MHz", or cpufreq's max). */
export function describeCpu() {
  const info = read("/proc/cpuinfo");
  const field = (name) => [...info.matchAll(new RegExp(`^${name}\\s*:\\s*(.*)$`, "gm"))].map((m) => m[1].trim());
  const flags = new Set((field("flags")[0] ?? "").split(/\s+/));
  const mhz = field("cpu MHz").map(Number).filter((x) => x > 0);
  const maxFreqKHz = Number(read("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq").trim()) || 0;
  const physical = new Set(field("physical id").map((p, i) => `${p}:${field("core id")[i]}`)).size || null;
  const clockGHz = maxFreqKHz ? maxFreqKHz / 1e6 : mhz.length ? Math.max(...mhz) / 1000 : null;
  return {
    model: field("model name")[0] ?? os.cpus()[0]?.model ?? "unknown",
    logical_cores: os.cpus().length,
    physical_cores: physical,
    flags: { avx2: flags.has("avx2"), fma: flags.has("fma"), avx512f: flags.has("avx512f"), avx512bw: flags.has("avx512bw"), avx512vl: flags.has("avx512vl") },
    clock_ghz: clockGHz,
    clock_source: maxFreqKHz ? "cpufreq cpuinfo_max_freq" : "max 'cpu MHz' in /proc/cpuinfo (not measured)",
  };
}

/**
 * Microseconds to first touch a fresh 4 KiB page (best of 3 fresh 64 MiB mappings, one write per page).
 * Bare metal takes ~0.1-0.3; some VMs take 10-15 (measured here on 2026-11-24: 13-15), and then every
 * fresh allocation a workload makes is billed far above its work, on each side alike: PyTorch's oneDNN
 * reorders into fresh buffers (8x64x56x56 3x3 conv: 5 ms a call at cheap faults, 35-40 at 15 us),
 * a fresh 1e7-element result (10k pages). Results taken at different fault costs do not compare.
 */
export function measurePageFaultUs() {
  const bytes = 64 << 20;
  let best = Infinity;
  for (let r = 0; r < 3; r++) {
    const t0 = process.hrtime.bigint();
    const b = Buffer.allocUnsafeSlow(bytes);  // (malloc'd: above glibc's largest mmap threshold, a fresh mapping)
    for (let i = 0; i < bytes; i += 4096) b[i] = 1;
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e3 / (bytes / 4096));
  }
  return +best.toFixed(3);
}

export function describeMachine() {
  return {
    host: os.hostname(),
    os: `${os.type()} ${os.release()}`,
    cpu: describeCpu(),
    memory_gib: +(os.totalmem() / 2 ** 30).toFixed(1),
    loadavg_at_start: os.loadavg().map((x) => +x.toFixed(2)),
    page_fault_us: measurePageFaultUs(),
    node: process.version,
    v8: process.versions.v8,
  };
}

/** Shared objects of this process whose names say BLAS (the addon links its CBLAS when it was built with one). */
export function mappedBlas() {
  const libs = new Set();
  for (const line of read("/proc/self/maps").split("\n")) {
    const path = line.trim().split(/\s+/)[5];
    if (path && /blas|lapack|mkl|blis/i.test(path.split("/").pop())) libs.add(path);
  }
  return [...libs];
}

/**
 * Glasstorch's GEMM: the addon's own report when it has one (a status field naming GEMM/BLAS — the
 * native GEMM work adds it), else what this process has mapped, else "TypeScript GEMM".
 */
export function glasstorchBlas(status) {
  const addon = status?.addon ?? null;
  const reported = addon ? Object.fromEntries(Object.entries(addon).filter(([k]) => /gemm|blas/i.test(k))) : {};
  const mapped = mappedBlas();
  let kind;
  if (!status?.loaded) kind = "TypeScript GEMM (native addon not loaded)";
  else if (Object.keys(reported).length) kind = JSON.stringify(reported);
  else if (mapped.some((p) => /openblas/i.test(p))) kind = "OpenBLAS (mapped in this process; the addon does not report its GEMM)";
  else kind = "not reported by the addon (no BLAS mapped): TypeScript or the addon's own GEMM";
  return { kind, reported: Object.keys(reported).length ? reported : null, mapped };
}

/** The system's libblas.so.3 choice (update-alternatives), and whether any OpenBLAS package is installed. */
export function systemBlas() {
  const q = spawnSync("update-alternatives", ["--query", "libblas.so.3-x86_64-linux-gnu"], { encoding: "utf8" });
  const selected = q.status === 0 ? (/^Value:\s*(.*)$/m.exec(q.stdout)?.[1] ?? null) : null;
  const openblas = ["/usr/lib/x86_64-linux-gnu/openblas-pthread", "/usr/lib/x86_64-linux-gnu/openblas-openmp", "/usr/lib/x86_64-linux-gnu/openblas-serial"].filter(existsSync);
  return { libblas_so_3: selected, openblas_installed: openblas.length > 0, openblas_dirs: openblas };
}

export const OPENBLAS_APT = "apt-get install -y libopenblas0-pthread libopenblas-dev";

/** --install-openblas: run apt-get when root; otherwise say what to run. Returns whether it ran and succeeded. */
export function installOpenBlas(log = console.log) {
  if (process.getuid?.() !== 0) {
    log(`--install-openblas needs root; run: sudo ${OPENBLAS_APT}`);
    return false;
  }
  log(`running: ${OPENBLAS_APT}`);
  const r = spawnSync("sh", ["-c", `DEBIAN_FRONTEND=noninteractive ${OPENBLAS_APT}`], { stdio: "inherit" });
  return r.status === 0;
}

/**
 * The f32 multiply-add peak measured on this machine (issue #8): the addon's measure_fma_peak runs, on
 * `threads` threads, a register-resident loop of independent FMA chains of its current instruction set
 * and a dependent-add loop (the clock under load), timed by each thread's CPU time. The formula figure
 * (cores x 2 FMA ports x lanes x 2 x cpuinfo's clock) overstates Zen 4 (one 512-bit FMA per cycle per
 * core) and uses a nominal clock. Best of `repeats` runs (the machine is shared). null without the addon.
 */
export function measurePeak(addon, threads, repeats = 3) {
  if (!addon?.measure_fma_peak) return null;
  let best = null;
  for (let i = 0; i < repeats; i++) {
    const r = addon.measure_fma_peak(threads);
    if (!best || r.gflops > best.gflops) best = r;
  }
  return {
    isa: best.isa, threads: best.threads, f32_gflops: best.gflops, f32_gflops_wall: best.gflops_wall, clock_ghz: best.clock_ghz,
    flops_per_cycle_per_core: best.flops_per_cycle,
    method: "independent FMA chains in registers per thread, flops / thread CPU time (best of " + repeats + "); clock from a dependent-add loop",
  };
}
