import type { StrategyContext } from '../strategy';
import { kafkaDurable } from './durable';
import { kafkaPsKnobs, kafkaPsProblems, type KafkaPsConfig } from './knobs';
import { KafkaPsStrategy } from './strategy';

export { kafkaDurable, kafkaPsKnobs, kafkaPsProblems, KafkaPsStrategy, type KafkaPsConfig };

/**
 * The context lists workers and servers but not brokers; they are b0…b(k−1), and asking about a
 * node the cluster does not have throws, which is how the count is found.
 * (A `brokers` list on StrategyContext would make this unnecessary.)
 */
export function createKafkaPs(cfg: KafkaPsConfig, ctx: StrategyContext): KafkaPsStrategy {
  return new KafkaPsStrategy(ctx, cfg, ctx.brokers.length);
}
