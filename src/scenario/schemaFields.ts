import './zodConfig'; // the same parser everywhere (the engine worker's entry imports it before anything else)
import { z } from 'zod/mini';
import { localizedText } from './text';
import { formatMessages } from './problems';

/**
 * Field types the scenario schema's parts share (schema.ts and its siblings): node ids, localized
 * text, and bounded numbers.
 */

export const nodeId = z.string().check(z.regex(/^[wsbc]\d+$/, formatMessages['node-id']));
/** Where an action takes one node, a selector resolved when it fires may stand instead (CURRICULUM §C.1). */
export const nodeSelectors = ['@leader', '@crashed'] as const;
export const actionNode = z.string().check(z.regex(/^([wsbc]\d+|@leader|@crashed)$/, formatMessages['action-node']));
export const workerId = z.string().check(z.regex(/^w\d+$/, formatMessages['training-worker']));
export const text = localizedText(z.string());
export const nonNeg = z.number().check(z.nonnegative());
export const prob = z.number().check(z.minimum(0), z.maximum(1));
export const positive = z.number().check(z.positive());
/** A number in [lo, hi]; `int` for whole numbers. */
export const between = (lo: number, hi: number) => z.number().check(z.minimum(lo), z.maximum(hi));
export const intBetween = (lo: number, hi: number) => z.int().check(z.minimum(lo), z.maximum(hi));
/** A positive number of at most `hi`. */
export const positiveMax = (hi: number) => z.number().check(z.positive(), z.maximum(hi));
