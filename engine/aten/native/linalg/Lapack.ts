// The LAPACK routines the torch.linalg kernels call (getrf, getrs, potrf, geqrf, orgqr, gesdd), in
// TypeScript on column-major float64 matrices (element (i, j) at a[i + j * lda]). They follow the
// reference LAPACK's unblocked algorithms (dgetf2, dpotf2, dgeqr2/dlarfg, dorg2r), so pivots, signs
// and `info` codes are LAPACK's; float32 inputs are computed in float64 and rounded once on output.
// The SVD is a one-sided Jacobi (Hestenes) method: singular values agree with LAPACK's gesdd, the
// signs of the singular vectors need not.

/** dgetf2: LU with partial pivoting of an m x n matrix in place. pivots are 1-based; info = first zero pivot (1-based) or 0. */
export function getrf(a: Float64Array, m: number, n: number, pivots: Int32Array): number {
  let info = 0;
  const k = Math.min(m, n);
  for (let j = 0; j < k; j++) {
    // idamax: the first row with the largest |a(i, j)|
    let p = j, best = Math.abs(a[j + j * m]);
    for (let i = j + 1; i < m; i++) {
      const v = Math.abs(a[i + j * m]);
      if (v > best || (Number.isNaN(v) && !Number.isNaN(best))) {
        best = v;
        p = i;
      }
    }
    pivots[j] = p + 1;
    if (a[p + j * m] !== 0) {
      if (p !== j) {
        for (let c = 0; c < n; c++) {
          const t = a[j + c * m];
          a[j + c * m] = a[p + c * m];
          a[p + c * m] = t;
        }
      }
      const r = 1 / a[j + j * m];
      for (let i = j + 1; i < m; i++) a[i + j * m] *= r;
    } else if (info === 0) {
      info = j + 1;
    }
    // rank-1 update of the trailing submatrix
    for (let c = j + 1; c < n; c++) {
      const ajc = a[j + c * m];
      if (ajc === 0) continue;
      for (let i = j + 1; i < m; i++) a[i + c * m] -= a[i + j * m] * ajc;
    }
  }
  return info;
}

/**
 * dgetrs: solves op(A) X = B with A = P L U from getrf (n x n), B n x nrhs in place.
 * trans: solve A^T X = B instead.
 */
export function getrs(lu: Float64Array, n: number, pivots: Int32Array, b: Float64Array, nrhs: number, trans: boolean): void {
  if (!trans) {
    for (let i = 0; i < n; i++) {
      const p = pivots[i] - 1;
      if (p !== i) for (let c = 0; c < nrhs; c++) [b[i + c * n], b[p + c * n]] = [b[p + c * n], b[i + c * n]];
    }
    for (let c = 0; c < nrhs; c++) {
      const o = c * n;
      for (let j = 0; j < n; j++) {
        const bj = b[o + j]; // L is unit lower triangular
        if (bj !== 0) for (let i = j + 1; i < n; i++) b[o + i] -= bj * lu[i + j * n];
      }
      for (let j = n - 1; j >= 0; j--) {
        b[o + j] /= lu[j + j * n];
        const bj = b[o + j];
        if (bj !== 0) for (let i = 0; i < j; i++) b[o + i] -= bj * lu[i + j * n];
      }
    }
    return;
  }
  // A^T = U^T L^T P^T: solve U^T y = b, then L^T z = y, then x = P z
  for (let c = 0; c < nrhs; c++) {
    const o = c * n;
    for (let j = 0; j < n; j++) {
      let s = b[o + j];
      for (let i = 0; i < j; i++) s -= lu[i + j * n] * b[o + i];
      b[o + j] = s / lu[j + j * n];
    }
    for (let j = n - 1; j >= 0; j--) {
      let s = b[o + j];
      for (let i = j + 1; i < n; i++) s -= lu[i + j * n] * b[o + i];
      b[o + j] = s;
    }
  }
  for (let i = n - 1; i >= 0; i--) {
    const p = pivots[i] - 1;
    if (p !== i) for (let c = 0; c < nrhs; c++) [b[i + c * n], b[p + c * n]] = [b[p + c * n], b[i + c * n]];
  }
}

/**
 * dpotf2: Cholesky of the lower (or upper) triangle in place. info = order of the first leading
 * minor that is not positive-definite; there, the non-positive value is left on the diagonal.
 */
