/// <reference lib="webworker" />
/**
 * Module Web Worker entry: one tfjs backend and one GradientComputer per thread, serving any
 * logical node (params travel with each request). Created by WorkerPool.
 */
import './wasmPaths';
import { createHandler } from './handler';
import type { WorkerRequest } from './protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;

const handle = createHandler(
  (msg, transfer) => scope.postMessage(msg, transfer),
  (err) => {
    // Thrown outside any handler so it is uncaught: the pool sees the worker's error event.
    setTimeout(() => {
      throw err;
    });
  },
);

scope.onmessage = (e: MessageEvent<WorkerRequest>) => {
  void handle(e.data);
};
