import { termColour, termText, type LogBox, type PanelFlavor } from './serverModel';

/** One row's boxes on the servers panel's canvas. */
export interface BoxRow {
  /** Top of the row's boxes, in the panel's user space. */
  y0: number;
  up: boolean;
  boxes: readonly LogBox[];
}

export interface BoxStyle {
  /** A box's side. */
  box: number;
  colX: (index: number) => number;
  flavor: PanelFlavor;
  /** The page's font family, and the panel's and text's colours. */
  font: string;
  panel: string;
  fg: string;
}

/**
 * The servers panel's log boxes, on its canvas (up to a few hundred, all moving when the window
 * slides by one index): coloured by term, committed solid, uncommitted hollow and dashed, a down
 * server's faded, and those a Raft server has compacted into its snapshot fainter still. The context is already scaled to the panel's user space and cleared.
 */
export function drawLogBoxes(g2d: CanvasRenderingContext2D, rows: readonly BoxRow[], st: BoxStyle): void {
  const { box } = st;
  const fontPx = Math.max(10, Math.min(13, box * 0.6));
  g2d.font = `${fontPx}px ${st.font || 'sans-serif'}`;
  g2d.textAlign = 'center';
  g2d.textBaseline = 'middle';
  for (const r of rows) {
    const alpha = r.up ? 1 : 0.45;
    for (const e of r.boxes) {
      g2d.globalAlpha = e.compacted ? alpha * 0.3 : alpha;
      const x0 = st.colX(e.index);
      const c = termColour(e.term);
      g2d.beginPath();
      g2d.roundRect(x0, r.y0, box, box, 2);
      g2d.fillStyle = e.committed ? c : st.panel;
      g2d.fill();
      g2d.strokeStyle = c;
      g2d.lineWidth = e.committed ? 1 : 2;
      g2d.setLineDash(e.committed ? [] : [3, 2]);
      g2d.stroke();
      // The term (epoch, ballot) where it fits; a 2PC box is coloured by its transaction and
      // shows only a decision (✓ commit, ✗ abort): transaction ids run to three digits.
      const label = st.flavor === '2pc' ? (e.label === '✓' || e.label === '✗' ? e.label : '') : box >= 15 && e.term < 100 ? String(e.term) : box >= 22 ? String(e.term) : '';
      if (label) {
        g2d.fillStyle = e.committed ? termText(e.term) : st.fg;
        g2d.fillText(label, x0 + box / 2, r.y0 + box / 2 + 0.5);
      }
    }
  }
  g2d.globalAlpha = 1;
  g2d.setLineDash([]);
}
