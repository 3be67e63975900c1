/**
 * The registration of source adapters on the extension side: a source with VS Code needs of its
 * own adds one line here; every other registered source (src/core/sources/manifestRegistry.ts) is
 * shown by the default adapter. This file and the composition root are the only generic files
 * that may import a source's folder (test/unit/rules/seamGuards.test.ts keeps it so).
 */
import type { AdapterHost, SourceAdapterFactory } from "./adapterHost";
import { createAutodevAdapter } from "./autodev/autodevAdapter";
import { DefaultAdapters } from "./defaultAdapter";
import type { SourceAdapter } from "./sourceAdapter";

/** Adapters of sources that need more than the default one, by kind. */
const SOURCE_ADAPTERS: Readonly<Record<string, SourceAdapterFactory>> = {
  autodev: createAutodevAdapter,
};

/** Makes every adapter (the registered ones now, default ones on first use) and returns the lookup by kind. */
export function createAdapters(host: AdapterHost): {
  adapterOf: (kind: string) => SourceAdapter;
  made: SourceAdapter[];
  defaults: DefaultAdapters;
} {
  const made = new Map<string, SourceAdapter>();
  for (const [kind, factory] of Object.entries(SOURCE_ADAPTERS)) made.set(kind, factory(host));
  const defaults = new DefaultAdapters(host);
  return {
    adapterOf: (kind) => made.get(kind) ?? defaults.adapter(kind),
    made: [...made.values()],
    defaults,
  };
}
