import { describe, expect, it } from 'vitest';
import { select } from 'd3';
import './d3quiet';

/**
 * A minimal element: its children are text nodes, and `textContent` replaces them as the DOM does.
 * Counts what the renderer would see: text nodes replaced, and text nodes changed in place.
 */
class FakeText {
  readonly nodeType = 3;
  nextSibling: FakeText | null = null;
  edits = 0;
  constructor(private value: string) {}
  get data(): string {
    return this.value;
  }
  set data(v: string) {
    this.edits++;
    this.value = v;
  }
}
class FakeElement {
  kids: FakeText[] = [];
  replaced = 0;
  get firstChild(): FakeText | null {
    return this.kids[0] ?? null;
  }
  get textContent(): string {
    return this.kids.map((k) => k.data).join('');
  }
  set textContent(v: string) {
    this.replaced++;
    this.kids = v === '' ? [] : [new FakeText(v)];
  }
}

const asEl = (e: FakeElement): Element => e as unknown as Element;

describe('quiet text', () => {
  it('changes a lone text node in place, and writes nothing when the text is the same', () => {
    const el = new FakeElement();
    select(asEl(el)).text('v1');
    expect(el.replaced).toBe(1);
    const node = el.firstChild!;
    select(asEl(el)).text('v2');
    select(asEl(el)).text(() => 'v3');
    expect(el.firstChild).toBe(node);
    expect(el.textContent).toBe('v3');
    expect([el.replaced, node.edits]).toEqual([1, 2]);
    select(asEl(el)).text('v3');
    expect(node.edits).toBe(2);
  });

  it('replaces the children where there is not exactly one text node, and empties with ""', () => {
    const el = new FakeElement();
    el.kids = [new FakeText('a'), new FakeText('b')];
    el.kids[0].nextSibling = el.kids[1];
    select(asEl(el)).text('c');
    expect([el.textContent, el.kids.length, el.replaced]).toEqual(['c', 1, 1]);
    select(asEl(el)).text('');
    expect([el.textContent, el.kids.length, el.replaced]).toEqual(['', 0, 2]);
    select(asEl(el)).text(null);
    expect(el.replaced).toBe(2);
  });
});

/** An element with a class list that counts its writes (each one a mutation in a browser). */
function classedElement(initial: string[]): { el: Element; writes: () => number; classes: () => string[] } {
  const set = new Set(initial);
  let writes = 0;
  const classList = {
    contains: (c: string) => set.has(c),
    toggle: (c: string, on: boolean) => {
      writes++;
      if (on) set.add(c);
      else set.delete(c);
      return on;
    },
    add: (...cs: string[]) => {
      writes++;
      for (const c of cs) set.add(c);
    },
    remove: (...cs: string[]) => {
      writes++;
      for (const c of cs) set.delete(c);
    },
  };
  return { el: { classList } as unknown as Element, writes: () => writes, classes: () => [...set].sort() };
}

describe('quiet classed', () => {
  it('writes a class only where the element does not have it as asked, for each name given', () => {
    const a = classedElement(['down']);
    select(a.el).classed('down', true);
    select(a.el).classed('cut', () => false);
    expect(a.writes()).toBe(0);
    select(a.el).classed(' cut  partitioned ', true);
    expect([a.classes(), a.writes()]).toEqual([['cut', 'down', 'partitioned'], 2]);
    select(a.el).classed('down', () => 0 as unknown as boolean);
    expect([a.classes(), a.writes()]).toEqual([['cut', 'partitioned'], 3]);
    // The getter is D3's own.
    expect(select(a.el).classed('cut')).toBe(true);
  });
});
