import { memo, useEffect, useRef, type JSX } from 'react';
import type { Evaluation, SamplePrediction } from '../../train/types';
import type { Lang, Text } from '../i18n/lang';
import './FashionTile.css';

/**
 * A replica's tile for Fashion-MNIST, where a 2-D decision boundary does not exist: accuracy per
 * class on the fixed evaluation set, and six evaluation images with the replica's predictions.
 * Purely presentational: it draws the Evaluation it is given (live: `sim.evaluation(node)`;
 * scrubbed: `trainer.evaluate(sim.paramsAt(node, t))`). Memoised, and the pixel canvases are
 * drawn once per image (the same six images come back at every evaluation).
 */

/** Fashion-MNIST's ten classes, in label order (0–9), short enough for a tile. */
export const fashionClassNames: readonly Text[] = [
  { en: 'T-shirt', zh: 'T恤' },
  { en: 'Trouser', zh: '裤子' },
  { en: 'Pullover', zh: '套头衫' },
  { en: 'Dress', zh: '连衣裙' },
  { en: 'Coat', zh: '外套' },
  { en: 'Sandal', zh: '凉鞋' },
  { en: 'Shirt', zh: '衬衫' },
  { en: 'Sneaker', zh: '运动鞋' },
  { en: 'Bag', zh: '包' },
  { en: 'Boot', zh: '短靴' },
];

const words = {
  perClass: { en: 'accuracy per class', zh: '各类别准确率' },
  samples: { en: 'sample predictions', zh: '样例预测' },
  noEval: { en: 'not evaluated yet', zh: '尚未评估' },
  truth: { en: 'true', zh: '实际' },
  predicted: { en: 'predicted', zh: '预测' },
} satisfies Record<string, Text>;
const colon: Text = { en: ': ', zh: '：' };

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
  return fashionClassNames[c]?.[lang] ?? String(c);
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
      title: `${words.truth[lang]}${colon[lang]}${className(s.label, lang)} · ${words.predicted[lang]}${colon[lang]}${className(s.predicted, lang)} (${Math.round(s.confidence * 100)}%)`,
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
      <figcaption>{sample.caption}</figcaption>
    </figure>
  );
}

export interface FashionTileProps {
  evaluation: Evaluation | null | undefined;
  lang: Lang;
  /** Tile width in CSS px (the replica panel's side); the tile grows downwards as needed. */
  size?: number;
  /** The replica's colour (border and bars). */
  colour?: string;
  /** Greyed out, dashed border: the replica is down. */
  down?: boolean;
}

function FashionTileImpl({ evaluation, lang, size = 180, colour, down = false }: FashionTileProps): JSX.Element {
  const m = fashionTileModel(evaluation, lang);
  const style = { width: size, ...(colour ? { ['--ft-accent' as string]: colour } : {}) };
  return (
    <div className={`ft-tile${down ? ' ft-down' : ''}`} style={style} data-testid="fashion-tile">
      {!m ? (
        <div className="ft-empty">{words.noEval[lang]}</div>
      ) : (
        <>
          <div className="ft-bars" role="list" aria-label={words.perClass[lang]}>
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
          <div className="ft-samples" aria-label={words.samples[lang]}>
            {m.samples.map((s) => (
              <SampleImage key={s.key} sample={s} />
            ))}
          </div>
        </>
      )}
    </div>
  );
}

/** Re-renders only when its evaluation, language, size, colour or state changes. */
export const FashionTile = memo(FashionTileImpl);
