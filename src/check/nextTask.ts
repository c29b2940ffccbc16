/**
 * Waits for the next macrotask. A loop of runs (the checker's seeds, a sweep's values, a
 * scenario's variants) awaits only microtasks, so to V8 it is one long task — and V8 keeps every
 * WeakRef target made or read during a task alive until the task ends (a history's decoded
 * events, History.events): 1000 kafka-ps seeds of `npm run check` reached the 4 GB heap limit,
 * 5.7 MB per seed. Awaiting this between runs lets them go.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
