import type { CoordinationConfig, ReadMode } from './config';

/** The read mode in force: the service's default where the scenario names none. */
export function readModeOf(cfg: CoordinationConfig): ReadMode {
  return cfg.reads ?? (cfg.service === 'etcd' ? 'linearizable' : 'local');
}
