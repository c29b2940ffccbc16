import { describe, expect, it } from 'vitest';
import type { Evaluation } from '../../train/types';
import { fashionClassKeys, fashionTileModel } from './FashionTile';

const image = (v: number) => new Uint8Array(784).fill(v);

describe('FashionTile model', () => {
  const e: Evaluation = {
    loss: 0.9,
    accuracy: 0.7,
    perClass: [1, 0.95, 0.5, 0.8, 0.6, 0.9, 0.25, 0.85, 0.9, 0.25],
    samples: [
      { index: 0, label: 8, predicted: 8, confidence: 0.91, image: image(1) },
      { index: 1, label: 6, predicted: 0, confidence: 0.48, image: image(2) },
    ],
  };

  it('one bar per class with its name and rounded percentage, in both languages', () => {
    const en = fashionTileModel(e, 'en')!;
    expect(en.bars.map((b) => b.pct)).toEqual(['100%', '95%', '50%', '80%', '60%', '90%', '25%', '85%', '90%', '25%']);
    expect(en.bars[9].name).toBe('Boot');
    expect(fashionTileModel(e, 'zh')!.bars[9].name).toBe('短靴');
    // Ten distinct names per language, each a translation rather than its catalog key.
    for (const lang of ['en', 'zh'] as const) {
      const names = fashionTileModel(e, lang)!.bars.map((b) => b.name);
      expect(new Set(names).size).toBe(10);
      expect(names.filter((n, i) => n === fashionClassKeys[i])).toEqual([]);
    }
  });

  it('sample captions mark right and wrong without relying on colour; the title gives truth and confidence', () => {
    const [a, b] = fashionTileModel(e, 'en')!.samples;
    expect(a).toMatchObject({ right: true, caption: '✓ Bag', title: 'true: Bag · predicted: Bag (91%)' });
    expect(b).toMatchObject({ right: false, caption: '✗ T-shirt', title: 'true: Shirt · predicted: T-shirt (48%)' });
    expect(fashionTileModel(e, 'zh')!.samples[1].title).toBe('实际：衬衫 · 预测：T恤 (48%)');
  });

  it('nothing to draw for a 2-D dataset’s evaluation or none yet', () => {
    expect(fashionTileModel({ loss: 0.3, accuracy: 0.9 }, 'en')).toBeNull();
    expect(fashionTileModel(undefined, 'en')).toBeNull();
  });
});
