/**
 * The worker client of the editor's tests: each request is answered by the worker's own dispatcher
 * (`handleRequest`) in this thread, so a source registered by the test is seen and no process is
 * started. `before` sees every request first (to count it, or to hold it back on a gate).
 */
import { handleRequest } from "../../../src/core/worker/stateWorker";
import type { WorkerRequest } from "../../../src/core/worker/workerProtocol";
import type { StateWorkerClient } from "../../../src/extension/stateWorkerClient";

/** A worker client answering in this thread (see the module comment). */
export function inThreadWorker(before?: (req: Omit<WorkerRequest, "id">) => void | Promise<void>): StateWorkerClient {
  let id = 1;
  return {
    request: async (req: Omit<WorkerRequest, "id">) => {
      await before?.(req);
      return handleRequest({ ...req, id: id++ } as WorkerRequest, () => undefined);
    },
    onProgress: () => ({ dispose: () => undefined }),
    onLiveFile: () => ({ dispose: () => undefined }),
    onDidRestart: () => ({ dispose: () => undefined }),
    dispose: () => undefined,
  } as unknown as StateWorkerClient;
}