export function potrf(a: Float64Array, n: number, upper: boolean): number {
  // work on the lower triangle; for upper, A = U^T U with U^T = the lower factor of A^T
  const at = (i: number, j: number) => (upper ? j + i * n : i + j * n);
  for (let j = 0; j < n; j++) {
    let ajj = a[at(j, j)];
    for (let k = 0; k < j; k++) ajj -= a[at(j, k)] * a[at(j, k)];
    if (!(ajj > 0)) {
      a[at(j, j)] = ajj;
      return j + 1;
    }
    ajj = Math.sqrt(ajj);
    a[at(j, j)] = ajj;
    for (let i = j + 1; i < n; i++) {
      let s = a[at(i, j)];
      for (let k = 0; k < j; k++) s -= a[at(i, k)] * a[at(j, k)];
      a[at(i, j)] = s / ajj;
    }
  }
  return 0;
}

/** dgeqr2 with dlarfg: Householder QR in place (R above the diagonal, reflectors below); returns tau. */
export function geqrf(a: Float64Array, m: number, n: number): Float64Array {
  const k = Math.min(m, n);
  const tau = new Float64Array(k);
  for (let j = 0; j < k; j++) {
    const alpha = a[j + j * m];
    let xnorm = 0;
    for (let i = j + 1; i < m; i++) xnorm = Math.hypot(xnorm, a[i + j * m]);
    if (xnorm === 0) {
      tau[j] = 0; // H = I
      continue;
    }
    const beta = -Math.sign(alpha || 1) * Math.hypot(alpha, xnorm);
    tau[j] = (beta - alpha) / beta;
    const scale = 1 / (alpha - beta);
    for (let i = j + 1; i < m; i++) a[i + j * m] *= scale;
    a[j + j * m] = beta;
    // apply H = I - tau v v^T (v = [1, a(j+1:m, j)]) to a(j:m, j+1:n) from the left
    for (let c = j + 1; c < n; c++) {
      let w = a[j + c * m];
      for (let i = j + 1; i < m; i++) w += a[i + j * m] * a[i + c * m];
      w *= tau[j];
      a[j + c * m] -= w;
      for (let i = j + 1; i < m; i++) a[i + c * m] -= a[i + j * m] * w;
    }
  }
  return tau;
}

/** dorg2r: the first `cols` columns of Q = H_1 ... H_k from geqrf's reflectors (m x cols). */
export function orgqr(qr: Float64Array, m: number, tau: Float64Array, cols: number): Float64Array {
  const q = new Float64Array(m * cols);
  for (let i = 0; i < Math.min(m, cols); i++) q[i + i * m] = 1;
  for (let j = tau.length - 1; j >= 0; j--) {
    for (let c = 0; c < cols; c++) {
      let w = q[j + c * m];
      for (let i = j + 1; i < m; i++) w += qr[i + j * m] * q[i + c * m];
      w *= tau[j];
      if (w === 0) continue;
      q[j + c * m] -= w;
      for (let i = j + 1; i < m; i++) q[i + c * m] -= qr[i + j * m] * w;
    }
  }
  return q;
}

/**
 * SVD of an m x n matrix (m >= n) by one-sided Jacobi: returns U (m x n, orthonormal columns), S
 * (descending) and V (n x n), all column-major.
 */
function jacobiTall(a: Float64Array, m: number, n: number): { u: Float64Array; s: Float64Array; v: Float64Array } {
  const u = Float64Array.from(a);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i + i * n] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let rotated = false;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        let alpha = 0, beta = 0, gamma = 0;
        for (let i = 0; i < m; i++) {
          const up = u[i + p * m], uq = u[i + q * m];
          alpha += up * up;
          beta += uq * uq;
          gamma += up * uq;
        }
        if (Math.abs(gamma) <= 1e-15 * Math.sqrt(alpha * beta) || gamma === 0) continue;
        rotated = true;
        const zeta = (beta - alpha) / (2 * gamma);
        const t = Math.sign(zeta || 1) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
        const c = 1 / Math.sqrt(1 + t * t), s = c * t;
        for (let i = 0; i < m; i++) {
          const up = u[i + p * m], uq = u[i + q * m];
          u[i + p * m] = c * up - s * uq;
          u[i + q * m] = s * up + c * uq;
        }
        for (let i = 0; i < n; i++) {
          const vp = v[i + p * n], vq = v[i + q * n];
          v[i + p * n] = c * vp - s * vq;
          v[i + q * n] = s * vp + c * vq;
        }
      }
    }
    if (!rotated) break;
  }
  const norms = Array.from({ length: n }, (_, j) => {
    let s = 0;
    for (let i = 0; i < m; i++) s = Math.hypot(s, u[i + j * m]);
    return s;
  });
  const order = norms.map((_, j) => j).sort((x, y) => norms[y] - norms[x]);
  const U = new Float64Array(m * n), V = new Float64Array(n * n), S = new Float64Array(n);
  order.forEach((j, k) => {
    S[k] = norms[j];
    for (let i = 0; i < m; i++) U[i + k * m] = norms[j] > 0 ? u[i + j * m] / norms[j] : 0;
    for (let i = 0; i < n; i++) V[i + k * n] = v[i + j * n];
  });
  return { u: U, s: S, v: V };
}

