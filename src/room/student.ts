import type * as Y from 'yjs';
import type { Action } from '../sim/types';
import { inboxTypes, nameSchema, requestSchema } from './doc';

/**
 * A student's side of her inbox document: her name and her requests. A request is only a wish:
 * the teacher's device decides on it and, if it accepts, places it in the room's log — which is
 * the only thing any simulation reads.
 */
export class StudentInbox {
  constructor(private readonly doc: Y.Doc) {}

  private types() {
    const t = inboxTypes(this.doc);
    if (typeof t === 'string') throw new Error(t);
    return t;
  }

  /** Sets the name shown on every screen; returns the reason if it is not a usable name. */
  setName(name: string): string | null {
    const r = nameSchema.safeParse(name);
    if (!r.success) return r.error.issues[0]?.message ?? 'not a name';
    const t = this.types();
    if (t.hello.get('name') !== r.data) this.doc.transact(() => t.hello.set('name', r.data), 'student');
    return null;
  }

  name(): string | null {
    const v = this.types().hello.get('name');
    return typeof v === 'string' ? v : null;
  }

  /** Ids only grow; the inbox survives a reload on the server, so the next id continues from it. */
  private nextId(): number {
    let max = 0;
    for (const raw of this.types().requests.toArray()) {
      const r = requestSchema.safeParse(raw);
      if (r.success && r.data.id > max) max = r.data.id;
    }
    return max + 1;
  }

  /** Asks the teacher to apply `action` in run `run`; `asked` is this device's simulated now. */
  request(action: Action, run: number, asked: number): number {
    const id = this.nextId();
    const t = this.types();
    this.doc.transact(() => t.requests.push([JSON.parse(JSON.stringify({ id, run, action, asked }))]), 'student');
    return id;
  }
}
