/**
 * The topology's moving parts — messages in flight, the ✕ of a dropped message, the progress ring
 * of a computing worker — change on every frame, so they are drawn on one canvas between the
 * links and the nodes instead of as SVG elements: a frame repaints one layer, and the SVG is
 * touched only when a node, a link or the partition changes.
 */

export interface FlightDot {
  x: number;
  y: number;
  colour: string;
}

export interface DropGlyph {
  x: number;
  y: number;
  colour: string;
  opacity: number;
}

export interface ProgressArc {
  x: number;
  y: number;
  /** Inner radius; the ring is 3 px wide. */
  r: number;
  /** 0…1 of the step done. */
  frac: number;
}

export interface MovingParts {
  dots: FlightDot[];
  dotR: number;
  drops: DropGlyph[];
  arcs: ProgressArc[];
}

/** Colours and type the canvas cannot take from CSS itself (read from the view when the theme changes). */
export interface CanvasStyle {
  bg: string;
  fg: string;
  font: string;
  /** px */
  dropSize: number;
}

export function drawMovingParts(ctx: CanvasRenderingContext2D, width: number, height: number, parts: MovingParts, style: CanvasStyle): void {
  ctx.clearRect(0, 0, width, height);
  // Progress rings (.cv-progress: the text colour at 0.55 opacity), clockwise from 12 o'clock.
  if (parts.arcs.length > 0) {
    ctx.globalAlpha = 0.55;
    ctx.strokeStyle = style.fg;
    ctx.lineWidth = 3;
    ctx.beginPath();
    for (const a of parts.arcs) {
      const r = a.r + 1.5;
      const start = -Math.PI / 2;
      ctx.moveTo(a.x + r * Math.cos(start), a.y + r * Math.sin(start));
      ctx.arc(a.x, a.y, r, start, start + 2 * Math.PI * Math.min(1, a.frac));
    }
    ctx.stroke();
    ctx.globalAlpha = 1;
  }
  // Messages (.cv-msg: kind colour, a 1.5 px ring of the background).
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = style.bg;
  for (const d of parts.dots) {
    ctx.beginPath();
    ctx.arc(d.x, d.y, parts.dotR, 0, 2 * Math.PI);
    ctx.fillStyle = d.colour;
    ctx.fill();
    ctx.stroke();
  }
  // Dropped messages (.cv-drop: bold ✕ in the kind's colour, haloed by the background).
  if (parts.drops.length > 0) {
    ctx.font = `700 ${style.dropSize}px ${style.font || 'sans-serif'}`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.lineWidth = 3;
    ctx.lineJoin = 'round';
    for (const d of parts.drops) {
      ctx.globalAlpha = d.opacity;
      ctx.strokeStyle = style.bg;
      ctx.strokeText('✕', d.x, d.y);
      ctx.fillStyle = d.colour;
      ctx.fillText('✕', d.x, d.y);
    }
    ctx.globalAlpha = 1;
  }
}
