/**
 * The registration of every state source's engine, in the order the tree and the CLI list them (the
 * order of manifestRegistry.ts, which the extension host uses instead). Only the worker, the CLI and
 * the tests load this. A new source is one import and one entry here.
 */
import { agloopSource } from "./agloop/agloopSource";
import { engineStateSource } from "./engineState/engineStateSource";
import type { SourceKind, StateSource } from "./stateSource";
import { registerManifestForTest } from "./manifestRegistry";
import { autodevSource } from "./autodev/autodevSource";

/** Every known state source. Sources add themselves here (one line each). */
export const STATE_SOURCES: readonly StateSource[] = [autodevSource, agloopSource, engineStateSource];

/** The source of a kind, or undefined when no such source is registered. */
export function sourceOfKind(kind: SourceKind): StateSource | undefined {
  return STATE_SOURCES.find((source) => source.kind === kind);
}

/**
 * Adds a source at run time, its manifest too (tests register fakes this way), and returns the
 * function that removes it again. Products register in the list above.
 */
export function registerSourceForTest(source: StateSource): () => void {
  const list = STATE_SOURCES as StateSource[];
  list.push(source);
  const unregisterManifest = registerManifestForTest(source);
  return () => {
    const i = list.indexOf(source);
    if (i >= 0) list.splice(i, 1);
    unregisterManifest();
  };
}
