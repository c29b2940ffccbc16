import type { CoordContext, CoordServiceRuntime } from './api';
import { coordinationSchema, type CoordinationConfig } from './config';

/** Builds the service on a run's coordination nodes. */
export type CoordServiceFactory = (ctx: CoordContext) => CoordServiceRuntime;

/**
 * The coordination service the scenario asks for (etcd-like unless it says `zookeeper`). Its code
 * loads here, so a page whose scenario has no coordination nodes never fetches it (issue 9);
 * `Simulation.create` awaits this and hands the factory to the engine.
 */
export async function loadCoordService(cfg: CoordinationConfig | undefined): Promise<CoordServiceFactory> {
  const c = cfg ?? coordinationSchema.parse({});
  if (c.service === 'zookeeper') {
    const { ZooKeeperService } = await import('./zookeeper');
    return (ctx) => new ZooKeeperService(ctx, c);
  }
  const { EtcdService } = await import('./etcd');
  return (ctx) => new EtcdService(ctx, c);
}
