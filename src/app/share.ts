import { runScenario } from '../engine/runExport';
import type { RunReader } from '../engine/runReader';
import { encodeScenarioHashShortest } from '../scenario/hashCodec';

/**
 * The link that reopens this run (CONTRACTS §3, §5): the scenario with the user's actions in its
 * timeline (`"by": "user"`), in the shorter of the two `#scenario=` forms (`z:` = deflate-raw +
 * base64url). With `at`, it shares a moment: the page plays at full speed and puts the cursor at
 * that simulated time once the run has reached it.
 */
export async function runLink(sim: RunReader, href: string, opts: { at?: number } = {}): Promise<string> {
  const sc = runScenario(sim.scenario, sim.userActions());
  const url = new URL(href);
  for (const k of ['scenario', 'autoplay', 'at']) url.searchParams.delete(k);
  if (opts.at !== undefined) {
    url.searchParams.set('autoplay', '1');
    url.searchParams.set('speed', 'max');
    url.searchParams.set('at', String(Math.round(opts.at)));
  }
  url.hash = `scenario=${await encodeScenarioHashShortest(JSON.stringify(sc))}`;
  return url.toString();
}
