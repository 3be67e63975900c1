/**
 * The registration of every source's manifest, in the order the tree and the CLI list them: what
 * the extension host knows of the sources (kinds, detect globs, settings, commands) without loading
 * an engine. The engines are registered in sourceRegistry.ts, in the same order (a test keeps the
 * two lists alike). A new source is one import and one entry here.
 */
import { agloopManifest } from "./agloop/agloopManifest";
import { autodevManifest } from "./autodev/autodevManifest";
import { engineStateManifest } from "./engineState/engineStateManifest";
import type { SourceManifest } from "./stateSource";

/** Every known source's manifest. Sources add themselves here (one line each). */
export const SOURCE_MANIFESTS: readonly SourceManifest[] = [autodevManifest, agloopManifest, engineStateManifest];

/**
 * Adds a manifest at run time (sourceRegistry.ts's `registerSourceForTest` does, for a fake source)
 * and returns the function that removes it again.
 */
export function registerManifestForTest(manifest: SourceManifest): () => void {
  const list = SOURCE_MANIFESTS as SourceManifest[];
  list.push(manifest);
  return () => {
    const i = list.indexOf(manifest);
    if (i >= 0) list.splice(i, 1);
  };
}
