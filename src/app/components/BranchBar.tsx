import { switchBranch } from '../branches';
import { rs } from '../i18n/runStrings';
import { useApp } from '../store';
import './run.css';

/**
 * The runs of a forked scenario, shown once there is more than one: each branch with where it
 * left its parent; the current one pressed. B returns to the previous branch. While a fork
 * replays its prefix, a progress line.
 */
export function BranchBar() {
  const lang = useApp((st) => st.lang);
  const branches = useApp((st) => st.branches);
  const current = useApp((st) => st.branchId);
  const forking = useApp((st) => st.forking);
  if (!forking && branches.length < 2) return null;
  const sec = (t: number) => (t / 1000).toFixed(2);
  return (
    <div className="branch-bar" role="group" aria-label={rs(lang, 'branches')} data-testid="branches">
      <span className="field-label">{rs(lang, 'branches')}</span>
      {branches.map((b) => (
        <button
          key={b.id}
          type="button"
          className="compact"
          aria-pressed={b.id === current}
          onClick={() => void switchBranch(b.id)}
          data-testid={`branch-${b.id}`}
          data-fork-t={b.parent?.t ?? ''}
          title={b.parent ? rs(lang, 'branchFrom', { n: b.id, parent: b.parent.id, t: sec(b.parent.t) }) : rs(lang, 'branchLabel', { n: b.id })}
        >
          {b.parent ? rs(lang, 'branchForkedAt', { n: b.id, t: sec(b.parent.t) }) : rs(lang, 'branchLabel', { n: b.id })}
        </button>
      ))}
      <kbd title={rs(lang, 'branchBack')}>B</kbd>
      {forking && (
        <span className="branch-forking" role="status" data-testid="forking">
          {rs(lang, 'forking', { t: sec(forking.t) })}
          <progress max={1} value={forking.progress} />
        </span>
      )}
    </div>
  );
}
