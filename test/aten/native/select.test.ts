// The select family (where, sort, argsort) against PyTorch 1.13 (fixtures/select.json, written by
// fixtures/gen_select.py): sizes, strides, dtypes, values, out= results, meta results, error texts.
import { describe, it, expect } from "vitest";
import * as torch from "../../../engine/index.js";
import { loadFixture } from "../../support/fixtures.js";
import { describeOpCases } from "../../support/op_cases.js";

const F = loadFixture("select.json");

/**
 * Known differences: 1.13's where.self_out with a wrong out dtype fails an internal assert in Loops.h, where
 * Glasstorch raises "Expected out type to be ...". On meta, PyTorch 1.13 runs where through a Python meta
 * registration (torch/_refs) with its own error texts and layouts, and argsort.stable has no Meta kernel at all;
 * there Glasstorch's meta result is held to PyTorch's real (CPU) result instead.
 */
const KNOWN = new Set(["err_where_out_dtype"]);
const META_LIKE_CPU = new Set([
  "err_where_cond_float", "err_where_broadcast", "err_where_out_dtype", "where_noncontig", "where_uint8_cond", "argsort_stable",
]);

describeOpCases("select ops match PyTorch (sizes, strides, dtype, values, out=, errors)", F, { skip: KNOWN, skipMeta: KNOWN, metaLikeCpu: META_LIKE_CPU });