/**
 * The first `want` columns of an orthonormal basis that starts with q's columns (rows x have):
 * columns whose singular value is 0 (when s is given) and columns past `have` are filled by
 * Gram-Schmidt on the standard basis vectors, so U (or V) is orthogonal even for rank-deficient A.
 */
function completeBasis(q: Float64Array, rows: number, have: number, s: Float64Array | null, want: number): Float64Array {
  const out = new Float64Array(rows * want);
  const filled = new Array<boolean>(want).fill(false);
  for (let c = 0; c < Math.min(have, want); c++) {
    if (s !== null && !(s[c] > 0)) continue;
    out.set(q.subarray(c * rows, (c + 1) * rows), c * rows);
    filled[c] = true;
  }
  let e = 0;
  for (let t = 0; t < want; t++) {
    if (filled[t]) continue;
    for (; e < rows; e++) {
      const cand = new Float64Array(rows);
      cand[e] = 1;
      for (let pass = 0; pass < 2; pass++) {
        for (let c = 0; c < want; c++) {
          if (!filled[c]) continue;
          let d = 0;
          for (let i = 0; i < rows; i++) d += out[i + c * rows] * cand[i];
          for (let i = 0; i < rows; i++) cand[i] -= d * out[i + c * rows];
        }
      }
      let nrm = 0;
      for (let i = 0; i < rows; i++) nrm = Math.hypot(nrm, cand[i]);
      if (nrm < 1e-8) continue;
      for (let i = 0; i < rows; i++) out[i + t * rows] = cand[i] / nrm;
      filled[t] = true;
      e++;
      break;
    }
  }
  return out;
}

/**
 * SVD of an m x n matrix: U (m x ucols), S (min(m, n), descending), Vh (vrows x n), column-major;
 * full gives ucols = m and vrows = n, otherwise both are min(m, n).
 */
export function svd(a: Float64Array, m: number, n: number, full: boolean): { u: Float64Array; s: Float64Array; vh: Float64Array; ucols: number; vrows: number } {
  const k = Math.min(m, n);
  const ucols = full ? m : k, vrows = full ? n : k;
  // work on the tall one of A and A^T
  const tall = m >= n;
  const rows = tall ? m : n, cols = tall ? n : m;
  const w = new Float64Array(rows * cols);
  for (let j = 0; j < cols; j++) for (let i = 0; i < rows; i++) w[i + j * rows] = tall ? a[i + j * m] : a[j + i * m];
  const r = jacobiTall(w, rows, cols);
  // tall: A = U S V^T; wide: A^T = U' S V'^T, so A = V' S U'^T
  const left = completeBasis(r.u, rows, cols, r.s, tall ? ucols : vrows); // columns of U (tall) or V (wide)
  const right = completeBasis(r.v, cols, cols, null, cols); // V (tall) or U (wide): already square
  let u: Float64Array, vh: Float64Array;
  if (tall) {
    u = left;
    vh = new Float64Array(vrows * n);
    for (let i = 0; i < vrows; i++) for (let j = 0; j < n; j++) vh[i + j * vrows] = right[j + i * n];
  } else {
    u = right.slice(0, m * ucols);
    vh = new Float64Array(vrows * n);
    for (let i = 0; i < vrows; i++) for (let j = 0; j < n; j++) vh[i + j * vrows] = left[j + i * n];
  }
  return { u, s: r.s.slice(0, k), vh, ucols, vrows };
}
