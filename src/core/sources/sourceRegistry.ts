/**
 * The registration of every state source, in the order the tree and the CLI list them.
 * A new source is one import and one entry here.
 */
import { engineStateSource } from "./engineState/engineStateSource";
import type { SourceKind, StateSource } from "./stateSource";

/** Every known state source. Sources add themselves here (one line each). */
export const STATE_SOURCES: readonly StateSource[] = [
  engineStateSource,
];

/** The source of a kind, or undefined when no such source is registered. */
export function sourceOfKind(kind: SourceKind): StateSource | undefined {
  return STATE_SOURCES.find((source) => source.kind === kind);
}
