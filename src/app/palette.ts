/**
 * Okabe–Ito, colour-blind safe. Colour always means "which worker" and is the same in every view;
 * servers and brokers are neutral shapes, never a worker colour.
 */
export const workerColours = ['#E69F00', '#56B4E9', '#009E73', '#F0E442', '#0072B2', '#D55E00', '#CC79A7', '#999999'] as const;

export function colourOf(nodeId: string): string {
  if (!nodeId.startsWith('w')) return 'var(--neutral-node)';
  const i = Number(nodeId.slice(1));
  return workerColours[i % workerColours.length];
}

/** Message kinds are coloured by kind (with a legend), distinct from worker colours by a dashed stroke pattern. */
export const messageColours: Record<string, string> = {
  chunk: '#3b6fb6',
  gradient: '#c0392b',
  params: '#2e8b57',
  pull: '#7f8c8d',
  ack: '#95a5a6',
  state: '#8e44ad',
  nack: '#b7950b',
  'state-req': '#8e44ad',
};
