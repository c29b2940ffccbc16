import { memo, useEffect, useRef, type CSSProperties, type JSX } from 'react';
import type { Evaluation, SamplePrediction } from '../../train/types';
import { addEnglish, translate, type KeyOf, type Vars } from '../i18n/catalog';
import type { Lang } from '../i18n/lang';
import { textWidth } from './hooks';
import './FashionTile.css';
import enFashion from '../i18n/locales/en.fashion.json';

// The tiles' English texts come with them (catalog.ts `addEnglish`).
addEnglish('fashion', enFashion);

/**
 * A replica's tile for Fashion-MNIST, where a 2-D decision boundary does not exist: accuracy per
 * class on the fixed evaluation set, and six evaluation images with the replica's predictions.
 * Purely presentational: it draws the Evaluation it is given (`sim.evaluationAt(node, t)`, the
 * evaluation the engine took with the snapshot at t, live or scrubbed, asked once per snapshot).
 * Memoised, and the pixel canvases are drawn once per image (the same six images come back at
 * every evaluation).
 */

/** Fashion-MNIST's ten classes, in label order (0–9): keys of the `fashion` catalog namespace, short enough for a tile. */
export const fashionClassKeys = ['tshirt', 'trouser', 'pullover', 'dress', 'coat', 'sandal', 'shirt', 'sneaker', 'bag', 'boot'] as const satisfies readonly KeyOf<'fashion'>[];

function word(lang: Lang, key: KeyOf<'fashion'>, vars?: Vars): string {
  return translate(lang, 'fashion', key, vars);
}

export interface FashionBar {
  label: number;
  name: string;
  accuracy: number;
  /** "85%" */
  pct: string;
}

export interface FashionSample {
  key: number;
  image: Uint8Array;
  right: boolean;
  /** "✓ Bag" or "✗ Shirt" (the mark keeps right and wrong apart without colour). */
  caption: string;
  /** Hover text: true class, predicted class and the model's confidence. */
  title: string;
}

function className(c: number, lang: Lang): string {
  const key = fashionClassKeys[c];
  return key ? word(lang, key) : String(c);
}

/** What the tile shows, as data (tested without a DOM). */
export function fashionTileModel(e: Evaluation | null | undefined, lang: Lang): { bars: FashionBar[]; samples: FashionSample[] } | null {
  if (!e?.perClass) return null;
  const bars = e.perClass.map((a, c) => ({ label: c, name: className(c, lang), accuracy: a, pct: `${Math.round(a * 100)}%` }));
  const samples = (e.samples ?? []).map((s: SamplePrediction) => {
    const right = s.predicted === s.label;
    return {
      key: s.index,
      image: s.image,
      right,
      caption: `${right ? '✓' : '✗'} ${className(s.predicted, lang)}`,
      title: word(lang, 'sampleTitle', { truth: className(s.label, lang), predicted: className(s.predicted, lang), pct: Math.round(s.confidence * 100) }),
    };
  });
  return { bars, samples };
}

/** Ink dark on a light ground (the idx files store 0 = background). */
function drawImage(canvas: HTMLCanvasElement, image: Uint8Array): void {
  const side = Math.round(Math.sqrt(image.length));
  canvas.width = side;
  canvas.height = side;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  const px = ctx.createImageData(side, side);
  for (let i = 0; i < image.length; i++) {
    const v = 255 - image[i];
    px.data[4 * i] = v;
    px.data[4 * i + 1] = v;
    px.data[4 * i + 2] = v;
    px.data[4 * i + 3] = 255;
  }
  ctx.putImageData(px, 0, 0);
}

function SampleImage({ sample }: { sample: FashionSample }): JSX.Element {
  const ref = useRef<HTMLCanvasElement>(null);
  const drawn = useRef(-1);
  useEffect(() => {
    // The images are fixed per index: draw once, not on every new evaluation.
    if (ref.current && drawn.current !== sample.key) {
      drawImage(ref.current, sample.image);
      drawn.current = sample.key;
    }
  }, [sample.key, sample.image]);
  return (
    <figure className={`ft-sample ${sample.right ? 'ft-right' : 'ft-wrong'}`} title={sample.title} data-testid="fashion-sample" data-right={sample.right}>
      <canvas ref={ref} width={28} height={28} aria-label={sample.title} role="img" />
      {/* Its length (in 0.6-em characters: a Chinese one counts nearly two) sets the type that fits the column (FashionTile.css): "✗ Sneaker" was cut to "✗ Sne…". */}
      <figcaption style={{ '--chars': Math.ceil(textWidth(sample.caption, 10) / 6) } as CSSProperties}>{sample.caption}</figcaption>
    </figure>
  );
}

export interface FashionTileProps {
  evaluation: Evaluation | null | undefined;
  lang: Lang;
  /** Tile width in CSS px (the replica panel's side); the tile grows downwards as needed, unless `fit`. */
  size?: number;
  /** The replica's colour (border and bars). */
  colour?: string;
  /** Greyed out, dashed border: the replica is down. */
  down?: boolean;
  /** Take the height the parent gives (a flex item) and scale the rows to it (FashionTile.css). */
  fit?: boolean;
}

function FashionTileImpl({ evaluation, lang, size = 180, colour, down = false, fit = false }: FashionTileProps): JSX.Element {
  const m = fashionTileModel(evaluation, lang);
  const style = { width: size, ...(colour ? { ['--ft-accent' as string]: colour } : {}) };
  return (
    <div className={`ft-tile${down ? ' ft-down' : ''}${fit ? ' ft-fit' : ''}`} style={style} data-testid="fashion-tile">
      {!m ? (
        <div className="ft-empty">{word(lang, 'noEval')}</div>
      ) : (
        <div className="ft-body">
          <div className="ft-bars" role="list" aria-label={word(lang, 'perClass')}>
            {m.bars.map((b) => (
              <div key={b.label} role="listitem" style={{ display: 'contents' }} aria-label={`${b.name} ${b.pct}`}>
                <span className="ft-name">{b.name}</span>
                <span className="ft-track">
                  <span className="ft-fill" style={{ display: 'block', width: b.pct }} />
                </span>
                <span className="ft-pct">{b.pct}</span>
              </div>
            ))}
          </div>
          <div className="ft-samples" aria-label={word(lang, 'samples')}>
            {m.samples.map((s) => (
              <SampleImage key={s.key} sample={s} />
            ))}
          </div>
        </div>
      )}
    </div>
  );
}

/** Re-renders only when its evaluation, language, size, colour, state or fit changes. */
export const FashionTile = memo(FashionTileImpl);
