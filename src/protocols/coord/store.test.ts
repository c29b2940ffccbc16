import { describe, expect, it } from 'vitest';
import { CoordStore, type Cmd } from './store';

const open = (client: string, lease: number): Cmd => ({ op: 'open', client, lease, ttlMs: 1000 });
let req = 0;
const lock = (client: string, lease: number): Cmd => ({ op: 'lock', client, reqId: ++req, lease, name: 'params' });

describe.each(['etcd', 'zookeeper'] as const)('coordination store (%s)', (flavour) => {
  // ZooKeeper's ids are the transactions' zxids; etcd counts revisions itself.
  let zxid = 0;
  const apply = (s: CoordStore, c: Cmd) => s.apply(c, flavour === 'zookeeper' ? ++zxid : 0);

  it('a lock is the oldest key under its prefix; tokens grow in grant order; a closed lease frees it', () => {
    const s = new CoordStore(flavour);
    for (const [c, l] of [['w0', 1], ['w1', 2], ['w2', 3]] as const) apply(s, open(c, l));
    const t0 = apply(s, lock('w0', 1)).result;
    const t1 = apply(s, lock('w1', 2)).result;
    apply(s, lock('w2', 3));
    expect(t0.t === 'queued' && t1.t === 'queued' && t0.token < t1.token).toBe(true);
    expect(s.lockQueue('params').map((e) => e.client)).toEqual(['w0', 'w1', 'w2']);
    // w0's lease expires: its key goes with it, and w1 is the holder.
    const closed = apply(s, { op: 'close', lease: 1 });
    expect(closed.deleted).toHaveLength(1);
    expect(s.lockQueue('params').map((e) => e.client)).toEqual(['w1', 'w2']);
    expect(s.closed.has(1)).toBe(true);
    // A closed lease cannot join again (its session is gone for good).
    expect(apply(s, lock('w0', 1)).result).toEqual({ t: 'noLease' });
    expect(apply(s, open('w0', 1)).result).toEqual({ t: 'opened' });
    expect(s.leases.has(1)).toBe(false);
  });

  it('a retried request is answered, not applied twice; unlock deletes only the key of its own grant', () => {
    const s = new CoordStore(flavour);
    apply(s, open('w0', 1));
    const first: Cmd = { op: 'lock', client: 'w0', reqId: 100, lease: 1, name: 'params' };
    const a = apply(s, first).result;
    const again = apply(s, first).result;
    expect(again).toEqual(a);
    expect(s.lockQueue('params')).toHaveLength(1);
    const token = a.t === 'queued' ? a.token : -1;
    // Asking again while its key exists gives that key back (one key per lease).
    expect(apply(s, { op: 'lock', client: 'w0', reqId: 103, lease: 1, name: 'params' }).result).toEqual(a);
    expect(s.lockQueue('params')).toHaveLength(1);
    // A late unlock of an earlier grant (another token) leaves the new key alone.
    expect(apply(s, { op: 'unlock', client: 'w0', reqId: 101, lease: 1, name: 'params', token: token - 1 }).deleted).toEqual([]);
    expect(s.lockQueue('params')).toHaveLength(1);
    expect(apply(s, { op: 'unlock', client: 'w0', reqId: 102, lease: 1, name: 'params', token }).deleted).toHaveLength(1);
    expect(s.lockQueue('params')).toHaveLength(0);
  });

  it('create-if-absent succeeds once; put counts versions', () => {
    const s = new CoordStore(flavour);
    const a = apply(s, { op: 'create', client: 'w0', reqId: 1, key: '/degrade/epoch/2', value: 'w0,w1' }).result;
    const b = apply(s, { op: 'create', client: 'w4', reqId: 1, key: '/degrade/epoch/2', value: 'w4,w5' }).result;
    expect(a.t).toBe('created');
    expect(b).toEqual({ t: 'exists', value: 'w0,w1' });
    expect(apply(s, { op: 'put', key: '/ckpt/latest', value: 'a', opId: 1 }).result).toEqual({ t: 'put', version: 1 });
    expect(apply(s, { op: 'put', key: '/ckpt/latest', value: 'b', opId: 2 }).result).toEqual({ t: 'put', version: 2 });
    expect(s.keys.get('/ckpt/latest')?.value).toBe('b');
  });
});

it('etcd: one revision per change, none for a failed compare; ZooKeeper: sequential znode names', () => {
  const e = new CoordStore('etcd');
  e.apply(open('w0', 1));
  expect(e.rev).toBe(0);
  e.apply({ op: 'create', client: 'w0', reqId: 1, key: '/k', value: 'v' });
  e.apply({ op: 'create', client: 'w1', reqId: 1, key: '/k', value: 'x' });
  expect(e.rev).toBe(1);
  const z = new CoordStore('zookeeper');
  z.apply(open('w0', 7), 1);
  z.apply(open('w1', 8), 2);
  const a = z.apply({ op: 'lock', client: 'w0', reqId: 1, lease: 7, name: 'params' }, 3).result;
  const b = z.apply({ op: 'lock', client: 'w1', reqId: 1, lease: 8, name: 'params' }, 4).result;
  expect(a).toEqual({ t: 'queued', key: '/locks/params/lock-0000000000', token: 3 });
  expect(b).toEqual({ t: 'queued', key: '/locks/params/lock-0000000001', token: 4 });
});
