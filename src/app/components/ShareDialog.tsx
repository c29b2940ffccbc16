import { useEffect, useRef, useState } from 'react';
import { secondsNumber } from '../format';
import { rs } from '../i18n/runStrings';
import { runLink } from '../share';
import { set, useApp } from '../store';
import './run.css';

/**
 * Share: the link to this run (its scenario plus the user's actions), "share this moment" when
 * the cursor is scrubbed back (the link opens there), a copy button, and "Export run" (one zip:
 * scenario, event log, samples, every view as SVG and PNG).
 */
export function ShareDialog() {
  const open = useApp((st) => st.shareOpen);
  const sim = useApp((st) => st.sim);
  const lang = useApp((st) => st.lang);
  const cursor = useApp((st) => st.cursor);
  // Closed, the dialog does not follow the run (it would re-render on every frame).
  const frame = useApp((st) => (st.shareOpen ? st.frame : -1));
  const [moment, setMoment] = useState(false);
  const [link, setLink] = useState('');
  const [copyState, setCopyState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const [exportState, setExportState] = useState<string>('');
  const inputRef = useRef<HTMLInputElement>(null);
  const userCount = sim && open ? sim.userActions().length : 0;
  const at = moment && cursor !== null ? cursor : undefined;

  useEffect(() => {
    if (!open || !sim) return;
    let live = true;
    void runLink(sim, location.href, at === undefined ? {} : { at }).then((l) => {
      if (live) setLink(l);
    });
    setCopyState('idle');
    return () => {
      live = false;
    };
  }, [open, sim, at, userCount]);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') set({ shareOpen: false });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  if (!open || !sim) return null;
  void frame;

  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(link);
      setCopyState('copied');
    } catch {
      // No clipboard permission (or not a secure context): select it for a manual copy.
      inputRef.current?.select();
      setCopyState('failed');
    }
  };

  const exportRun = async (): Promise<void> => {
    setExportState(rs(lang, 'exporting'));
    try {
      // Loaded on the first export: the view renderer is not needed before (the zip is built in a worker).
      const { buildRunZip, download } = await import('../exportRun');
      const z = await buildRunZip(sim);
      download(z.name, z.zip);
      setExportState(rs(lang, 'exported', { file: z.name }));
    } catch (e) {
      setExportState(rs(lang, 'exportFailed', { cause: e instanceof Error ? e.message : String(e) }));
    }
  };

  return (
    <div className="share-dialog" role="dialog" aria-label={rs(lang, 'shareDialog')} data-testid="share-dialog">
      <div className="share-head">
        <strong>{rs(lang, 'shareDialog')}</strong>
        <button type="button" className="compact" onClick={() => set({ shareOpen: false })} aria-label={rs(lang, 'close')} title={rs(lang, 'close')}>
          ✕
        </button>
      </div>
      <label className="share-label" htmlFor="share-link">
        {userCount > 0 ? rs(lang, 'shareRunLink', { n: userCount }) : rs(lang, 'shareRunLinkNone')}
      </label>
      <div className="row">
        <input id="share-link" ref={inputRef} className="share-link num" readOnly value={link} data-testid="share-link" onFocus={(e) => e.target.select()} />
        <button type="button" onClick={() => void copy()} data-testid="share-copy" disabled={!link}>
          {copyState === 'copied' ? rs(lang, 'copied') : rs(lang, 'copy')}
        </button>
      </div>
      <div className="muted small">
        {link ? rs(lang, 'linkLength', { n: link.length }) : '…'}
        {copyState === 'failed' && ` · ${rs(lang, 'copyFailed')}`}
      </div>
      {cursor !== null && (
        <label className="row share-moment">
          <input type="checkbox" checked={moment} onChange={(e) => setMoment(e.target.checked)} data-testid="share-moment" />
          {rs(lang, 'shareMoment', { t: secondsNumber(cursor) })}
        </label>
      )}
      <div className="row share-export">
        <button type="button" className="primary" onClick={() => void exportRun()} title={rs(lang, 'exportTitle')} data-testid="export-run">
          {rs(lang, 'exportRun')}
        </button>
        <span className="muted small" data-testid="export-status">
          {exportState}
        </span>
      </div>
    </div>
  );
}
