import type { KafkaPsConfig } from './knobs';

/** acks=all, min.insync.replicas ≥ 2 and no unclean election: no acknowledged record may be lost. */
export function kafkaDurable(cfg: KafkaPsConfig): boolean {
  return cfg.acks === 'all' && cfg['min.insync.replicas'] >= 2 && !cfg['unclean.leader.election.enable'];
}
