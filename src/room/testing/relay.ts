import * as Y from 'yjs';

/**
 * Tests only: carries one document's updates to a replica after a delay measured in rounds of a
 * test's loop — the room server's fan-out, with a network that is as slow as the test likes.
 */
export class Relay {
  private readonly pending: Array<{ due: number; update: Uint8Array }> = [];
  private readonly onUpdate = (update: Uint8Array, origin: unknown): void => {
    if (origin !== this) this.pending.push({ due: this.round() + this.delay, update });
  };

  constructor(
    private readonly src: Y.Doc,
    readonly dst: Y.Doc,
    private readonly delay: number,
    private readonly round: () => number,
  ) {
    Y.applyUpdate(dst, Y.encodeStateAsUpdate(src), this);
    src.on('update', this.onUpdate);
  }

  /** Delivers every update that is due. */
  flush(): void {
    while (this.pending.length > 0 && this.pending[0].due <= this.round()) Y.applyUpdate(this.dst, this.pending.shift()!.update, this);
  }

  stop(): void {
    this.src.off('update', this.onUpdate);
  }
}
