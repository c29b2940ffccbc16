import { z } from 'zod';

/** Knobs of `ps-async` (the strategy, and where its rules come from: psAsync.ts; the lock path: psAsyncRmw.ts). */
export const psAsyncKnobs = z
  .object({
    kind: z.literal('ps-async'),
    pushTimeoutMs: z.number().positive().default(300),
    checkpointEveryMs: z.number().nonnegative().default(2000),
    /** Scale each gradient's learning rate by 1/max(1, τ), τ its staleness at apply (Zhang et al. 2016). */
    lrStaleness: z.enum(['none', 'inverse']).default('none'),
    /**
     * "lease": before each update a worker takes a lock from the coordination service (a
     * lease-bound key / an ephemeral sequential znode), reads the parameters, computes, writes and
     * releases — the recipe of CURRICULUM L11 (psAsyncRmw.ts). "none": asynchronous pushes.
     */
    writeLock: z.enum(['none', 'lease']).default('none'),
    /** "add": the server applies the gradient. "set": the worker writes back the whole vector it computed (a late write overwrites). */
    writeMode: z.enum(['add', 'set']).default('add'),
    /** The server checks each lock grant's fencing token and refuses one older than the newest it has seen. */
    fencing: z.boolean().default(false),
  })
  .strict();
export type PsAsyncConfig = z.infer<typeof psAsyncKnobs>;
