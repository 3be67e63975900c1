/**
 * AutoDev's own requests to the state worker, typed: the worker's generic `source` request
 * carries them to AutoDev's worker part (src/core/sources/autodev/worker/autodevWorker.ts).
 */
import type { AutodevRequest, AutodevResults } from "../../../core/sources/autodev/worker/autodevRequests";
import type { StateWorkerClient } from "../../stateWorkerClient";

/** Sends one AutoDev request about the folder `cwd`; `onId` learns its id (to cancel it). */
export function autodevRequest<R extends AutodevRequest>(
  worker: StateWorkerClient,
  cwd: string,
  request: R,
  onId?: (id: number) => void,
): Promise<AutodevResults[R["type"]]> {
  return worker.request({ type: "source", kind: "autodev", cwd, request }, onId) as Promise<AutodevResults[R["type"]]>;
}
