import type { CoordContext, CoordServiceRuntime } from './api';
import { coordinationSchema, type CoordinationConfig } from './config';
import { EtcdService } from './etcd';
import { ZooKeeperService } from './zookeeper';

/** The coordination service the scenario asks for (etcd-like unless it says `zookeeper`). */
export function createCoordService(cfg: CoordinationConfig | undefined, ctx: CoordContext): CoordServiceRuntime {
  const c = cfg ?? coordinationSchema.parse({});
  return c.service === 'zookeeper' ? new ZooKeeperService(ctx, c) : new EtcdService(ctx, c);
}
