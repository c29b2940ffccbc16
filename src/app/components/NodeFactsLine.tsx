import { useApp } from '../store';
import { stateAt, staticOf } from '../views/runView';
import { wordsContext } from '../views/wordsContext';
import { nodeLines } from '../words/nodeWords';

/**
 * The selected node's typed facts in words (the node panel's status line), at the cursor time.
 * One line shows; every line is in the tooltip.
 */
export function NodeFactsLine({ id }: { id: string }) {
  const lang = useApp((st) => st.lang);
  const sim = useApp((st) => st.sim);
  const cursor = useApp((st) => st.cursor);
  useApp((st) => st.panelFrame);
  if (!sim) return null;
  const n = stateAt(sim, cursor ?? sim.now()).nodes.find((x) => x.id === id);
  if (!n) return null;
  const lines = n.up ? nodeLines(n, wordsContext(sim.scenario, staticOf(sim)), lang) : [];
  return (
    <span className="muted status-text" title={lines.join('\n')} data-testid="node-facts">
      {lines.join(' · ')}
    </span>
  );
}
