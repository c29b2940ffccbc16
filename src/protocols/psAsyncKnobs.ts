import { z } from 'zod/mini';

/** Knobs of `ps-async` (the strategy, and where its rules come from: psAsync.ts; the lock path: psAsyncRmw.ts). */
export const psAsyncKnobs = z.strictObject({
  kind: z.literal('ps-async'),
  pushTimeoutMs: z._default(z.number().check(z.positive()), 300),
  checkpointEveryMs: z._default(z.number().check(z.nonnegative()), 2000),
  /** Scale each gradient's learning rate by 1/max(1, τ), τ its staleness at apply (Zhang et al. 2016). */
  lrStaleness: z._default(z.enum(['none', 'inverse']), 'none'),
  /**
   * "lease": before each update a worker takes a lock from the coordination service (a
   * lease-bound key / an ephemeral sequential znode), reads the parameters, computes, writes and
   * releases — the recipe of CURRICULUM L11 (psAsyncRmw.ts). "none": asynchronous pushes.
   */
  writeLock: z._default(z.enum(['none', 'lease']), 'none'),
  /** "add": the server applies the gradient. "set": the worker writes back the whole vector it computed (a late write overwrites). */
  writeMode: z._default(z.enum(['add', 'set']), 'add'),
  /** The server checks each lock grant's fencing token and refuses one older than the newest it has seen. */
  fencing: z._default(z.boolean(), false),
});
export type PsAsyncConfig = z.infer<typeof psAsyncKnobs>;
